import ArgumentParser
import Foundation
import Porter

/// `porter create DB --schema SCHEMA.json [--format porter|realm]`: a new database file.
public struct CreateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a new, empty Porter database or Realm file from a schema file.")
    /// The database file to create (must not exist).
    @Argument(help: "The file to create (must not exist).") public var database: String
    /// The schema file.
    @Option(name: .long, help: "The schema file (JSON).") public var schema: String
    /// What to create.
    @Option(name: .long, help: "porter (a Porter database) or realm (a Realm file of file format 24).") public
        var format: CreateFormat = .porter
    /// The key of a created Realm file.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "--format realm: encrypt the new Realm file with this 64-byte key (128 hex digits).", valueName: "hex"))
    public var encryptionKey: String?
    /// `--wait`: how long to wait for another writer.
    @OptionGroup public var writer: WaitOption
    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors (a key where none applies or of the wrong length): exit code 64.
    public func validate() throws {
        if let encryptionKey {
            guard format == .realm else { throw ValidationError("--encryption-key applies to --format realm") }
            do { _ = try EncryptionOptions.parseHex(encryptionKey, source: "--encryption-key") } catch let error
                as PorterError
            {
                throw ValidationError(error.headline)
            }
        }
    }

    /// Creates the file.
    public func run(output: CommandOutput) throws {
        writer.apply(sweeping: database)
        let schemaValue = try Schema(contentsOfFile: schema)
        do {
            switch format {
            case .porter:
                if encryptionKey != nil { throw PorterError(.usage, "--encryption-key applies to --format realm") }
                try Database.createFile(at: database, schema: schemaValue)
                output.out(
                    "Created \(database): schema version \(schemaValue.version), \(schemaValue.classes.count) classes")
            case .realm:
                try schemaValue.validate()
                guard !FileManager.default.fileExists(atPath: database) else {
                    throw PorterError(.io, "file already exists", location: database)
                }
                let lock = try RealmFileLock(realmFile: database, wait: writer.wait)
                defer { lock.release() }
                guard !FileManager.default.fileExists(atPath: database) else {
                    throw PorterError(.io, "file already exists", location: database)
                }
                let key = try encryptionKey.map { try EncryptionOptions.parseHex($0, source: "--encryption-key") }
                try RealmFileWriter(schema: schemaValue, schemaVersion: schemaValue.version).write(
                    to: database, source: EmptyRealmSource(), encryptionKey: key)
                output.out(
                    "Created the Realm file \(database): file format 24, schema version \(schemaValue.version), \(schemaValue.classes.count) classes\(key == nil ? "" : ", encrypted")"
                )
            }
        } catch let error as PorterError where error.code == .invalidSchema {
            // Validation errors name Class.property; prefix the file they came from.
            throw error.located(in: schema)
        }
    }
}

/// No objects: the source of an empty Realm file.
struct EmptyRealmSource: RealmWriteSource {
    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {}
}

/// `porter schema DB|SCHEMA.json`: the normalized schema JSON.
public struct SchemaCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Print the normalized schema of a database, Realm file or schema file.",
        discussion: """
            For a Realm file the schema is rebuilt from the file. A Realm file does not store linkingObjects \
            properties, defaults, Swift integer widths or enum types: each backlink is reported on stderr so \
            that you can declare the linkingObjects property it backs, and --models supplies those details.
            """)
    /// A database or schema file.
    @Argument(help: "A Porter database, a Realm file, or a schema file.") public var source: String
    /// `--models`: what a Realm file does not store.
    @OptionGroup public var models: ModelsOption
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the schema.
    public func run(output: CommandOutput) throws {
        let key = try encryption.key()
        guard StoredFileKind.of(path: source) != .other || key != nil else {
            output.out(try loadSchema(source).jsonString(pretty: true))
            return
        }
        let store = try StoreFile.open(source, key: key)
        let schema = store.schema(models: try loadModels(models.path), notes: output.err)
        output.out(schema.jsonString(pretty: true))
        if case .realm(let file) = store {
            for backlink in file.backlinks {
                let declared =
                    schema[backlink.targetClass]?.computedProperties.contains {
                        $0.objectType == backlink.originClass && $0.linkOriginProperty == backlink.originProperty
                    } ?? false
                guard !declared else { continue }
                output.err(
                    "note: \(backlink.targetClass) is linked from \(backlink.originClass).\(backlink.originProperty): declare {\"type\": \"linkingObjects\", \"objectType\": \"\(backlink.originClass)\", \"property\": \"\(backlink.originProperty)\"} in --models to name it"
                )
            }
        }
    }
}

