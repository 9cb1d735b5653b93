import Foundation

extension Realm {
    /// Opens the database a configuration describes with the model's schema.
    ///
    /// Classes the file holds but the model does not list stay in the file untouched (as in
    /// Realm, where a model may use a subset of a file's classes), so they are not reported as
    /// removed. A file with an older schema version is migrated by the migration runtime when the
    /// configuration has a migration block; a file that still needs a migration is deleted and
    /// recreated when the configuration allows it, and refused otherwise.
    static func openDatabase(_ configuration: Configuration, _ model: Schema) throws -> Database {
        guard let url = configuration.resolvedFileURL else {
            // Realm keeps an in-memory realm for the life of the process, not only while a
            // `Realm` of it is open: a test's `setUp` fills it, the test opens it again.
            if let identifier = configuration.inMemoryIdentifier { try Database.keepInMemory(identifier: identifier) }
            return try Database.inMemory(
                identifier: configuration.inMemoryIdentifier, schema: model, keepingOtherClasses: true)
        }
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            if configuration.readOnly {
                throw PorterError(.io, "no such database file (a read-only realm cannot create one)", location: path)
            }
            return try Database.create(at: path, schema: model)
        }
        var requested = model
        let stored = try Database.open(at: path, readOnly: true).schema
        for cls in stored.classes where model[cls.name] == nil { requested.upsert(cls) }
        if let block = configuration.migrationBlock, !configuration.deleteRealmIfMigrationNeeded,
            !configuration.readOnly, stored.version < requested.version
        {
            // As in Realm, a higher schema version runs the block even when no class changed.
            try Migrator.migrate(databaseAt: path, to: requested, block: Realm.typedMigrationBlock(block))
        }
        do {
            return try Database.open(at: path, schema: requested, readOnly: configuration.readOnly)
        } catch let error as PorterError where error.code == .migrationRequired {
            guard configuration.deleteRealmIfMigrationNeeded && !configuration.readOnly else { throw error }
            try deleteFiles(at: path)
            return try Database.create(at: path, schema: model)
        }
    }

    /// Deletes a database file and its SQLite side files.
    static func deleteFiles(at path: String) throws {
        let manager = FileManager.default
        for file in [path, path + "-wal", path + "-shm"] where manager.fileExists(atPath: file) {
            do {
                try manager.removeItem(atPath: file)
            } catch {
                throw PorterError(.io, "cannot delete the database file: \(error.localizedDescription)", location: file)
            }
        }
    }

    /// Deletes the file (and side files) a configuration uses; the realm must not be open.
    /// - Returns: whether a file existed.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        guard let url = configuration.resolvedFileURL else { return false }
        let existed = FileManager.default.fileExists(atPath: url.path)
        try deleteFiles(at: url.path)
        return existed
    }
}
