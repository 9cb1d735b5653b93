import ArgumentParser
import Foundation
import Porter

/// `porter import DB SOURCE… [--schema S.json] [--create] [--format auto|bson|ejson|json]
/// [--class C] [--mode insert|upsert|merge] [--ignore-unknown] [--max-errors N]`.
public struct ImportCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import BSON, Extended JSON, plain JSON or fixture files into a database, all or nothing.")
    /// The database file.
    @Argument(help: "The database file.") public var database: String
    /// Files, export folders, or `-`.
    @Argument(help: "Export folders, .bson or .json files, fixture files, or '-' for stdin (with --class).") public var sources: [String]
    /// The schema for --create (or to open with).
    @Option(name: .long, help: "Schema file: creates the database with --create, or is applied when opening it.") public var schema: String?
    /// Create the database when missing.
    @Flag(name: .long, help: "Create the database when it does not exist (from --schema or the export folder's schema.json).") public var create = false
    /// Input format.
    @Option(name: .long, help: "auto (default: by extension and content), bson, ejson or json.") public var format: String = "auto"
    /// The class of single-class sources.
    @Option(name: .customLong("class"), help: "The class of single-class files and stdin (default: from the file name).") public var className: String?
    /// insert, upsert or merge.
    @Option(name: .long, help: "insert (duplicate primary key is an error), upsert (replace) or merge (update present fields).") public var mode: String = "insert"
    /// Skip unknown fields.
    @Flag(name: .long, help: "Skip fields that name no property instead of failing.") public var ignoreUnknown = false
    /// Error limit.
    @Option(name: .long, help: "Stop after this many errors (default 20).") public var maxErrors: Int = 20
    /// ArgumentParser requirement.
    public init() {}

    /// Imports, printing every problem as `FILE:DOC#:field.path: message`.
    public func run(output: CommandOutput) throws {
        guard let importMode = ImportMode(rawValue: mode) else {
            throw PorterError(.usage, "unknown --mode '\(mode)' (use insert, upsert or merge)")
        }
        guard maxErrors >= 1 else { throw PorterError(.usage, "--max-errors must be at least 1") }
        if sources.contains("-") && className == nil {
            throw PorterError(.usage, "reading stdin ('-') needs --class to name the documents' class")
        }
        var created = false
        let report: ImportReport
        do {
            // The database is opened inside `importAll`, so it is closed again before a database
            // this command created is removed after a failed import.
            report = try importAll(mode: importMode, created: &created)
        } catch let error as PorterError {
            if created { removeDatabaseFiles() }
            guard error.code == .invalidInput, !error.details.isEmpty else { throw error }
            for line in error.details { output.err(line) }
            throw PorterError(error.code, error.message, location: error.location)
        } catch {
            if created { removeDatabaseFiles() }
            throw error
        }
        output.out("Imported \(report.summary) into \(database) (mode \(importMode.rawValue))")
    }

    private func importAll(mode importMode: ImportMode, created: inout Bool) throws -> ImportReport {
        let (db, isNew) = try openOrCreate()
        created = isNew
        let importer = Importer(database: db, formats: InterchangeFormats.input,
                                options: ImportOptions(mode: importMode, ignoreUnknown: ignoreUnknown, maxErrors: maxErrors))
        return try importer.run(sources.map { ImportSource(path: $0, className: className) }, format: format)
    }

    /// Opens the database (applying --schema), or creates it with --create.
    private func openOrCreate() throws -> (Database, Bool) {
        let requested = try schema.map { try Schema(contentsOfFile: $0) }
        if FileManager.default.fileExists(atPath: database) {
            return (try Database.open(at: database, schema: requested), false)
        }
        guard create else {
            throw PorterError(.io, "no such database file (pass --create, with --schema or an export folder, to create it)", location: database)
        }
        guard let schemaValue = try requested ?? folderSchema() else {
            throw PorterError(.usage, "--create needs a schema: pass --schema, or import an export folder that holds schema.json")
        }
        do {
            return (try Database.create(at: database, schema: schemaValue), true)
        } catch let error as PorterError where error.code == .invalidSchema {
            throw error.located(in: schema ?? "schema.json")
        }
    }

    /// The `schema.json` of the first export folder among the sources.
    private func folderSchema() throws -> Schema? {
        for source in sources {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let path = URL(fileURLWithPath: source).appendingPathComponent(ExportFileNames.schemaFile).path
            if FileManager.default.fileExists(atPath: path) { return try Schema(contentsOfFile: path) }
        }
        return nil
    }

    /// A database created by this command is removed again when its import fails.
    private func removeDatabaseFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: database + suffix)
        }
    }
}
