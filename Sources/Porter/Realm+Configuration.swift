import Foundation

extension Realm {
    /// Called when the file's schema version is older than the configuration's, with the
    /// migration (rename properties, enumerate objects, delete data …) and the file's old version.
    /// Throwing rolls the whole migration back. The migration runtime's own block type.
    public typealias MigrationBlock = PorterMigration.MigrationBlock

    /// Where a realm lives and which model it uses, as in Realm's `Realm.Configuration`.
    ///
    /// ```swift
    /// let config = Realm.Configuration(inMemoryIdentifier: "test", objectTypes: [Dog.self, Person.self])
    /// let realm = try Realm(configuration: config)
    /// ```
    public struct Configuration {
        /// The database file (ignored when ``inMemoryIdentifier`` is set). Defaults to
        /// `default.realm` in the current directory.
        public var fileURL: URL?
        /// Opens an in-memory realm shared by every realm opened with the same identifier while one is open.
        public var inMemoryIdentifier: String?
        /// The model classes. Porter has no Objective-C runtime to discover them, so list every
        /// class the realm uses (linked and embedded classes too).
        public var objectTypes: [ObjectBase.Type]
        /// The model's schema version; must not be lower than the file's.
        public var schemaVersion: UInt64
        /// Runs when the file needs a migration to this configuration's model.
        public var migrationBlock: MigrationBlock?
        /// For development: delete the file and start empty when it would need a migration.
        public var deleteRealmIfMigrationNeeded: Bool
        /// Opens the file read-only (no writes; the file's schema must match the model).
        public var readOnly: Bool

        /// A file-backed configuration.
        public init(fileURL: URL? = nil, schemaVersion: UInt64 = 0, objectTypes: [ObjectBase.Type] = [],
                    deleteRealmIfMigrationNeeded: Bool = false, readOnly: Bool = false,
                    migrationBlock: MigrationBlock? = nil) {
            self.fileURL = fileURL
            self.inMemoryIdentifier = nil
            self.schemaVersion = schemaVersion
            self.objectTypes = objectTypes
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.readOnly = readOnly
            self.migrationBlock = migrationBlock
        }

        /// An in-memory configuration (for tests and caches): nothing is written to disk.
        public init(inMemoryIdentifier: String, schemaVersion: UInt64 = 0, objectTypes: [ObjectBase.Type] = []) {
            self.init(schemaVersion: schemaVersion, objectTypes: objectTypes)
            self.inMemoryIdentifier = inMemoryIdentifier
        }

        /// The file path used when ``fileURL`` is nil.
        public static var defaultFileURL: URL { URL(fileURLWithPath: "default.realm") }

        /// The file the realm opens, or nil for an in-memory realm.
        var resolvedFileURL: URL? { inMemoryIdentifier == nil ? (fileURL ?? Configuration.defaultFileURL) : nil }
    }
}
