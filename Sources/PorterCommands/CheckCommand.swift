import ArgumentParser
import Foundation
import Porter

/// `porter check DB`: SQLite's integrity check plus Porter's own consistency checks.
public struct CheckCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check a database: SQLite integrity, schema against tables, links, embedded parents, primary keys, required values; or a Realm file's structure.",
        discussion:
            "Prints 'ok' and exits 0 when the file is sound; otherwise prints one line per problem and exits 1. The file is opened read-only and never written to."
    )
    /// The database file.
    @Argument(help: "A Porter database or a Realm file.") public var database: String
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// Print one JSON document (diagnosis, evidence, problems) instead of lines.
    @Flag(name: .long, help: "Print the result as one JSON document: diagnosis, evidence, problems.") public var json =
        false
    /// ArgumentParser requirement.
    public init() {}

    /// Runs the checks and prints `ok` or the problems.
    public func run(output: CommandOutput) throws {
        // Read-only: a check must never be the thing that changes a suspect file.
        if json { return try runJSON(output: output) }
        let problems: [String]
        switch try StoreFile.open(database, encryption: encryption) {
        case .porter(let db): problems = try db.checkConsistency()
        case .realm(let file): problems = try file.check()
        }
        guard !problems.isEmpty else {
            output.out("ok")
            return
        }
        for line in problems { output.out("\(database): \(line)") }
        throw PorterError(
            .notADatabase, "\(problems.count) consistency problem\(problems.count == 1 ? "" : "s") found",
            location: database)
    }
}
