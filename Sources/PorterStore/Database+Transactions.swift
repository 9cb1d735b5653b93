import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool { writeDepth > 0 }

    /// Begins a write transaction, waiting up to the busy timeout for another writer.
    /// - Throws: ``PorterError/Code/busy`` when another process keeps the write lock;
    ///   ``PorterError/Code/usage`` when a write transaction is already open.
    public func beginWrite() throws {
        if isReadOnly { throw PorterError(.notInWriteTransaction, "database was opened read-only", location: path) }
        guard writeDepth == 0 else {
            throw PorterError(.usage, "a write transaction is already open on this database", location: path)
        }
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch let error as PorterError where error.code == .busy {
            throw Database.otherWriterError(path)
        }
        do {
            try refreshSchemaFromSnapshot()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        writeDepth = 1
        schemaReplacedInWrite = false
        beginKeyTransaction()
    }

    /// Commits the open write transaction.
    public func commitWrite() throws {
        guard writeDepth > 0 else { throw PorterError(.usage, "no write transaction to commit", location: path) }
        do {
            try storeRetiredKeyFloors()
            try connection.execute("COMMIT")
        } catch {
            cancelWrite()
            throw error
        }
        writeDepth = 0
    }

    /// Rolls back the open write transaction; the file is as it was before ``beginWrite()``.
    public func cancelWrite() {
        guard writeDepth > 0 else { return }
        writeDepth = 0
        rollbackEpoch &+= 1
        retiredKeyFloors = [:]
        if connection.inTransaction { try? connection.execute("ROLLBACK") }
        // Schema changes made inside the transaction are gone too. Only then is the stored
        // schema read back: parsing it on every rollback made each failed import pay for it.
        guard schemaReplacedInWrite else { return }
        schemaReplacedInWrite = false
        if let stored = try? Database.readStoredSchema(connection), stored != schema {
            schema = stored
        }
        invalidatePlans()
    }

    /// Runs `body` in a write transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func write<T>(_ body: () throws -> T) throws -> T {
        try beginWrite()
        do {
            let result = try body()
            try commitWrite()
            return result
        } catch {
            cancelWrite()
            throw error
        }
    }

    /// Runs `body` against one consistent snapshot of the file (a read transaction), unless a
    /// transaction is already open, whose view it then shares. The stored schema is read again
    /// inside the snapshot when another connection committed since it was last read, so `body`
    /// never pairs the tables of one state with the schema of another (a migration that commits
    /// between this connection's open and its read).
    public func read<T>(_ body: () throws -> T) throws -> T {
        if connection.inTransaction { return try body() }
        try connection.execute("BEGIN DEFERRED")
        defer { try? connection.execute("COMMIT") }
        try refreshSchemaFromSnapshot()
        return try body()
    }

    /// Throws unless a write transaction is open.
    func requireWrite() throws {
        guard writeDepth > 0 else {
            throw PorterError(
                .notInWriteTransaction, "cannot modify the database outside a write transaction", location: path)
        }
    }

    /// Runs `body` inside a savepoint so a failing operation leaves no partial change behind,
    /// while the surrounding write transaction stays open.
    func atomically<T>(_ body: () throws -> T) throws -> T {
        try connection.cached("SAVEPOINT porter_op").run()
        do {
            let result = try body()
            try connection.cached("RELEASE porter_op").run()
            return result
        } catch {
            rollbackEpoch &+= 1
            try? connection.cached("ROLLBACK TO porter_op").run()
            try? connection.cached("RELEASE porter_op").run()
            throw error
        }
    }

    /// Runs an integrity check of the SQLite file; returns the problems found (empty when sound).
    public func sqliteIntegrityCheck() throws -> [String] {
        let stmt = try connection.prepare("PRAGMA integrity_check")
        var problems: [String] = []
        while try stmt.step() {
            let line = stmt.text(0)
            if line != "ok" { problems.append(line) }
        }
        return problems
    }

    /// Copies the database to `destination` with SQLite's online backup API (a consistent snapshot),
    /// made under a temporary name beside it and put in place once complete, never replacing a
    /// file that appeared there meanwhile: a failed, interrupted or killed copy leaves nothing at
    /// `destination` (see ``StagedDatabase``).
    public func backup(to destination: String) throws {
        if FileManager.default.fileExists(atPath: destination) {
            throw PorterError(.io, "refusing to overwrite an existing file", location: destination)
        }
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: destination, sideFiles: true)
        close(fd)
        defer { TemporaryFiles.remove(temporary, sideFiles: true) }
        do {
            // The target connection is closed when this scope ends, before the file is put in place.
            let target = try SQLiteConnection(
                path: temporary, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, displayPath: destination)
            guard let backup = sqlite3_backup_init(target.handle, "main", connection.handle, "main") else {
                throw target.error(sqlite3_errcode(target.handle), "starting a backup")
            }
            let rc = sqlite3_backup_step(backup, -1)
            sqlite3_backup_finish(backup)
            guard rc == SQLITE_DONE else {
                // The failure is the target's (a write), unless the source could not be read.
                let failing = sqlite3_errcode(target.handle) != SQLITE_OK ? target : connection
                throw failing.error(rc, "copying the database to '\(destination)'")
            }
        }
        try TemporaryFiles.linkIntoPlace(temporary, at: destination)
    }
}
