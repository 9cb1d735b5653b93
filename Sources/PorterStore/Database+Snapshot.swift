import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// A read-only view of this database's current state that never changes (Realm's frozen
    /// realm): later commits, by this connection or any other, are not seen through it.
    ///
    /// A file opened in WAL mode gets a connection of its own holding one read transaction open
    /// (SQLite keeps that version of every page for it, so nothing is copied). An in-memory
    /// database is copied into a private in-memory database: its shared cache has table locks,
    /// not snapshots, so a held read would block the writers.
    /// - Throws: ``PorterError`` when the snapshot cannot be opened or copied.
    package func frozenSnapshot() throws -> Database {
        let isFile =
            !path.hasPrefix(":memory:") && !path.hasPrefix("file:") && FileManager.default.fileExists(atPath: path)
        if isFile, try connection.scalar("PRAGMA journal_mode") == .text("wal") {
            let pinned = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
            try pinned.execute("BEGIN DEFERRED")
            // The snapshot is taken by the first read of the transaction.
            let schema = try Database.readStoredSchema(pinned)
            return Database(connection: pinned, path: path, schema: schema, readOnly: true)
        }
        let copy = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        try read {
            guard let backup = sqlite3_backup_init(copy.handle, "main", connection.handle, "main") else {
                throw copy.error(sqlite3_errcode(copy.handle), "freezing the database")
            }
            let rc = sqlite3_backup_step(backup, -1)
            sqlite3_backup_finish(backup)
            guard rc == SQLITE_DONE else { throw connection.error(rc, "freezing the database") }
        }
        try copy.execute("BEGIN DEFERRED")
        let schema = try Database.readStoredSchema(copy)
        return Database(connection: copy, path: path, schema: schema, readOnly: true)
    }
}
