import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `porter diff OLD NEW`: the changes between two schemas, classified, with data diagnostics when
/// OLD is a database, and likely renames.
public struct DiffCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the schema changes between two schema files, Porter databases or Realm files.",
        discussion: """
            OLD and NEW are each a schema file (JSON) or a database file (its stored schema). When OLD is a \
            database, each change also shows what its data says: objects affected, values a change would \
            lose, nulls blocking a required property, duplicates blocking a primary key, orphans. \
            With --exit-code: 0 when the schemas are the same, 2 when they differ, 1 on error.
            """)

    /// The old side.
    @Argument(help: "The old schema: a schema file, a Porter database or a Realm file.") public var old: String
    /// The new side.
    @Argument(help: "The new schema: a schema file, a Porter database or a Realm file.") public var new: String
    /// Output format.
    @Option(name: .long, help: "Output format: text or json.") public var format: OutputFormat = .text
    /// Exit with 2 when there are changes.
    @Flag(name: .long, help: "Exit with 0 when there are no changes, 2 when there are, 1 on error.") public
        var exitCode = false

    /// `--models`: what a Realm file does not store.
    @OptionGroup public var models: ModelsOption
    /// Renames to apply before comparing.
    @OptionGroup public var renaming: RenameOptions
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions

    /// ArgumentParser requirement.
    public init() {}

    /// The key for one side: a Porter database, a plain Realm file or a schema file takes none.
    private func key(for path: String) throws -> [UInt8]? {
        StoredFileKind.of(path: path) == .other && !isSchemaFile(path) ? try encryption.key() : nil
    }

    /// Output formats.
    public enum OutputFormat: String, ExpressibleByArgument, Sendable {
        /// For people.
        case text
        /// For programs.
        case json
    }

    /// Writes the diff through `output`; exits with 2 when asked to and the schemas differ.
    public func run(output: CommandOutput) throws {
        let modelSchema = try loadModels(models.path)
        let oldSchema = try loadSchema(old, key: try key(for: old), models: modelSchema)
        let newSchema = try loadSchema(new, key: try key(for: new), models: modelSchema)
        let renameSet = try renaming.renameSet()
        var report = try DiffReport(old: oldSchema, new: newSchema, renames: renameSet)
        if !isSchemaFile(old) {
            switch try StoreFile.open(old, key: try key(for: old)) {
            case .porter(let db):
                try db.read { try report.addDiagnostics(from: db) }
            case .realm(let file):
                // Read from the file itself, column by column: no copy, nothing written to disk.
                try report.addDiagnostics(from: RealmFileInspector(file))
            }
        }
        switch format {
        case .text: output.out(report.text(oldName: old, newName: new))
        case .json: output.out(report.jsonValue(oldName: old, newName: new).serialized(pretty: true))
        }
        if exitCode && report.hasChanges { throw ExitCode(2) }
    }
}
