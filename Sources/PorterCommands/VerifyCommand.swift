import ArgumentParser
import Foundation
import Porter

/// `porter verify SOURCE TARGET [--encryption-key HEX] [--target-encryption-key HEX] [--json]`.
public struct VerifyCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Prove that a copy lost nothing: compare every object of SOURCE and TARGET, class by class.",
        discussion: """
            SOURCE and TARGET: a Realm file, a Porter database, a relational SQLite export (export --format \
            sqlite), a PostgreSQL database an export loaded (postgresql://…[?schema=NAME]) or an export \
            folder (bson, json, ejson, ejson-canonical, csv; with its schema.json). \
            Objects are matched by primary key (by _key, the object key an export writes, for classes without \
            one) and compared value by value: links as the linked object's key, sets in any order, dates to \
            the millisecond when a side is BSON or Extended JSON (they hold milliseconds), otherwise to the \
            nanosecond; a float in a mixed value is compared as a double when a side is not a Realm file. \
            Prints a table per class (source, target, matched, differing, missing, extra) and exits 0 when \
            everything matches; otherwise the first line names the first difference \
            (Dog[_id=3].age: source 3, target 4, or a missing or extra object) and the exit code is 1. \
            Neither side is written; SQLite and PostgreSQL exports are read where they are, export folders \
            through a private copy in a temporary folder that is removed afterwards.
            """)
    /// The original.
    @Argument(help: "The original: a Realm file, a Porter database, a SQLite export or an export folder.")
    public var source: String
    /// The copy.
    @Argument(
        help: "The copy: a Realm file, a Porter database, a SQLite export, a postgresql:// URL or an export folder.")
    public var target: String
    /// The key of an encrypted Realm file as SOURCE.
    @OptionGroup public var encryption: EncryptionOptions
    /// The key of an encrypted Realm file as TARGET.
    @Option(
        name: .long,
        help: ArgumentHelp("The 64-byte key of an encrypted Realm file as TARGET, as 128 hex digits.", valueName: "hex")
    )
    public var targetEncryptionKey: String?
    /// One JSON document instead of the table.
    @Flag(name: .long, help: "Print the result as one JSON document: passed, firstDifference, classes, notes.")
    public var json = false
    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors, before anything is opened: exit code 64 through ArgumentParser.
    public func validate() throws {
        if let hex = targetEncryptionKey {
            do { _ = try EncryptionOptions.parseHex(hex, source: "--target-encryption-key") } catch let error
                as PorterError
            {
                throw ValidationError(error.headline)
            }
        }
    }

    /// Compares, prints the table, and exits 1 when anything differs.
    public func run(output: CommandOutput) throws {
        // A caught SIGINT, SIGTERM or SIGHUP removes the private copies; what killed runs left in
        // the temporary folder goes first. Nothing is ever written or swept beside SOURCE or TARGET.
        SignalCleanup.install()
        _ = TemporaryFiles.sweepTemporaryFolder()
        let targetKey = try targetEncryptionKey.map {
            try EncryptionOptions.parseHex($0, source: "--target-encryption-key")
        }
        let report = try Verification.verify(
            source: source, sourceKey: try encryption.key(), target: target, targetKey: targetKey)
        if json {
            output.out(jsonText(report))
        } else {
            if let first = report.firstDifference { output.out(first) }
            for line in report.tableLines { output.out(line) }
            for note in report.notes { output.out(note) }
            let total = report.classes.reduce(0) { $0 + $1.sourceCount }
            if report.passed {
                output.out(
                    "verified: \(total) object\(total == 1 ? "" : "s") in \(report.classes.count) class\(report.classes.count == 1 ? "" : "es") match"
                )
            }
        }
        if !report.passed { throw ExitCode(1) }
    }

    private func jsonText(_ report: VerifyReport) -> String {
        let classes: [JSONValue] = report.classes.map { row in
            .object([
                "class": .string(row.className), "source": .number(row.sourceCount),
                "target": .number(row.targetCount), "matched": .number(row.matched),
                "differing": .number(row.differing), "missing": .number(row.missing), "extra": .number(row.extra),
            ])
        }
        let document = JSONValue.object([
            "passed": .bool(report.passed),
            "firstDifference": report.firstDifference.map { JSONValue.string($0) } ?? .null,
            "classes": .array(classes), "notes": .array(report.notes.map { JSONValue.string($0) }),
        ])
        return document.serialized(pretty: false)
    }
}
