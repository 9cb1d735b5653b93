import PorterCSQLite

/// The names of a database's SQLite tables and indexes, read from `sqlite_master` in one scan.
///
/// `sqlite_master` has no index on `name`: a lookup per class scans every row, which made
/// `check`, `inspect` and the first write of each class quadratic in classes (2,000 classes: tens of
/// millions of rows read). One scan, kept while SQLite's schema cookie stays the same, answers
/// every lookup after it.
struct SQLiteCatalog {
    /// `PRAGMA schema_version` when the catalog was read: any DDL changes it.
    var cookie: Int64
    /// ``Database/rollbackEpoch`` when it was read: a rollback restores an older cookie, which
    /// a later change can take again with other tables.
    var epoch: Int
    /// Table names.
    var tables: Set<String> = []
    /// Index names, each with whether it is a `CREATE UNIQUE INDEX`.
    var indexes: [String: Bool] = [:]
}

extension Database {
    /// The catalog of the connection's current schema (read again after any schema change).
    func catalog() throws -> SQLiteCatalog {
        let cookieStatement = try connection.cached("PRAGMA schema_version")
        defer { cookieStatement.reset() }
        let cookie = try cookieStatement.step() ? cookieStatement.int64(0) : -1
        if let cached = cachedCatalog, cached.cookie == cookie, cached.epoch == rollbackEpoch { return cached }
        var catalog = SQLiteCatalog(cookie: cookie, epoch: rollbackEpoch)
        let stmt = try connection.prepare(
            "SELECT type, name, upper(substr(coalesce(sql, ''), 1, 19)) = 'CREATE UNIQUE INDEX' FROM sqlite_master")
        while try stmt.step() {
            switch stmt.text(0) {
            case "table": catalog.tables.insert(stmt.text(1))
            case "index": catalog.indexes[stmt.text(1)] = stmt.int64(2) != 0
            default: break
            }
        }
        cachedCatalog = catalog
        return catalog
    }
}
