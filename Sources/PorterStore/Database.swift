import PorterCSQLite
import Foundation
import PorterModel

/// A Porter database file ("realm file"): one SQLite file holding a schema, its version, and objects.
///
/// A `Database` owns one SQLite connection. It is not thread-safe; use one instance per thread, or
/// open the same file several times (WAL mode lets readers run beside one writer).
///
/// Writes happen only inside ``write(_:)`` (or ``beginWrite()``/``commitWrite()``); reads may happen
/// at any time and see the last committed state, or the open write transaction's own changes.
public final class Database {
    /// Identifies Porter files in the SQLite header (`PRAGMA application_id`): ASCII "PRTR".
    public static let applicationID: Int32 = 0x5052_5452
    /// The file-format version this build writes and reads; a larger one is refused. Format 2
    /// stores dates as sortable seconds + nanoseconds blobs and lets `mixed` hold nested lists and
    /// dictionaries; format 1 files are read as they are, and upgraded when opened for writing.
    public static let fileFormatVersion: Int64 = 2
    /// The Porter version recorded in migration history.
    public static let porterVersion = "0.1.0"

    /// The file path (or `:memory:` identifier).
    public let path: String
    /// The schema currently stored in the file, including its version.
    public internal(set) var schema: Schema {
        didSet { schemaGeneration &+= 1 }
    }
    /// Changes whenever ``schema`` is replaced, so layouts derived from it can be rebuilt.
    // Unchecked: read for every object added; a database is used by one thread at a time.
    @exclusivity(unchecked) public private(set) var schemaGeneration = 0
    /// Whether the database was opened read-only.
    public let isReadOnly: Bool

    package let connection: SQLiteConnection
    var writeDepth = 0
    /// Whether the open write transaction replaced the stored schema (a rollback must restore it).
    var schemaReplacedInWrite = false
    var plans: [String: ClassPlan] = [:]
    /// The plan ``plan(for:)`` returned last (dropped with ``plans``).
    @exclusivity(unchecked) var lastPlan: ClassPlan?
    var incomingCache: [String: [IncomingReference]] = [:]
    /// Bumped by every rollback (of a transaction or a savepoint) and schema change: they undo
    /// changes without moving SQLite's change counters (see ``stateStamp``).
    // Moving it moves the step count too, so that ``changeCounter`` alone tells a possible change.
    @exclusivity(unchecked) var rollbackEpoch = 0 {
        didSet { connection.steps &+= 1 }
    }
    /// The last ``stateStamp``, and the statement count it was taken at (`.max`: none yet).
    @exclusivity(unchecked) var cachedStamp = DatabaseStateStamp(localChanges: 0, dataVersion: 0, epoch: 0)
    @exclusivity(unchecked) var cachedStampSteps = UInt64.max
    /// SQLite's `data_version` when the stored schema was last read under the write lock (nil:
    /// not yet); see ``refreshSchemaFromSnapshot()``.
    var schemaDataVersion: Int64?
    /// The last ``catalog()`` read, reused while SQLite's schema cookie is unchanged.
    var cachedCatalog: SQLiteCatalog?
    /// Numbers write transactions for the key state of class plans (``ObjectKeyAllocation``).
    var keyTransaction = 0
    /// The key floors to store at commit, of the classes this transaction deleted objects of.
    var retiredKeyFloors: [String: Int64] = [:]

    /// The schema version stored in the file.
    public var schemaVersion: UInt64 { schema.version }

    init(connection: SQLiteConnection, path: String, schema: Schema, readOnly: Bool) {
        self.connection = connection
        self.path = path
        self.schema = schema
        self.isReadOnly = readOnly
    }

    // MARK: - Creating and opening

    /// Creates a new database file at `path` with `schema` (validated first).
    /// - Throws: when the file already exists, the schema is invalid, or the file cannot be written.
    public static func create(at path: String, schema: Schema) throws -> Database {
        try createFile(at: path, schema: schema)
        return try open(at: path)
    }

