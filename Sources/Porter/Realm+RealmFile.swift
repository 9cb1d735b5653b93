import Foundation

// Realm Core files (an app's `default.realm`) in the typed API: read-only, read natively by
// PorterRealmFile as objects are used (RealmFileReader.swift). Nothing is written to disk: no
// copy, no lock file, and the user's file is only read.

extension Realm {
    /// Whether the file a configuration names is a Realm Core file, told by content as the CLI
    /// tells it: `T-DB` at offset 16, or, with an encryption key, whole 4096-byte pages of what
    /// is neither a Porter database nor a plain Realm file (an encrypted Realm file looks like noise).
    static func isRealmCoreFile(_ configuration: Configuration) -> Bool {
        guard let path = configuration.resolvedFileURL?.path, FileManager.default.fileExists(atPath: path) else {
            return false
        }
        switch StoredFileKind.of(path: path) {
        case .realmFile: return true
        case .porterDatabase: return false
        case .other:
            guard configuration.encryptionKey != nil,
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            else {
                return false
            }
            return size > 0 && size % 4096 == 0
        }
    }

    /// Opens a Realm Core file for the model `types`: checks the model against the file's schema
    /// as Realm does (the model may use a subset of the file's classes; a model class the file
    /// lacks reads as empty) and makes its reader: objects are read from the file when used; the
    /// in-memory database returned holds the schema only (row layouts, change stamps), no objects.
    /// - Throws: `PorterError/Code/usage` when the configuration is not read-only (saying what
    ///   to do); the file's errors (wrong or missing encryption key, damage) naming the file;
    ///   `PorterError/Code/migrationRequired` (`Migration is required due to the following
    ///   errors:`) with one detail per difference between the model and the file.
    static func openRealmCoreFile(
        _ configuration: Configuration, _ types: [ObjectBase.Type]
    ) throws -> (Database, RealmFileReader) {
        let path = configuration.resolvedFileURL?.path ?? ""
        guard configuration.readOnly else {
            throw PorterError(
                .usage,
                "this is a Realm file, which Porter's typed API opens read-only: open it "
                    + "with Realm.Configuration(fileURL:readOnly: true, objectTypes: …), or import it into "
                    + "a Porter database to change it (porter import app.porter '\(path)' --create)",
                location: path)
        }
        let key = configuration.encryptionKey.map { [UInt8]($0) }
        if let key, key.count != 64 {
            throw PorterError(.usage, "Encryption key must be 64 bytes long, got \(key.count)", location: path)
        }
        let file = try RealmFile(path: path, encryptionKey: key)
        let stored = file.schema
        let model = try Schema(version: configuration.schemaVersion, objectTypes: types)
        try checkModel(model, against: stored, path: path, fileVersion: file.schemaVersion)
        // The model's classes the file lacks read as empty; its linking-objects properties
        // (computed, never in a file's schema) are added to the file's classes.
        var merged = stored
        for cls in model.classes {
            guard var inFile = stored[cls.name] else {
                merged.upsert(cls)
                continue
            }
            let computed = cls.properties.filter { $0.type == .linkingObjects }
            for property in computed where inFile.property(named: property.name) == nil {
                inFile.properties.append(property)
            }
            merged.upsert(inFile)
        }
        let database = try Database.inMemory(schema: merged)
        return (database, RealmFileReader(file: file, encryptionKey: key, model: model, shell: database))
    }

    /// Realm's schema check of a read-only open: every model class the file has must match its
    /// class in the file (properties, types, optionality, links, primary key); index
    /// differences and model classes the file lacks are allowed.
    static func checkModel(_ model: Schema, against stored: Schema, path: String, fileVersion: Int64?) throws {
        if let fileVersion, fileVersion >= 0, UInt64(fileVersion) > model.version {
            throw PorterError(
                .migrationRequired,
                "Provided schema version \(model.version) is less than last set version \(fileVersion).",
                location: path)
        }
        var common = Schema(version: model.version, classes: [])
        for cls in model.classes { if let inFile = stored[cls.name] { common.upsert(inFile) } }
        var requested = Schema(version: model.version, classes: [])
        for var cls in model.classes where stored[cls.name] != nil {
            cls.properties.removeAll { $0.type == .linkingObjects }
            requested.upsert(cls)
        }
        let blocking = SchemaDiff.compare(common, requested).filter {
            switch $0 {
            case .addIndex, .removeIndex: return false
            default: return true
            }
        }
        guard blocking.isEmpty else {
            throw PorterError(
                .migrationRequired, "Migration is required due to the following errors:", location: path,
                details: blocking.map(\.message))
        }
    }
}
