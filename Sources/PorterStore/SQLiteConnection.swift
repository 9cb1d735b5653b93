import PorterCSQLite
import Foundation
import PorterModel

/// SQLite must copy buffers we bind: they are Swift temporaries.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Owns one `sqlite3*` handle (closed in `deinit`) and a cache of prepared statements.
///
/// Every result code goes through ``check(_:_:)`` so that failures become ``PorterError`` values
/// carrying SQLite's message and the file path, never a crash.
package final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    private var cache: [String: SQLiteStatement] = [:]
    /// The database file whose `-wal` and `-shm` this read-only connection made, to be removed
    /// again when it closes (see ``tidySideFiles(of:)``).
    var tidiesSideFilesOf: String?
    /// Statements stepped so far (any statement, any outcome). Only a statement can show this
    /// connection another connection's commit, so a cheap ``Database/stateStamp`` is recomputed
    /// only after this moved.
    var steps: UInt64 {
        get { stepCounter.pointee }
        set { stepCounter.pointee = newValue }
    }

    /// Where ``steps`` is kept: at a fixed address for the connection's life, so that values read
    /// through it (Porter's managed objects) can tell with one load that no statement ran since
    /// they last checked (``Database/changeCounter``).
    let stepCounter: UnsafeMutablePointer<UInt64> = {
        let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        counter.initialize(to: 0)
        return counter
    }()

    /// SQLite's memory statistics turned off once, before the first connection opens (Porter
    /// never reads them; see `porter_sqlite_memory_statistics_off`).
    private static let memoryStatisticsOff: Void = { _ = porter_sqlite_memory_statistics_off() }()

    /// Opens `path` with the given `sqlite3_open_v2` flags. A URI path (`file:…`) is honoured;
    /// `displayPath` (default: `path`) is the name used in messages.
    init(path: String, flags: Int32, displayPath: String? = nil) throws {
        _ = Self.memoryStatisticsOff
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw PorterError(.io, "cannot open database: \(message)", location: displayPath ?? path)
        }
        // Every file is untrusted: it may come from anywhere (see Database+Untrusted.swift).
        guard porter_sqlite_untrusted(db) == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(db))
            sqlite3_close_v2(db)
            throw PorterError(.io, "cannot open the database untrusted: \(message)", location: displayPath ?? path)
        }
        handle = db
        self.path = displayPath ?? path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
        stepCounter.deallocate()
        if let file = tidiesSideFilesOf { Self.tidySideFiles(of: file) }
    }

    /// Removes the `-wal` and `-shm` files a read-only connection made SQLite create beside a
    /// WAL-mode file (a read-only command must leave the folder as it found it). SQLite itself
    /// removes them when the last connection closes, but only a connection that may write can:
    /// so one is opened and closed, touching no data (the WAL is empty, so its checkpoint copies
    /// nothing, and `query_only` forbids writes). SQLite deletes the files only when no other
    /// connection, in any process, still uses them.
    static func tidySideFiles(of file: String) {
        let walSize = ((try? FileManager.default.attributesOfItem(atPath: file + "-wal"))?[.size] as? NSNumber)?
            .int64Value
        guard walSize == 0 || (walSize == nil && FileManager.default.fileExists(atPath: file + "-shm")) else { return }
        var db: OpaquePointer?
        guard sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            if let db { sqlite3_close_v2(db) }
            return
        }
        sqlite3_exec(db, "PRAGMA query_only=1; SELECT count(*) FROM sqlite_master", nil, nil, nil)
        sqlite3_close_v2(db)
    }

    /// Turns a non-OK result code into a ``PorterError`` with SQLite's message and `context`.
    @inline(__always)
    func check(_ rc: Int32, _ context: @autoclosure () -> String) throws {
        if rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE { return }
        throw error(rc, context())
    }

    /// The ``PorterError`` for result code `rc`.
    func error(_ rc: Int32, _ context: String) -> PorterError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return Database.otherWriterError(path)
        case SQLITE_NOTADB:
            return PorterError(.notADatabase, "file is not a Porter database (\(message))", location: path)
        case SQLITE_CORRUPT:
            return PorterError(.notADatabase, "database file is corrupt (\(message))", location: path)
        case SQLITE_FULL:
            return PorterError(.io, "disk full while \(context); nothing was changed", location: path)
        case SQLITE_READONLY:
            return PorterError(.io, "database is read-only (\(message))", location: path)
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM:
            // SQLite reports a failed write()/open() as a bare "disk I/O error"; the system error
            // says why. A file-size limit (EFBIG) or a full disk (ENOSPC) is the "disk full" case.
            // SQLite keeps the errno only when nothing overwrote it on the way back; a failed
            // write (SQLITE_IOERR_WRITE) is nearly always a full disk or a file-size limit.
            let errno = sqlite3_system_errno(handle)
            let reason = errno != 0 ? " (\(String(cString: strerror(errno))))" : ""
            if errno == EFBIG || errno == ENOSPC || rc == SQLITE_IOERR | (3 << 8) {
                return PorterError(
                    .io, "disk full or write failed while \(context)\(reason); nothing was changed", location: path)
            }
            return PorterError(.io, "I/O error while \(context): \(message)\(reason)", location: path)
        default:
            return PorterError(.sqlite, "SQLite error while \(context): \(message)", location: path)
        }
    }

    /// Runs one or more SQL statements that return no rows.
    package func execute(_ sql: String) throws {
        steps &+= 1
        try check(sqlite3_exec(handle, sql, nil, nil, nil), "running '\(sql.prefix(80))'")
    }

    /// A new prepared statement (not cached).
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        try check(
            sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil),
            "preparing '\(sql.prefix(120))'")
        guard let stmt else { throw PorterError(.sqlite, "empty SQL statement '\(sql)'", location: path) }
        return SQLiteStatement(handle: stmt, connection: self)
    }

    /// A prepared statement from the cache, reset and with its bindings cleared.
    package func cached(_ sql: String) throws -> SQLiteStatement {
        if let stmt = cache[sql] {
            stmt.reset()
            return stmt
        }
        let stmt = try prepare(sql)
        cache[sql] = stmt
        return stmt
    }

    /// Drops every cached statement (after schema changes, so none refers to a dropped table).
    func clearCache() { cache.removeAll() }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last insert.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open.
    package var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs a query and returns the first column of the first row, if any.
    package func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue? {
        let stmt = try cached(sql)
        for (i, v) in bindings.enumerated() { stmt.bind(Int32(i + 1), v) }
        defer { stmt.reset() }
        return try stmt.step() ? stmt.value(0) : nil
    }
}

/// SQL quoting of an identifier (table, column, index name).
package func quoteIdentifier(_ name: String) -> String {
    // Names almost never contain a quote; skip Foundation's replace on the common path.
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
