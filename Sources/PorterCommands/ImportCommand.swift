import ArgumentParser
import Foundation
import Porter

/// `porter import DB SOURCE… [--schema S.json] [--create] [--format auto|bson|ejson|json|archive]
/// [--class C] [--db NAME] [--archive[=FILE]] [--mode insert|upsert|merge] [--ignore-unknown]
/// [--fill-missing] [--max-errors N] [--quiet]`.
public struct ImportCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import BSON, Extended JSON, plain JSON, fixture files, mongodump output, CSV, Realm files, relational SQLite exports or PostgreSQL exports into a Porter database or a Realm file, all or nothing.",
        discussion: """
            Reads Porter export folders, mongodump output (a dump root with one folder per database, \
            a database folder of .bson and .metadata.json files, the same gzipped, and --archive files, \
            plain or gzip), mongoexport JSON and fixture files. Gzip and archives are recognized by content.
            A postgresql://[user@][host][:port]/database[?host=/socket/folder][&schema=NAME] source reads a \
            database that 'porter export --to postgresql://…' (or its --format postgres SQL file) made, in \
            the connection's current schema or the one ?schema= names, in one read-only snapshot.
            """)
    /// The database file.
    @Argument(help: "The Porter database or Realm file to import into.") public var database: String
    /// Files, export folders, Realm files, or `-`.
    @Argument(
        help:
            "Export or mongodump folders, .bson/.json files (gzipped or not), archives, fixture files, Realm files, SQLite exports, postgresql:// URLs of PostgreSQL exports, or '-' for stdin (with --class)."
    ) public var sources: [String] = []
    /// The schema for --create (or to open with).
    @Option(name: .long, help: "Schema file: creates the database with --create, or is applied when opening it.") public
        var schema: String?
    /// Create the database when missing.
    @Flag(
        name: .long,
        help:
            "Create the database when it does not exist (from --schema, the export folder's schema.json or the Realm file's schema)."
    ) public var create = false
    /// Input format.
    @Option(
        name: .long,
        help:
            "The sources' format: auto chooses by content and extension (csv: by its .csv extension or this option)."
    ) public var format: ImportFormat = .auto
    /// The database of a mongodump root folder or archive holding several.
    @Option(
        name: .customLong("db"),
        help: "The database to import from a mongodump root folder or archive that holds several.") public
        var dumpDatabase: String?
    /// `--collection Dog=dogs`: the class of a collection in a folder dump.
    @Option(
        name: .customLong("collection"),
        help: ArgumentHelp(
            "Folder dumps: the collection NAME's file holds objects of CLASS (as export --collection wrote it; repeatable).",
            valueName: "CLASS=NAME")) public var collectionNames: [String] = []
    /// `--app-config DIR`: the namespaces of an exported App Services app.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder dumps: read the classes of each database's collections from an exported App Services app "
                + "(as export --app-config wrote them); every database it names is imported.", valueName: "dir"))
    public var appConfig: String?
    /// A mongodump archive file (`--archive` alone: stdin).
    @Option(name: .long, help: "A mongodump archive to import (plain or gzip); '--archive' alone reads it from stdin.")
    public var archive: String?
    /// Zero values for missing required fields.
    @Flag(
        name: .long,
        help:
            "Give missing required fields their type's zero value (counted per field in one warning) instead of failing."
    ) public var fillMissing = false
    /// `--quiet`: no progress line.
    @OptionGroup public var progressLine: QuietOption
    /// The class of single-class sources.
    @Option(
        name: .customLong("class"), help: "The class of single-class files and stdin (default: from the file name).")
    public var className: String?
    /// insert, upsert or merge.
    @Option(
        name: .long,
        help: "insert (duplicate primary key is an error), upsert (replace) or merge (update present fields).") public
        var mode: ImportMode = .insert
    /// Skip unknown fields.
    @Flag(name: .long, help: "Skip fields that name no property instead of failing.") public var ignoreUnknown = false
    /// Error limit.
    @Option(name: .long, help: "Stop after this many errors (default 20).") public var maxErrors: Int = 20
    /// The key of encrypted Realm files among the sources.
    @OptionGroup public var encryption: EncryptionOptions
    /// `--skip-check`.
    @OptionGroup var check: SkipCheckOption
    /// `--wait`: how long to wait for another writer.
    @OptionGroup public var writer: WaitOption
    /// ArgumentParser requirement.
    public init() {}

    /// Imports, printing every problem as `FILE:DOC#:field.path: message`.
    public func run(output: CommandOutput) throws {
        writer.apply(sweeping: database)
        let importMode = try checkArguments()
        let key = try encryption.key()
        try InputCheck.require(database, key: key, skip: check.skipCheck)
        if FileManager.default.fileExists(atPath: database), StoredFileKind.of(path: database) != .porterDatabase,
            !isSchemaFile(database), StoredFileKind.of(path: database) == .realmFile || key != nil
        {
            return try importIntoRealmFile(mode: importMode, output: output)
        }
        // With --create, the new database is filled under a temporary name and put in place once
        // complete: a failed or killed import leaves no file at `database` (see StagedDatabase).
        var staged: StagedDatabase?
        let report: ImportReport
        do {
            // The database is opened inside `importAll`, so only `staged` holds it when it is put
            // in place (closed, its log checkpointed into the file).
            report = try importAll(mode: importMode, staged: &staged)
            try staged?.publish()
        } catch var error as PorterError {
            staged?.discard()
            if let staged { error = staged.relocated(error) }
            guard error.code == .invalidInput, !error.details.isEmpty else { throw error }
            for line in error.details { output.err(line) }
            throw PorterError(error.code, error.message, location: error.location)
        } catch {
            staged?.discard()
            throw error
        }
        for warning in report.warnings { output.err(warning) }
        output.out("Imported \(report.summary) into \(database) (mode \(importMode.rawValue))")
    }

    /// Argument errors, before anything is opened: exit code 64 through ArgumentParser.
    public func validate() throws {
        do { _ = try checkArguments() } catch let error as PorterError { throw ValidationError(error.headline) }
    }

    /// The import mode, after the checks that need no file.
    private func checkArguments() throws -> ImportMode {
        guard maxErrors >= 1 else { throw PorterError(.usage, "--max-errors must be at least 1") }
        if sources.contains("-") && className == nil {
            throw PorterError(.usage, "reading stdin ('-') needs --class to name the documents' class")
        }
        if sources.isEmpty && archive == nil {
            throw PorterError(.usage, "name what to import: a folder, a file, '-', or --archive[=FILE]")
        }
        for source in sources where RelationalExportDatabase.isURL(source) {
            try RelationalExportDatabase.checkURL(source)
        }
        return mode
    }

    /// Imports into a Realm file: its objects are copied into a private Porter database, the
    /// sources imported there with the same rules, and the result written back as a new Realm file
    /// (format 24, same schema version and key) that replaces the original atomically.
    private func importIntoRealmFile(mode importMode: ImportMode, output: CommandOutput) throws {
        guard schema == nil else {
            throw PorterError(
                .usage, "--schema does not apply to a Realm file: change its schema with 'porter migrate'",
                location: database)
        }
        let key = try encryption.key()
        // Held until the new file is in place: the file read below is the one replaced.
        let lock = try RealmFileLock(realmFile: database, wait: writer.wait)
        defer { lock.release() }
        let file = try RealmFile(path: database, encryptionKey: key)
        var stored = file.schema
        stored.version = file.schemaVersion.map { UInt64(max(0, $0)) } ?? 0
        let scratch = try RealmScratchDatabase(file, schema: stored)
        defer { scratch.remove() }
        guard let db = scratch.database else {
            throw PorterError(.io, "cannot open the private copy", location: database)
        }
        let report: ImportReport
        do {
            report = try importAll(into: db, mode: importMode)
        } catch let error as PorterError {
            guard error.code == .invalidInput, !error.details.isEmpty else { throw error }
            for line in error.details { output.err(line) }
            // The user's file, not the private copy the import ran in.
            throw PorterError(error.code, error.message, location: database)
        }
        try RealmFileOutput.write(db, to: database, encryptionKey: key)
        for warning in report.warnings { output.err(warning) }
        output.out(
            "Imported \(report.summary) into the Realm file \(database) (mode \(importMode.rawValue); rewritten as file format 24)"
        )
    }

    /// `--collection` and `--app-config` as the export's mapping, read backwards (nil: none given).
    private func namespaces(schema: Schema) throws -> DumpNamespaces? {
        var result: DumpNamespaces
        if let appConfig {
            if dumpDatabase != nil { throw PorterError(.usage, "--app-config names the databases: leave out --db") }
            result = try DumpNamespaces.appConfig(appConfig, schema: schema, classes: [])
            result.validators = false
        } else if !collectionNames.isEmpty {
            result = DumpNamespaces()
        } else {
            return nil
        }
        for (cls, name) in try DumpNamespaces.collectionPairs(collectionNames) {
            guard schema[cls] != nil else {
                throw PorterError(.usage, "--collection \(cls)=\(name): the schema has no class '\(cls)'")
            }
            result.collections[cls] = name
        }
        return result
    }

    private func importAll(mode importMode: ImportMode, staged: inout StagedDatabase?) throws -> ImportReport {
        let (db, new) = try openOrCreate()
        staged = new
        return try importAll(into: db, mode: importMode)
    }

    private func importAll(into db: Database, mode importMode: ImportMode) throws -> ImportReport {
        let importer = Importer(
            database: db, formats: InterchangeFormats.input,
            options: ImportOptions(
                mode: importMode, ignoreUnknown: ignoreUnknown, maxErrors: maxErrors,
                dumpDatabase: dumpDatabase, fillMissing: fillMissing))
        importer.readsRealmFiles(encryptionKey: try encryption.key())
        importer.namespaces = try namespaces(schema: db.schema)
        let progress = ProgressLine.make(verb: "imported", quiet: progressLine.quiet)
        progress?.totalBytes = inputBytes()
        importer.progress = progress.map { line in { line.update($0, bytes: $1) } }
        defer { progress?.finish() }
        if let fixture = try olderFixture(db) {
            // As realm.importFixtures does: migrated when it carries its schema, else refused.
            let options = ImportOptions(
                mode: importMode, ignoreUnknown: ignoreUnknown, maxErrors: maxErrors, fillMissing: fillMissing)
            let before = try db.schema.classes.filter { !$0.isEmbedded }.map { ($0.name, try db.count($0.name)) }
            _ = try db.importFixtures(migratingOlderAt: URL(fileURLWithPath: fixture), options: options)
            var report = ImportReport()
            for (name, count) in before { report.documents.append((name, try db.count(name) - count)) }
            report.documents.removeAll { $0.count == 0 }
            report.sources = [fixture]
            return report
        }
        var all = sources.map { ImportSource(path: $0, className: className) }
        if let archive { all.append(ImportSource(path: archive, format: "archive")) }
        return try importer.run(all, format: format.rawValue)
    }

    /// The size of every file the sources name (folders two levels deep, as dump roots are), or
    /// nil when one is stdin.
    private func inputBytes() -> Int64? {
        let paths = sources + (archive.map { [$0] } ?? [])
        guard !paths.contains("-"), !paths.contains(where: RelationalExportDatabase.isURL) else { return nil }
        func size(_ path: String, depth: Int) -> Int64 {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
            if !isDirectory.boolValue {
                return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            }
            guard depth < 2, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return 0 }
            return names.reduce(0) {
                $0 + size(URL(fileURLWithPath: path).appendingPathComponent($1).path, depth: depth + 1)
            }
        }
        return paths.reduce(0) { $0 + size($1, depth: 0) }
    }

    /// The single source when it is a JSON fixture older than the database's schema.
    /// - Throws: when an older fixture comes with other sources (it is migrated on its own).
    private func olderFixture(_ db: Database) throws -> String? {
        let older = sources.filter { source in
            var isDirectory: ObjCBool = false
            guard source != "-", FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return false }
            // A pipe or FIFO is read once, by the import itself: its head is not looked at first.
            var info = stat()
            guard stat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
            return db.olderFixtureVersion(at: URL(fileURLWithPath: source)) != nil
        }
        guard let first = older.first else { return nil }
        guard sources.count == 1, archive == nil else {
            throw PorterError(
                .usage, "a fixture older than the database's schema: import it on its own, so it is migrated first",
                location: first)
        }
        return first
    }

    /// Opens the database (applying --schema), or with --create makes it under a temporary name.
    private func openOrCreate() throws -> (Database, StagedDatabase?) {
        let requested = try schema.map { try Schema(contentsOfFile: $0) }
        if FileManager.default.fileExists(atPath: database) {
            return (try Database.open(at: database, schema: requested), nil)
        }
        guard create else {
            throw PorterError(
                .io, "no such database file (pass --create, with --schema or an export folder, to create it)",
                location: database)
        }
        guard let schemaValue = try requested ?? folderSchema() else {
            throw PorterError(
                .usage,
                "--create needs a schema: pass --schema, or import an export folder that holds schema.json or a Realm file"
            )
        }
        do {
            let staged = try StagedDatabase.create(at: database, schema: schemaValue)
            guard let db = staged.database else { throw PorterError(.io, "cannot open database", location: database) }
            return (db, staged)
        } catch let error as PorterError where error.code == .invalidSchema {
            throw error.located(in: schema ?? "schema.json")
        }
    }

    /// The `schema.json` of the first export folder among the sources, or the schema of the
    /// first Realm file.
    private func folderSchema() throws -> Schema? {
        for source in sources {
            if RelationalExportDatabase.isURL(source) { return try RelationalExportDatabase.schema(at: source) }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                if RelationalExportFile.isExport(source) { return try RelationalExportFile.schema(at: source) }
                let key = try encryption.key()
                guard StoredFileKind.of(path: source) == .realmFile || (key != nil && !isSchemaFile(source)) else {
                    continue
                }
                if case .realm(let file) = try StoreFile.open(source, key: key) { return file.schema }
                continue
            }
            let path = URL(fileURLWithPath: source).appendingPathComponent(ExportFileNames.schemaFile).path
            if FileManager.default.fileExists(atPath: path) { return try Schema(contentsOfFile: path) }
        }
        return nil
    }
}
