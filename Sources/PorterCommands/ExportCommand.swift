import ArgumentParser
import Foundation
import Porter

/// `porter export DB --out DIR [--format bson|json|ejson|ejson-canonical|csv|sqlite|postgres|realm] [--class C …]
/// [--query Q] [--sort KEYS] [--skip N] [--limit N] [--fields F] [--array] [--gzip] [--archive[=FILE]]
/// [--db NAME] [--quiet]`.
public struct ExportCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a Porter database or a Realm file as BSON, Extended JSON, plain JSON or CSV (one file per "
            + "top-level class), as one relational SQLite file or PostgreSQL SQL file, into a PostgreSQL "
            + "server, or as a Realm file.",
        discussion: """
            BSON exports are mongodump folders: <Class>.bson and <Class>.metadata.json (the indexes of \
            indexed properties) per class, gzipped with --gzip; --archive=FILE writes one mongodump archive \
            instead ('--archive' alone: stdout). mongorestore reads both; collections are named after classes.
            With one --class: --query (Realm Query Language, as Results.filter), --sort, --skip and --limit \
            select the objects and --fields the fields, for every format but realm, applied while streaming.
            PostgreSQL: --format postgres --out FILE.sql writes the tables of --format sqlite with PostgreSQL's \
            types and COPY data in one transaction (psql -v ON_ERROR_STOP=1 -f FILE.sql); --to postgresql://… \
            loads them into a server directly (libpq, one transaction: all or nothing).
            """)
    /// The database file.
    @Argument(help: "A Porter database or a Realm file.") public var database: String
    /// The output folder, or `-` for standard output (with exactly one --class).
    @Option(name: .long, help: "The output folder (created when missing), or '-' to stream one --class to stdout.")
    public var out: String?
    /// The format.
    @Option(
        name: .long,
        help:
            "What to write: json is plain schema-typed JSON, ejson relaxed Extended JSON, sqlite one relational SQLite file at --out, postgres one PostgreSQL SQL file (DDL and COPY data) at --out FILE.sql or FOLDER, realm one Realm file at --out (file format 24, or --file-format)."
    ) public var format: ExportFormat = .bson
    /// Classes to export.
    @Option(
        name: .customLong("class"), help: "A top-level class to export (repeatable); default: every top-level class.")
    public var classes: [String] = []
    /// JSON array instead of one document per line.
    @Flag(name: .long, help: "JSON formats: write a JSON array instead of one document per line.") public var array =
        false
    /// `--models`: what a Realm file does not store.
    @OptionGroup public var models: ModelsOption
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// Gzip the files.
    @Flag(name: .long, help: "Gzip every class and metadata file (Class.bson.gz, as mongodump --gzip), or the archive.")
    public var gzip = false
    /// A mongodump archive instead of a folder.
    @Option(
        name: .long, help: "Write one mongodump archive to this file instead of a folder ('--archive' alone: stdout).")
    public var archive: String?
    /// The database name inside the archive, or of the folder's database subfolder.
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The database of the dump: recorded in an archive (default: the exported file's name), or a subfolder "
                + "of --out holding the class files (mongodump's layout; default: the files in --out itself).",
            valueName: "name")) public var dumpDatabase: String?
    /// `--collection Dog=dogs`: the collection of a class in a BSON dump.
    @Option(
        name: .customLong("collection"),
        help: ArgumentHelp(
            "BSON dumps: write CLASS to the collection NAME instead of one named after it (repeatable).",
            valueName: "CLASS=NAME")) public var collectionNames: [String] = []
    /// `--validators`: a `$jsonSchema` validator per collection in the dump's metadata.
    @Flag(
        name: .long,
        help:
            "BSON dumps: a $jsonSchema validator per collection in its metadata, so mongorestore creates validated collections."
    )
    public var validators = false
    /// `--app-config DIR`: the namespaces of an exported App Services app.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "BSON dumps: the databases and collections an exported App Services app (its folder or data_sources/) "
                + "defines for each class, its relationships checked, with validators.", valueName: "dir"))
    public var appConfig: String?
    /// The key of a written Realm file.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "--format realm: encrypt the written Realm file with this 64-byte key (128 hex digits).", valueName: "hex"))
    public var outEncryptionKey: String?
    /// `--query`: the objects of `--class` to export.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "With one --class: export the objects matching this Realm Query Language predicate (as Results.filter): 'age > 3 AND owner.name BEGINSWITH[c] \"a\"'.",
            valueName: "predicate")) public var query: String?
    /// `--sort`: the order of the exported objects.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "With one --class: sort by these properties, comma-separated, '-' for descending: 'name,-age,owner.name' (default: object-key order).",
            valueName: "keys")) public var sort: String?
    /// `--skip`: objects left out first.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "With one --class: leave out the first N selected objects (after --query and --sort).", valueName: "N"))
    public var skip: Int?
    /// `--limit`: at most this many objects.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("With one --class: export at most N objects (after --skip).", valueName: "N"))
    public var limit: Int?
    /// `--fields`: the kept fields.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The fields to keep, comma-separated, dotted paths through links and embedded objects (owner.name, address.city); the primary key is always kept. csv: the columns; other formats but realm: with one --class.",
            valueName: "a,b.c")) public var fields: String?
    /// Replace an existing output file (`--format sqlite`, `--format postgres`).
    @Flag(name: .long, help: "--format sqlite or postgres: replace an existing --out file (atomically).") public
        var force =
        false
    /// `--to`: a PostgreSQL server to load into.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Load into this PostgreSQL database through libpq, in one transaction (all or nothing): postgresql://[user[:password]@][host][:port]/database, or ?host=/socket/folder for a Unix socket.",
            valueName: "postgresql-url")) public var to: String?
    /// `--mode`: what `--to` does with a schema that already holds tables.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "--to: when the schema already holds tables: new (default) refuses, replace drops this export's tables (and what depends on them) and loads them again, in the same transaction.",
            valueName: "new|replace")) public var mode: PostgresLoadMode?
    /// `--quiet`: no progress line.
    @OptionGroup public var progressLine: QuietOption
    /// `--skip-check`.
    @OptionGroup var check: SkipCheckOption
    /// `--wait`: how long to wait for another writer of a `--format realm` output file.
    @OptionGroup public var writer: WaitOption
    /// `--file-format`: the format of a `--format realm` output file.
    @OptionGroup public var fileFormat: FileFormatOption
    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors, before anything is opened: exit code 64 through ArgumentParser.
    public func validate() throws {
        do { try checkArguments() } catch let error as PorterError { throw ValidationError(error.headline) }
    }

    /// The checks of the arguments alone (no file is opened).
    private func checkArguments() throws {
        try checkSelection()
        if format == .postgres || to != nil || mode != nil {
            if to == nil && format != .postgres {
                throw PorterError(.usage, "--mode applies to --to postgresql://…")
            }
            return try checkPostgresArguments()
        }
        try fileFormat.check(writesRealmFile: format == .realm, what: "export --format realm")
        if format == .realm {
            guard let out, out != "-" else {
                throw PorterError(.usage, "--format realm writes one file: pass --out FILE.realm")
            }
            for (given, name) in [
                (archive != nil, "--archive"), (gzip, "--gzip"), (array, "--array"), (!classes.isEmpty, "--class"),
            ] where given {
                throw PorterError(.usage, "\(name) does not apply to --format realm (a Realm file holds every class)")
            }
            _ = try outputKey()
            return
        }
        if format == .sqlite {
            guard let out, out != "-" else {
                throw PorterError(.usage, "--format sqlite writes one file: pass --out FILE.sqlite")
            }
            let given = [
                (archive != nil, "--archive"), (gzip, "--gzip"), (array, "--array"),
                (outEncryptionKey != nil, "--out-encryption-key"),
            ]
            for (given, name) in given where given {
                throw PorterError(.usage, "\(name) does not apply to --format sqlite")
            }
            return
        }
        if format == .csv, let out, out.lowercased().hasSuffix(".csv") {
            guard classes.count == 1 else {
                throw PorterError(
                    .usage,
                    "--out \(out) is one CSV file: pass exactly one --class "
                        + "(or --out FOLDER for one <Class>.csv per class)")
            }
            for (given, name) in [(archive != nil, "--archive"), (array, "--array")] where given {
                throw PorterError(.usage, "\(name) does not apply to --format csv")
            }
            return
        }
        if force {
            throw PorterError(
                .usage,
                "--force applies to --format sqlite and postgres and to one --format csv file "
                    + "(export folders are never overwritten file by file)")
        }
        if array && !format.isJSON {
            throw PorterError(
                .usage, "--array applies to the JSON formats (json, ejson, ejson-canonical), not \(format.rawValue)")
        }
        if archive != nil, out != nil { throw PorterError(.usage, "--archive writes one file: leave out --out") }
        _ = try namespaceArguments()
        if archive == nil, out == nil {
            throw PorterError(.usage, "name where to write: --out FOLDER, --out - (one --class) or --archive[=FILE]")
        }
        if out == "-", classes.count != 1 {
            throw PorterError(.usage, "--out - streams exactly one class: pass one --class")
        }
    }

    /// Exports and says where the files went.
    public func run(output: CommandOutput) throws {
        // One-file outputs: what killed runs left beside them goes (a folder's files are not swept).
        let oneFile =
            format == .realm || format == .sqlite || format == .postgres
            || (format == .csv && out?.lowercased().hasSuffix(".csv") == true)
        writer.apply(sweeping: oneFile && to == nil ? out : archive)
        // The exports whose output is committed at one point (files renamed into place, one
        // transaction) check the file beside the work (BackgroundInputCheck) and commit only when
        // the check passed; the others (stdout, archives, one CSV file) check it first.
        let folder = archive == nil && out != nil && out != "-" && !oneFile
        if format == .postgres || to != nil || format == .sqlite || format == .realm || folder {
            let inputCheck = try BackgroundInputCheck(database, key: try encryption.key(), skip: check.skipCheck)
            return try inputCheck.around {
                if format == .postgres || to != nil {
                    return try exportPostgres(output: output, inputCheck: inputCheck)
                }
                if format == .sqlite { return try exportSQLite(output: output, inputCheck: inputCheck) }
                if format == .realm { return try exportRealmFile(output: output, inputCheck: inputCheck) }
                try exportDocuments(output: output, inputCheck: inputCheck)
            }
        }
        try InputCheck.require(database, key: try encryption.key(), skip: check.skipCheck)
        try exportDocuments(output: output, inputCheck: nil)
    }

    /// The document formats (and one CSV file): to a folder, an archive or stdout.
    /// - Parameter inputCheck: the check of the file made meanwhile (folders), or nil when it was
    ///   made first; the folder's files are renamed into place only after it passed.
    private func exportDocuments(output: CommandOutput, inputCheck: BackgroundInputCheck?) throws {
        if format == .csv, let out, out.lowercased().hasSuffix(".csv") {
            return try exportCSVFile(to: out, output: output)
        }
        let outputFormat = try format.documentFormat(csvFields: csvFields, followsLinks: selection != nil)
        let exportOptions = ExportOptions(classes: classes, array: array, gzip: gzip)
        let exporter: Exporter
        let count: (String) throws -> Int
        let store = try StoreFile.open(database, encryption: encryption)
        switch store {
        case .porter(let db):
            exporter = Exporter(database: db, format: outputFormat, options: exportOptions)
            count = { try db.count($0) }
        case .realm(let file):
            let schema = store.schema(models: try loadModels(models.path), notes: output.err)
            exporter = Exporter(realmFile: file, schema: schema, format: outputFormat, options: exportOptions)
            count = { name in try file.table(named: name).map { try file.objectCount(in: $0) } ?? 0 }
        }
        try select(exporter)
        if let inputCheck { exporter.isCancelled = { inputCheck.hasFailed } }
        exporter.namespaces = try namespaces(exporter)
        let progress = ProgressLine.make(verb: "exported", quiet: progressLine.quiet)
        if let progress {
            progress.total = try exporter.exportedClasses().reduce(0) { $0 + (try count($1.name)) }
            exporter.progress = { progress.update($0) }
        }
        defer { progress?.finish() }
        if let archive {
            guard out == nil else { throw PorterError(.usage, "--archive writes one file: leave out --out") }
            return try exportArchive(exporter, to: archive, output: output)
        }
        guard let out else {
            throw PorterError(.usage, "name where to write: --out FOLDER, --out - (one --class) or --archive[=FILE]")
        }
        if out == "-" {
            guard classes.count == 1, let className = classes.first else {
                throw PorterError(.usage, "--out - streams exactly one class: pass one --class")
            }
            let stdout = ByteOutput.standardOutput()
            let target = gzip ? try ByteOutput(gzipInto: stdout) : stdout
            let report = try exporter.export(className: className, to: target)
            // Ends the gzip stream (its trailer); for plain stdout, a flush.
            try target.close()
            for warning in report.warnings { output.err(warning) }
            return
        }
        let report = try exporter.export(toDirectory: out) { try inputCheck?.wait() }
        let total = report.files.reduce(0) { $0 + $1.documents }
        output.out(
            "Exported \(total) document\(total == 1 ? "" : "s") from \(database) as \(format.rawValue) to \(out):")
        for file in report.files {
            output.out("  \(file.path)  \(file.documents) \(file.className)")
        }
        if let schemaPath = report.schemaPath { output.out("  \(schemaPath)  schema") }
        for warning in report.warnings { output.err(warning) }
    }

    /// `--collection CLASS=NAME` pairs, checked: each names a class and a collection once.
    private func namespaceArguments() throws -> [String: String] {
        let given = !collectionNames.isEmpty || validators || appConfig != nil
        if given && format != .bson && !(format.isJSON && !validators && appConfig == nil) {
            throw PorterError(.usage, "--collection, --validators and --app-config apply to BSON dumps (--format bson)")
        }
        if given && out == "-" { throw PorterError(.usage, "--out - streams one class: namespaces do not apply") }
        if appConfig != nil && dumpDatabase != nil {
            throw PorterError(.usage, "--app-config names the databases: leave out --db")
        }
        let pairs = try DumpNamespaces.collectionPairs(collectionNames)
        if let dumpDatabase, let problem = DumpNamespaces.problem(database: dumpDatabase) {
            throw PorterError(.usage, "--db \(dumpDatabase): \(problem)")
        }
        return pairs
    }

    /// The namespaces of a dump (nil: the class-named flat folder, as before).
    private func namespaces(_ exporter: Exporter) throws -> DumpNamespaces? {
        let pairs = try namespaceArguments()
        var result: DumpNamespaces
        if let appConfig {
            result = try DumpNamespaces.appConfig(
                appConfig, schema: exporter.schema, classes: try exporter.exportedClasses().map(\.name))
        } else if !pairs.isEmpty || validators || (dumpDatabase != nil && archive == nil) {
            // --db alone with an archive keeps its old meaning (the archive's database name).
            result = DumpNamespaces(database: archive == nil ? dumpDatabase : nil, validators: validators)
        } else {
            return nil
        }
        for (cls, name) in pairs { result.collections[cls] = name }
        if validators { result.validators = true }
        return result
    }

    /// Writes a mongodump archive to a file (complete or not at all) or to stdout.
    private func exportArchive(_ exporter: Exporter, to path: String, output: CommandOutput) throws {
        let name = dumpDatabase ?? URL(fileURLWithPath: database).deletingPathExtension().lastPathComponent
        if path == "-" {
            let report = try exporter.export(toArchive: ByteOutput.standardOutput(), databaseName: name)
            for warning in report.warnings { output.err(warning) }
            return
        }
        // Under a temporary name a caught signal removes, renamed into place once complete.
        let (temp, file) = try ByteOutput.creatingTemporaryFile(beside: path)
        let report: ExportReport
        do {
            report = try exporter.export(toArchive: file, databaseName: name)
            guard rename(temp, path) == 0 else {
                throw PorterError(
                    .io, "cannot move the finished archive into place: \(String(cString: strerror(errno)))",
                    location: path)
            }
            TemporaryFiles.unregister(temp)
        } catch {
            TemporaryFiles.remove(temp)
            throw error
        }
        let total = report.files.reduce(0) { $0 + $1.documents }
        output.out(
            "Exported \(total) document\(total == 1 ? "" : "s") from \(database) as a mongodump archive\(gzip ? " (gzip)" : "") of database '\(name)' to \(path):"
        )
        for file in report.files { output.out("  \(file.className)  \(file.documents)") }
        for warning in report.warnings { output.err(warning) }
    }

    /// `--format realm`: one Realm file (format 24) holding every object, written atomically,
    /// renamed into place only after `inputCheck` (made meanwhile) passed.
    private func exportRealmFile(output: CommandOutput, inputCheck: BackgroundInputCheck) throws {
        guard let out, out != "-" else {
            throw PorterError(.usage, "--format realm writes one file: pass --out FILE.realm")
        }
        for (given, name) in [
            (archive != nil, "--archive"), (gzip, "--gzip"), (array, "--array"), (!classes.isEmpty, "--class"),
        ] where given {
            throw PorterError(.usage, "\(name) does not apply to --format realm (a Realm file holds every class)")
        }
        let exists = PorterError(
            .io, "already exists: Porter does not overwrite a file with an export; remove it or choose another --out",
            location: out)
        guard !FileManager.default.fileExists(atPath: out) else { throw exists }
        // Two exports to one new file: the second waits, then finds the file there.
        let lock = try RealmFileLock(realmFile: out, wait: writer.wait)
        defer { lock.release() }
        guard !FileManager.default.fileExists(atPath: out) else { throw exists }
        let key = try outputKey()
        let store = try StoreFile.open(database, encryption: encryption)
        switch store {
        case .porter(let db):
            try RealmFileOutput.write(
                db, to: out, encryptionKey: key, fileFormat: fileFormat.value, beforeReplacing: inputCheck.wait)
            let total = try db.read { try RealmFileOutput.topLevelCount(db) }
            output.out(
                "Exported \(total) object\(total == 1 ? "" : "s") from \(database) to the Realm file \(out) (file format \(fileFormat.value), schema version \(db.schemaVersion)\(key == nil ? "" : ", encrypted"))"
            )
        case .realm(let file):
            let schema = store.schema(models: try loadModels(models.path), notes: output.err)
            try RealmFileOutput.write(
                file, schema: schema, to: out, encryptionKey: key, fileFormat: fileFormat.value,
                beforeReplacing: inputCheck.wait)
            output.out(
                "Rewrote \(database) (file format \(file.fileFormat)) as the Realm file \(out) (file format \(fileFormat.value), schema version \(file.schemaVersion ?? 0)\(key == nil ? "" : ", encrypted"))"
            )
        }
    }

    /// The key of the written Realm file: `--out-encryption-key`, else none.
    private func outputKey() throws -> [UInt8]? {
        try outEncryptionKey.map { try EncryptionOptions.parseHex($0, source: "--out-encryption-key") }
    }
}