/// `porter validate SCHEMA.json`: every validation error at once.
public struct ValidateCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Validate a schema file and print every error.")
    /// The schema file.
    @Argument(help: "The schema file to validate.") public var schema: String
    /// ArgumentParser requirement.
    public init() {}

    /// Validates and reports.
    public func run(output: CommandOutput) throws {
        let value = try Schema(contentsOfFile: schema)
        let errors = value.validationErrors()
        if errors.isEmpty {
            output.out("\(schema): valid (schema version \(value.version), \(value.classes.count) classes)")
            return
        }
        output.err("\(schema): \(errors.count) error\(errors.count == 1 ? "" : "s")")
        for line in errors { output.err("\(schema): \(line)") }
        throw ExitCode(1)
    }
}

/// `porter inspect DB`: schema version, classes with object counts, file size, migration history.
public struct InspectCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a database's or Realm file's schema version, classes with object counts, size and history.")
    /// The database file.
    @Argument(help: "A Porter database or a Realm file.") public var database: String
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// Print one JSON document instead of lines (keys: ``InspectCommand/json(_:)``).
    @Flag(name: .long, help: "Print the summary as one JSON document (file, kind, format, header, classes, schema).")
    public var json = false
    /// ArgumentParser requirement.
    public init() {}

    /// Prints the summary.
    public func run(output: CommandOutput) throws {
        let file = try StoreFile.open(database, encryption: encryption)
        if json { return output.out(try summary(file).serialized(pretty: true)) }
        switch file {
        case .porter(let db): try inspect(db, output)
        case .realm(let file): try inspect(file, output)
        }
    }

    private func inspect(_ db: Database, _ output: CommandOutput) throws {
        try db.read {
            output.out("Database: \(database)")
            output.out("Schema version: \(db.schemaVersion)")
            output.out("File size: \(db.fileSize) bytes")
            output.out("Classes:")
            try printClasses(db.schema.classes, output) { try db.count($0.name) }
            let history = try db.history()
            if !history.isEmpty {
                output.out("Migrations:")
                for entry in history {
                    output.out(
                        "  v\(entry.fromVersion) -> v\(entry.toVersion)  \(entry.appliedAt)  porter \(entry.porterVersion)  \(entry.summary)"
                    )
                }
            }
        }
    }

    private func inspect(_ file: RealmFile, _ output: CommandOutput) throws {
        output.out("Realm file: \(database)")
        output.out("File format: \(file.fileFormat) (\(RealmFileDescriptions.sdkVersions(format: file.fileFormat)))")
        output.out("Schema version: \(file.schemaVersion.map(String.init) ?? "none (no metadata table)")")
        output.out("History: \(RealmFileDescriptions.history(file.historyType))")
        if file.isEncrypted { output.out("Encrypted: yes") }
        output.out("File size: \(file.fileSize) bytes")
        output.out("Classes:")
        try printClasses(file.schema.classes, output, count: Self.counter(file))
        if !file.skippedTables.isEmpty {
            output.out("Internal tables skipped: \(file.skippedTables.joined(separator: ", "))")
        }
    }

    /// Counts a class's objects in a Realm file (0 for a class with no table).
    static func counter(_ file: RealmFile) -> (ObjectSchema) throws -> Int {
        let tables = Dictionary(file.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return { cls in
            guard let table = tables[cls.name] else { return 0 }
            return try file.objectCount(in: table)
        }
    }

    private func printClasses(_ classes: [ObjectSchema], _ output: CommandOutput, count: (ObjectSchema) throws -> Int)
        throws
    {
        let width = classes.map(\.name.count).max() ?? 0
        for cls in classes {
            let kind = cls.isEmbedded ? " (embedded)" : (cls.primaryKey.map { " (primary key: \($0))" } ?? "")
            output.out(
                "  \(cls.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(try count(cls)).leftPadded(9)) objects\(kind)"
            )
        }
    }
}

/// Words for what a Realm file's header and top array say.
enum RealmFileDescriptions {
    /// Which SDKs write a file format.
    static func sdkVersions(format: Int) -> String {
        switch format {
        case 2...4: return "realm-core 0.x, early Realm Cocoa/Java; pre-cluster layout, DateTime read as Timestamp"
        case 5...9: return "realm-core 0.x–5.x, Realm Cocoa/Swift 0.x–4.x, Realm Java 0.x–5.x; pre-cluster layout"
        case 10, 11: return "realm-core 6, Realm Swift 5"
        case 20: return "realm-core 10, Realm Swift 10.0–10.7"
        case 21: return "realm-core 11 beta"
        case 22: return "realm-core 11–12, Realm Swift 10.8–10.34"
        case 23: return "realm-core 13, Realm Swift 10.35–10.48"
        case 24: return "realm-core 14, Realm Swift 10.49 and later"
        default: return "unknown"
        }
    }

    /// The history kind (top array slot 7).
    static func history(_ type: Int) -> String {
        switch type {
        case 0: return "none"
        case 1: return "out-of-realm (obsolete)"
        case 2: return "local (in-realm)"
        case 3: return "sync client (synced realm; history not read)"
        case 4: return "sync server (not read)"
        default: return "type \(type) (not read)"
        }
    }
}

extension String {
    /// Pads on the left to `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
