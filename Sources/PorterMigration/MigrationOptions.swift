import PorterDiff

/// The user's migration function, Realm's `MigrationBlock`: called once, inside the migration's
/// write transaction, with the migration and the file's old schema version. Throwing rolls back
/// everything.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) throws -> Void

/// One progress report: objects done out of the total for one class in one phase.
public struct MigrationProgress: Sendable, Equatable {
    /// What is being done (`convert Dog.age`, `check`, …).
    public var phase: String
    /// The class being worked on.
    public var className: String
    /// Objects done so far.
    public var done: Int
    /// Objects in the class.
    public var total: Int

    /// Creates a report.
    public init(phase: String, className: String, done: Int, total: Int) {
        self.phase = phase
        self.className = className
        self.done = done
        self.total = total
    }
}

/// How ``Migrator`` runs a migration.
public struct MigrationOptions: Sendable {
    /// Run everything, including the checks, then roll back: the file is left exactly as it was.
    public var dryRun = false
    /// Copy the file here first (SQLite's online backup API); the path must not exist.
    public var backupPath: String?
    /// Accept destructive changes nothing covers (removed classes and properties with data, type
    /// changes without a conversion, orphans of a class becoming embedded).
    public var allowDataLoss = false
    /// Realm's `deleteRealmIfMigrationNeeded`: when the file needs a migration (or has another
    /// schema version), delete it and create an empty one with the new schema. For development.
    public var deleteDatabaseIfMigrationNeeded = false
    /// Values for nulls of properties made required, and for existing objects of added properties.
    public var fills: [FillArgument] = []
    /// Accept a target schema version lower than the file's (a down migration, with plans that go
    /// downward); without it the lower version is refused with realm-core's message.
    public var allowDowngrade = false
    /// Called with progress while classes are converted and checked.
    public var progress: (@Sendable (MigrationProgress) -> Void)?

    /// Default options: a real run, no backup, data loss refused.
    public init(
        dryRun: Bool = false, backupPath: String? = nil, allowDataLoss: Bool = false,
        deleteDatabaseIfMigrationNeeded: Bool = false, fills: [FillArgument] = [],
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) {
        self.dryRun = dryRun
        self.backupPath = backupPath
        self.allowDataLoss = allowDataLoss
        self.deleteDatabaseIfMigrationNeeded = deleteDatabaseIfMigrationNeeded
        self.fills = fills
        self.progress = progress
    }
}
