import PorterCSQLite
import Foundation

extension ReferenceLoops {
    /// Copies every object table of `source` into a new file `destination` with the same layout
    /// (DDL copied from the source), one prepared INSERT per table, in one transaction. This is the
    /// floor of an import: the same rows, no parsing, no checks. Returns the rows inserted.
    public static func insertCopy(source: String, destination: String) throws -> Int {
        try? FileManager.default.removeItem(atPath: destination)
        let src = try openDatabase(source)
        defer { sqlite3_close_v2(src) }
        let dst = try openDatabase(destination)
        defer { sqlite3_close_v2(dst) }
        try execute(dst, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
        let ddl = try prepareStatement(
            src,
            "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'class_%' AND sql IS NOT NULL ORDER BY type DESC"
        )
        var tables: [String] = []
        var statements: [String] = []
        while sqlite3_step(ddl) == SQLITE_ROW {
            let type = String(cString: sqlite3_column_text(ddl, 0))
            if type == "table" { tables.append(String(cString: sqlite3_column_text(ddl, 1))) }
            statements.append(String(cString: sqlite3_column_text(ddl, 2)))
        }
        sqlite3_finalize(ddl)
        let indexes = try prepareStatement(
            src, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'class_%' AND sql IS NOT NULL")
        while sqlite3_step(indexes) == SQLITE_ROW {
            statements.append(String(cString: sqlite3_column_text(indexes, 0)))
        }
        sqlite3_finalize(indexes)

        try execute(dst, "BEGIN IMMEDIATE")
        for sql in statements { try execute(dst, sql) }
        var rows = 0
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let select = try prepareStatement(src, "SELECT * FROM \(quoted)")
            let columns = sqlite3_column_count(select)
            let insert = try prepareStatement(
                dst,
                "INSERT INTO \(quoted) VALUES (\(Array(repeating: "?", count: Int(columns)).joined(separator: ",")))")
            while sqlite3_step(select) == SQLITE_ROW {
                for c in 0..<columns { sqlite3_bind_value(insert, c + 1, sqlite3_column_value(select, c)) }
                guard sqlite3_step(insert) == SQLITE_DONE else {
                    throw Failure(description: "insert failed: \(String(cString: sqlite3_errmsg(dst)))")
                }
                sqlite3_reset(insert)
                rows += 1
            }
            sqlite3_finalize(select)
            sqlite3_finalize(insert)
        }
        try execute(dst, "COMMIT")
        return rows
    }

    /// The migration scenario (rename `name`→`title`, add `rank`, convert `count` int→string) as a
    /// hand-written SQL table rebuild in one transaction. Returns the rows rewritten.
    public static func migrationRebuild(database: String, extraColumns: [String]) throws -> Int {
        let db = try openDatabase(database)
        defer { sqlite3_close_v2(db) }
        let kept = ["_id", "price", "ratio", "active", "created", "note"] + extraColumns
        let quotedKept = kept.map { "\"\($0)\"" }
        let newColumns =
            (["_key INTEGER PRIMARY KEY AUTOINCREMENT", "\"title\"", "\"count\""] + quotedKept + ["\"rank\""]).joined(
                separator: ", ")
        let insertColumns = (["_key", "\"title\"", "\"count\""] + quotedKept + ["\"rank\""]).joined(separator: ", ")
        let selectColumns = (["_key", "\"name\"", "CAST(\"count\" AS TEXT)"] + quotedKept + ["0"]).joined(
            separator: ", ")
        try execute(db, "BEGIN IMMEDIATE")
        try execute(db, "CREATE TABLE class_Item_new (\(newColumns))")
        try execute(
            db, "INSERT INTO class_Item_new (\(insertColumns)) SELECT \(selectColumns) FROM class_Item ORDER BY _key")
        let rows = Int(sqlite3_changes(db))
        try execute(db, "DROP TABLE class_Item")
        try execute(db, "ALTER TABLE class_Item_new RENAME TO class_Item")
        try execute(db, "CREATE UNIQUE INDEX \"pk:Item\" ON class_Item (\"_id\")")
        for column in extraColumns {
            try execute(db, "CREATE INDEX \"index:Item.\(column)\" ON class_Item (\"\(column)\")")
        }
        try execute(db, "COMMIT")
        return rows
    }

    static func openDatabase(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw Failure(description: "cannot open \(path)")
        }
        return db
    }

    static func prepareStatement(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw Failure(description: "prepare failed: \(String(cString: sqlite3_errmsg(db))) in \(sql)")
        }
        return stmt
    }

    static func execute(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: "exec failed: \(String(cString: sqlite3_errmsg(db))) in \(sql)")
        }
    }
}

extension ReferenceLoops {
    /// sqlite3_step over every row of the typed benchmark's table, reading each column: the floor
    /// of reading objects. Returns the rows read.
    public static func scan(database: String) throws -> Int {
        let db = try openDatabase(database)
        defer { sqlite3_close_v2(db) }
        let stmt = try prepareStatement(db, "SELECT * FROM class_BenchItem ORDER BY _key")
        defer { sqlite3_finalize(stmt) }
        var rows = 0
        var checksum = 0
        let columns = sqlite3_column_count(stmt)
        while sqlite3_step(stmt) == SQLITE_ROW {
            for c in 0..<columns {
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: checksum &+= Int(sqlite3_column_int64(stmt, c))
                case SQLITE_FLOAT: checksum &+= Int(sqlite3_column_double(stmt, c))
                case SQLITE_TEXT, SQLITE_BLOB: checksum &+= Int(sqlite3_column_bytes(stmt, c))
                default: break
                }
            }
            rows += 1
        }
        return checksum == .min ? -1 : rows
    }

    /// The typed query's SQL equivalent: the keys of the objects with `count > 500` ordered by
    /// `price` (ties by key), stepped to the end; returns the match count and the first key.
    public static func sortedQuery(database: String) throws -> (count: Int, first: Int64) {
        let db = try openDatabase(database)
        defer { sqlite3_close_v2(db) }
        let stmt = try prepareStatement(db, "SELECT _key FROM class_BenchItem WHERE count > 500 ORDER BY price, _key")
        defer { sqlite3_finalize(stmt) }
        var rows = 0
        var first: Int64 = -1
        while sqlite3_step(stmt) == SQLITE_ROW {
            if rows == 0 { first = sqlite3_column_int64(stmt, 0) }
            rows += 1
        }
        return (rows, first)
    }
}
