import PorterCSQLite
import PorterModel

extension SchemaDDL {
    /// Classes at or above which ``createClassesInNewFile(_:)`` sets rows aside.
    static let setAsideThreshold = 64
    /// Classes whose schema rows are set aside at a time.
    static let setAsideBatch = 32

    /// Creates the tables and indexes of every class in a new file, in time linear in their number.
    ///
    /// After each CREATE, SQLite reads the new object back from `sqlite_master` with a full scan
    /// of it, and visits every table it knows (its foreign-key cache), so one statement per table
    /// and index costs time in proportion to the schema made so far: 10,000 classes took minutes.
    /// Here, in the new file's first (still uncommitted) transaction, the classes' rows made so far
    /// are set aside every few classes (`writable_schema`) and SQLite's copy of the schema is
    /// dropped with them (`writable_schema=RESET`), so each statement sees a small schema; the
    /// rows are written back in their order before the commit and the schema read once more. The
    /// file holds the rows the plain statements write (`CreateManyClassesTests`), which the caller's
    /// reopen reads and checks. Runs inside the new file's write transaction, on a connection
    /// nothing else uses.
    func createClassesInNewFile(_ classes: [ObjectSchema]) throws {
        guard classes.count >= Self.setAsideThreshold else {
            for cls in classes { try createClass(cls) }
            return
        }
        // Defensive mode forbids writing sqlite_master; the connection is this file's alone, and
        // it is restored before anything else runs on it.
        guard porter_sqlite_defensive(connection.handle, 0) == SQLITE_OK else {
            throw connection.error(SQLITE_ERROR, "preparing the new file's schema")
        }
        defer { _ = porter_sqlite_defensive(connection.handle, 1) }
        var rows: [SchemaRow] = []
        for (index, cls) in classes.enumerated() {
            try createClass(cls)
            if index % Self.setAsideBatch == Self.setAsideBatch - 1 { try setAside(into: &rows) }
        }
        try setAside(into: &rows)
        try connection.execute("PRAGMA writable_schema=ON")
        let insert = try connection.prepare(
            "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)")
        for row in rows {
            insert.bind(1, text: row.type)
            insert.bind(2, text: row.name)
            insert.bind(3, text: row.table)
            insert.bind(4, int: row.rootPage)
            if let sql = row.sql { insert.bind(5, text: sql) } else { sqlite3_bind_null(insert.handle, 5) }
            try insert.run()
        }
        // Turns writing off again and reads the whole schema back (once).
        try connection.execute("PRAGMA writable_schema=RESET")
    }

    /// One row of `sqlite_master`.
    private struct SchemaRow {
        var type, name, table: String
        var rootPage: Int64
        var sql: String?
    }

    /// Moves the rows of the classes' tables and indexes (in rowid order) from `sqlite_master` to
    /// `rows`, and makes SQLite forget them. Porter's own tables and `sqlite_sequence` stay: an
    /// AUTOINCREMENT table needs SQLite to know that one.
    private func setAside(into rows: inout [SchemaRow]) throws {
        try connection.execute("PRAGMA writable_schema=ON")
        let filter = "tbl_name LIKE 'class\\_%' ESCAPE '\\'"
        let select = try connection.prepare(
            "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE \(filter) ORDER BY rowid")
        while try select.step() {
            rows.append(
                SchemaRow(
                    type: select.text(0), name: select.text(1), table: select.text(2), rootPage: select.int64(3),
                    sql: select.type(4) == SQLITE_NULL ? nil : select.text(4)))
        }
        select.reset()
        try connection.execute("DELETE FROM sqlite_master WHERE \(filter)")
        try connection.execute("PRAGMA writable_schema=RESET")
    }
}