    /// Creates a new database file at `path` with `schema` (validated first) and closes it without
    /// opening it again: SQLite's reading of a schema is quadratic in its tables (Debian's build
    /// caps its schema hash at 64 buckets, `MALLOC_SOFT_LIMIT=1024`), so a caller that only makes
    /// the file (`porter create`, a migration's new file) stays linear in classes.
    /// - Throws: when the file already exists, the schema is invalid, or the file cannot be written.
    package static func createFile(at path: String, schema: Schema) throws {
        try schema.validate()
        if FileManager.default.fileExists(atPath: path) {
            throw PorterError(.io, "refusing to overwrite an existing file", location: path)
        }
        // Made under a temporary name beside it and linked into place: a killed or failed create
        // leaves no half-made database at `path`, and of two creates racing one fails cleanly.
        // Made empty and registered in one step (SQLite takes an empty file for a new database).
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: path, sideFiles: true)
        close(fd)
        defer { TemporaryFiles.remove(temporary, sideFiles: true) }
        try createClosed(at: temporary, displayPath: path, schema: schema)
        try TemporaryFiles.linkIntoPlace(temporary, at: path)
    }

    /// Creates and initialises a database file at `path` and closes it again (its WAL checkpointed
    /// into the file and removed by the close).
    static func createClosed(at path: String, displayPath: String, schema: Schema) throws {
        let connection = try SQLiteConnection(
            path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, displayPath: displayPath)
        try initialize(connection, schema: schema, wal: true)
    }

    /// Opens an in-memory database. Instances opened with the same `identifier` share their data
    /// while at least one of them is open (or the identifier is kept, ``keepInMemory(identifier:)``).
    /// With `keepingOtherClasses`, classes the database holds that `schema` does not list stay
    /// as they are (a model may use a subset of the classes, as with a file).
    public static func inMemory(
        identifier: String? = nil, schema: Schema, keepingOtherClasses: Bool = false
    ) throws -> Database {
        try schema.validate()
        let uri = identifier.map(memoryURI) ?? ":memory:"
        let connection = try SQLiteConnection(path: uri, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let existing = try? readStoredSchema(connection)
        if let existing {
            let db = Database(connection: connection, path: uri, schema: existing, readOnly: false)
            var requested = schema
            if keepingOtherClasses {
                for cls in existing.classes where requested[cls.name] == nil { requested.upsert(cls) }
            }
            try db.applyRequestedSchema(requested)
            return db
        }
        try initialize(connection, schema: schema, wal: false)
        return Database(connection: connection, path: uri, schema: schema, readOnly: false)
    }

    /// Opens an existing database file.
    ///
    /// With a requested `schema`: identical → opened as is; only automatic differences (new classes,
    /// index changes) → applied; anything else → ``PorterError/Code/migrationRequired`` listing each change.
    /// A file that is not a Porter database is never written to.
    public static func open(
        at path: String, schema requested: Schema? = nil, readOnly: Bool = false,
        busyTimeout: TimeInterval = Database.writerWait
    ) throws -> Database {
        guard FileManager.default.fileExists(atPath: path) else {
            throw PorterError(.io, "no such database file", location: path)
        }
        try checkHeader(path)
        let target = try sqliteTarget(for: path, readOnly: readOnly)
        if !readOnly, FileManager.default.fileExists(atPath: path + "-wal") {
            // A WAL left by another program holds its newest pages, and a read-write connection
            // that closes last checkpoints them into the main file. Check such a file read-only
            // first (read-only connections never checkpoint), so a foreign one is not written to.
            _ = try readStoredSchema(SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY))
        }
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        let hadSideFiles =
            FileManager.default.fileExists(atPath: path + "-wal")
            || FileManager.default.fileExists(atPath: path + "-shm")
        let connection = try SQLiteConnection(path: target, flags: flags, displayPath: path)
        // A read-only command leaves no files behind, whether the open succeeds or fails.
        if readOnly, !hadSideFiles, target == path { connection.tidiesSideFilesOf = path }
        sqlite3_busy_timeout(connection.handle, Int32(busyTimeout * 1000))
        // Look before writing anything: journal mode changes would write to a foreign file.
        let stored = try readStoredSchema(connection)
        if !readOnly {
            // Before the first write: a foreign trigger must never run inside Porter's writes.
            try refuseForeignSchemaObjects(connection)
            _ = try connection.scalar("PRAGMA journal_mode=WAL")
            if case .integer(let format)? = try connection.scalar("PRAGMA user_version"), format < fileFormatVersion {
                try upgradeFormat(connection, schema: stored, from: format)
            }
        }
        try connection.execute("PRAGMA foreign_keys=OFF; PRAGMA synchronous=NORMAL")
        let db = Database(connection: connection, path: path, schema: stored, readOnly: readOnly)
        if let requested { try db.applyRequestedSchema(requested) }
        return db
    }

    /// Sets up a new file: pragmas, meta tables, the schema's tables.
    private static func initialize(_ connection: SQLiteConnection, schema: Schema, wal: Bool) throws {
        if wal { _ = try connection.scalar("PRAGMA journal_mode=WAL") }
        try connection.execute("PRAGMA synchronous=NORMAL")
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.execute("PRAGMA application_id=\(applicationID)")
            try connection.execute("PRAGMA user_version=\(fileFormatVersion)")
            try connection.execute(
                """
                CREATE TABLE _porter_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
                CREATE TABLE _porter_history (id INTEGER PRIMARY KEY AUTOINCREMENT, from_version INTEGER,
                    to_version INTEGER, plan_checksum TEXT, applied_at TEXT, porter_version TEXT, summary TEXT);
                """)
            // The stored schema first: a statement after the classes' tables would make SQLite read
            // the whole new schema back once more (superlinear in classes: its schema hash has at
            // most 64 buckets), on top of the read every open makes.
            try writeStoredSchema(connection, schema)
            let ddl = SchemaDDL(connection: connection)
            try ddl.createClassesInNewFile(schema.classes)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
