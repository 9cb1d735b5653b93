import PorterCSQLite
import Foundation
import PorterModel

/// One writer at a time: how long a writer waits for another's write lock, the message when it
/// gives up, and the schema a write transaction starts from.
extension Database {
    /// Seconds a writer waits for another connection's write lock before giving up (`--wait`).
    /// Set once by the command line before it opens anything; the busy timeout of every
    /// connection opened without an explicit one.
    nonisolated(unsafe) public static var writerWait: TimeInterval = 5

    /// The one-line error of a writer that waited for the write lock in vain.
    package static func otherWriterError(_ path: String) -> PorterError {
        PorterError(
            .busy, "another porter process is writing \(path) (try again when it has finished, or pass a longer --wait)"
        )
    }

    /// Keeps SQLite's temporary data (sorts, statement journals) in memory: for a database in
    /// memory holding decrypted objects, which must not spill into unencrypted temporary files.
    package func keepTemporaryDataInMemory() throws {
        try connection.execute("PRAGMA temp_store=MEMORY")
    }

    /// Called at the start of a transaction (with the write lock just taken, or a read snapshot
    /// just begun): when another connection committed since this one last read the stored schema
    /// (a migration in another process, say), the schema is read again, so the transaction works
    /// on the tables as they now are rather than failing with a raw SQLite error, or a false
    /// finding of `check`, about a column that was renamed meanwhile.
    func refreshSchemaFromSnapshot() throws {
        guard case .integer(let version)? = try connection.scalar("PRAGMA data_version") else { return }
        if schemaDataVersion == version { return }
        let stored = try Database.readStoredSchema(connection)
        schemaDataVersion = version
        guard stored != schema else { return }
        schema = stored
        invalidatePlans()
    }
}
