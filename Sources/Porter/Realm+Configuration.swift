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
        public var fileURL: URL? {
            didSet { if fileURL != nil { inMemoryIdentifier = nil } }
        }
        /// Opens an in-memory realm shared by every realm opened with the same identifier while
        /// one is open. Setting it clears ``fileURL`` and setting ``fileURL`` clears it, as in Realm.
        public var inMemoryIdentifier: String? {
            didSet { if inMemoryIdentifier != nil { fileURL = nil } }
        }
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

        /// An encryption key. Porter's files are not encrypted, so a realm whose configuration
        /// has a key refuses to open (rather than storing the data in the clear).
        public var encryptionKey: Data?
        /// A file copied to ``fileURL`` when no file exists there yet (a bundled initial realm).
        public var seedFilePath: URL?
        /// Called when the file is first opened in this process with its size and the bytes its
        /// data uses; returning true compacts the file before use (Realm's `shouldCompactOnLaunch`).
        public var shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)?

        /// A configuration, with Realm's parameters in Realm's order (Sync's are not part of Porter).
        /// `objectTypes` nil or empty means every model class the code uses: a class is added to
        /// the realm's schema the first time it is used (see `Realm.objects(_:)`).
        public init(
            fileURL: URL? = Configuration.defaultFileURL, inMemoryIdentifier: String? = nil,
            encryptionKey: Data? = nil, readOnly: Bool = false, schemaVersion: UInt64 = 0,
            migrationBlock: MigrationBlock? = nil, deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: ((Int, Int) -> Bool)? = nil,
            objectTypes: [ObjectBase.Type]? = nil, seedFilePath: URL? = nil
        ) {
            // As in Realm, an in-memory configuration has no file URL.
            self.fileURL = inMemoryIdentifier == nil ? fileURL : nil
            self.inMemoryIdentifier = inMemoryIdentifier
            self.encryptionKey = encryptionKey
            self.schemaVersion = schemaVersion
            self.objectTypes = objectTypes ?? []
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.readOnly = readOnly
            self.migrationBlock = migrationBlock
            self.seedFilePath = seedFilePath
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
        }

        /// The file path used when ``fileURL`` is nil.
        public static var defaultFileURL: URL { URL(fileURLWithPath: "default.realm") }

        /// The file the realm opens, or nil for an in-memory realm.
        var resolvedFileURL: URL? { inMemoryIdentifier == nil ? (fileURL ?? Configuration.defaultFileURL) : nil }

        /// The configuration `Realm()` uses (Realm's global default); change it to make
        /// `Realm()` open another file or an in-memory realm.
        public static var defaultConfiguration: Configuration {
            get { defaultConfigurationLock.withLock { storedDefault } }
            set { defaultConfigurationLock.withLock { storedDefault = newValue } }
        }
        nonisolated(unsafe) private static var storedDefault = Configuration()
    }
}

/// Guards ``Realm/Configuration/defaultConfiguration``, which any thread may read or change.
private let defaultConfigurationLock = NSLock()
