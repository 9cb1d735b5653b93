import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// Reads and checks the stored schema. Refuses files that are not Porter databases, are corrupt,
    /// or come from a newer Porter, without writing anything.
    static func readStoredSchema(_ connection: SQLiteConnection) throws -> Schema {
        let appID: Int64
        do {
            guard case .integer(let id)? = try connection.scalar("PRAGMA application_id") else {
                throw PorterError(.notADatabase, "file is not a Porter database", location: connection.path)
            }
            appID = id
        } catch let error as PorterError where error.code == .sqlite || error.code == .io {
            throw PorterError(
                .notADatabase, "file is not a Porter database (\(error.message))", location: connection.path)
        }
        guard appID == Int64(applicationID) else {
            throw PorterError(
                .notADatabase,
                appID == 0
                    ? PlainSQLiteFile.foreignFileMessage(connection.path)
                    : "file is an SQLite database of another application, not a Porter database",
                location: connection.path)
        }
        guard case .integer(let format)? = try connection.scalar("PRAGMA user_version") else {
            throw PorterError(.notADatabase, "file has no Porter file-format version", location: connection.path)
        }
        guard format <= fileFormatVersion else {
            throw PorterError(
                .notADatabase,
                "file was written by a newer Porter (file format \(format); this Porter reads up to \(fileFormatVersion))",
                location: connection.path)
        }
        let text: String
        do {
            guard case .text(let t)? = try connection.scalar("SELECT value FROM _porter_meta WHERE key = 'schema'")
            else {
                throw PorterError(.notADatabase, "database has no stored schema", location: connection.path)
            }
            text = t
        } catch let error as PorterError where error.code == .sqlite {
            throw PorterError(.notADatabase, "database is damaged: \(error.message)", location: connection.path)
        }
        do {
            return try Schema(jsonBytes: Array(text.utf8))
        } catch let error as PorterError {
            throw PorterError(.notADatabase, "stored schema is damaged: \(error.headline)", location: connection.path)
        }
    }

    /// Stores `schema` (with its version) in the meta table.
    static func writeStoredSchema(_ connection: SQLiteConnection, _ schema: Schema) throws {
        let stmt = try connection.cached("INSERT OR REPLACE INTO _porter_meta (key, value) VALUES (?, ?)")
        stmt.bind(1, .text("schema"))
        stmt.bind(2, .text(schema.jsonString(pretty: false)))
        try stmt.run()
    }

    /// Replaces the stored schema inside the current write transaction and drops cached plans.
    /// Used by automatic schema changes and by the migration runtime.
    public func replaceStoredSchema(_ newSchema: Schema) throws {
        try requireWrite()
        try Database.writeStoredSchema(connection, newSchema)
        schema = newSchema
        schemaReplacedInWrite = true
        invalidatePlans()
    }

    /// Compares the stored schema with `requested` and applies automatic changes, or throws
    /// ``PorterError/Code/migrationRequired`` (one detail line per change needing a migration).
    func applyRequestedSchema(_ requested: Schema) throws {
        try requested.validate()
        if requested.version < schema.version {
            throw PorterError(
                .migrationRequired,
                "Provided schema version \(requested.version) is less than last set version \(schema.version).",
                location: path)
        }
        let changes = SchemaDiff.compare(schema, requested)
        let blocking = changes.filter { !$0.isAutomatic }
        if !blocking.isEmpty {
            throw PorterError(
                .migrationRequired, "Migration is required due to the following errors:", location: path,
                details: blocking.map(\.message))
        }
        guard requested != schema else { return }
        if isReadOnly {
            guard changes.isEmpty else {
                throw PorterError(
                    .io,
                    "database is read-only and its schema differs: \(changes.map(\.message).joined(separator: " "))",
                    location: path)
            }
            schema = requested
            return
        }
        try write {
            let ddl = SchemaDDL(connection: connection)
            for change in changes {
                switch change {
                case .addClass(let cls): try ddl.createClass(cls)
                case .addIndex(let name, let property), .removeIndex(let name, let property):
                    guard let cls = requested[name] else { continue }
                    if property.isCollection {
                        try ddl.dropCollectionIndexes(name, property)
                        try ddl.createCollectionIndexes(name, cls.property(named: property.name) ?? property)
                    } else {
                        try connection.execute(
                            "DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.index(name, property.name)))")
                        try ddl.createIndexes(cls)
                    }
                default: break
                }
            }
            try replaceStoredSchema(requested)
        }
    }

    /// One applied migration, as recorded in the file.
    public struct HistoryEntry: Sendable, Equatable {
        /// Schema version before.
        public var fromVersion: UInt64
        /// Schema version after.
        public var toVersion: UInt64
        /// Checksum of the plan applied, if any.
        public var planChecksum: String?
        /// When it was applied (ISO 8601, UTC).
        public var appliedAt: String
        /// The Porter version that applied it.
        public var porterVersion: String
        /// A one-line summary.
        public var summary: String

        /// Creates an entry.
        public init(
            fromVersion: UInt64, toVersion: UInt64, planChecksum: String?, appliedAt: String, porterVersion: String,
            summary: String
        ) {
            self.fromVersion = fromVersion
            self.toVersion = toVersion
            self.planChecksum = planChecksum
            self.appliedAt = appliedAt
            self.porterVersion = porterVersion
            self.summary = summary
        }
    }

    /// Records an applied migration (inside the migration's write transaction).
    public func appendHistory(_ entry: HistoryEntry) throws {
        try requireWrite()
        let stmt = try connection.cached(
            "INSERT INTO _porter_history (from_version, to_version, plan_checksum, applied_at, porter_version, summary) VALUES (?, ?, ?, ?, ?, ?)"
        )
        stmt.bind(1, .integer(Int64(bitPattern: entry.fromVersion)))
        stmt.bind(2, .integer(Int64(bitPattern: entry.toVersion)))
        stmt.bind(3, entry.planChecksum.map(SQLValue.text) ?? .null)
        stmt.bind(4, .text(entry.appliedAt))
        stmt.bind(5, .text(entry.porterVersion))
        stmt.bind(6, .text(entry.summary))
        try stmt.run()
    }

    /// Every recorded migration, oldest first.
    public func history() throws -> [HistoryEntry] {
        let stmt = try connection.cached(
            "SELECT from_version, to_version, plan_checksum, applied_at, porter_version, summary FROM _porter_history ORDER BY id"
        )
        defer { stmt.reset() }
        var out: [HistoryEntry] = []
        while try stmt.step() {
            out.append(
                HistoryEntry(
                    fromVersion: UInt64(bitPattern: stmt.int64(0)), toVersion: UInt64(bitPattern: stmt.int64(1)),
                    planChecksum: stmt.type(2) == SQLITE_NULL ? nil : stmt.text(2), appliedAt: stmt.text(3),
                    porterVersion: stmt.text(4), summary: stmt.text(5)))
        }
        return out
    }

    /// Size of the database file in bytes (main file plus WAL), 0 for in-memory databases.
    public var fileSize: Int64 {
        let fm = FileManager.default
        func size(_ p: String) -> Int64 {
            ((try? fm.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return size(path) + size(path + "-wal")
    }
}
