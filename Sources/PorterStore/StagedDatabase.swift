import Foundation
import PorterModel

/// A new database that is filled under a temporary name beside its destination and put in place
/// only once it is complete and closed, for commands that create a database and then fill it
/// (`porter import --create`): a failed, interrupted or killed run leaves nothing at the
/// destination.
///
/// The temporary file is `.NAME.porter-PID-N-R.tmp` (``TemporaryFiles/makeFile(beside:sideFiles:)``):
/// registered while it exists, so a caught SIGINT, SIGTERM or SIGHUP removes it with its `-wal` and
/// `-shm`; one a SIGKILL left behind names a dead process and is removed by the next writing
/// command on NAME (``TemporaryFiles/sweepLeftovers(beside:)``).
package final class StagedDatabase {
    /// Where the database goes.
    package let path: String
    /// The file it is made in.
    package let temporary: String
    /// The open database; nil once published or discarded.
    package private(set) var database: Database?

    private init(path: String, temporary: String, database: Database) {
        self.path = path
        self.temporary = temporary
        self.database = database
    }

    /// Makes a database for `path` with `schema` (validated first) under a temporary name and
    /// opens it.
    /// - Throws: when a file exists at `path`, the schema is invalid, or the file cannot be made
    ///   (nothing is left behind then).
    package static func create(at path: String, schema: Schema) throws -> StagedDatabase {
        try schema.validate()
        if FileManager.default.fileExists(atPath: path) {
            throw PorterError(.io, "refusing to overwrite an existing file", location: path)
        }
        // Made empty and registered in one step (SQLite takes an empty file for a new database).
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: path, sideFiles: true)
        close(fd)
        do {
            try Database.createClosed(at: temporary, displayPath: path, schema: schema)
            return StagedDatabase(path: path, temporary: temporary, database: try Database.open(at: temporary))
        } catch {
            TemporaryFiles.remove(temporary, sideFiles: true)
            throw error
        }
    }

    /// Closes the database and puts the file at ``path``, never replacing a file that appeared
    /// there meanwhile. The caller must hold no other reference to ``database``.
    /// - Throws: "refusing to overwrite an existing file" when `path` exists now, or why the file
    ///   could not be closed or put in place; the temporary file is removed then.
    package func publish() throws {
        do {
            weak let closing = database
            database = nil
            // Still open elsewhere: its last commits may still be in the `-wal`, not in the file.
            guard closing == nil else {
                throw PorterError(.io, "the new database is still open: it was not put in place", location: path)
            }
            // The last connection's close checkpointed the log into the file and removed it.
            let wal = ((try? FileManager.default.attributesOfItem(atPath: temporary + "-wal"))?[.size] as? NSNumber)?
                .int64Value
            if let wal, wal > 0 {
                throw PorterError(
                    .io, "the new database's log was not written into it on closing: it was not put in place",
                    location: path)
            }
            for suffix in ["-wal", "-shm"] { unlink(temporary + suffix) }
            try TemporaryFiles.linkIntoPlace(temporary, at: path)
        } catch {
            discard()
            throw error
        }
    }

    /// Closes the database (when no one else holds it) and removes the temporary file with its
    /// `-wal`, `-shm` and `-journal`; nothing to do once published.
    package func discard() {
        database = nil
        guard TemporaryFiles.isRegistered(temporary) else { return }
        TemporaryFiles.remove(temporary, sideFiles: true)
    }

    /// `error` with the temporary file's name in its location replaced by ``path``, so messages
    /// name the file the user asked for.
    package func relocated(_ error: PorterError) -> PorterError {
        guard let location = error.location, location.hasPrefix(temporary) else { return error }
        var copy = error
        copy.location = path + location.dropFirst(temporary.count)
        return copy
    }

    deinit { discard() }
}
