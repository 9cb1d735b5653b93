import Foundation
import PorterInterchange
import PorterMigration
import PorterModel
import PorterRealmFile
import PorterStore
import PorterDiff

/// Migrating a Realm file. A format-24 file whose migration is made of column changes (renames,
/// new properties, conversions, fills, indexes) is rewritten column by column, as realm-core
/// migrates in place (``RealmColumnMigration``). Otherwise its objects are copied into a private
/// Porter database, migrated there by the same runtime and checks as any Porter database, and
/// written as a new Realm file. Either way the new file (format 24, at the new schema version,
/// with the same key) replaces the original atomically: until that rename the original is
/// untouched; after any failure it is byte for byte as before.
package enum RealmFileMigration {
    /// Migrates the Realm file at `path` (encrypted with `key`, if any) to `schema` with the
    /// runtime's plans, renames and options; `columnPath: false` always takes the general path.
    /// - Throws: ``PorterError`` as ``Migrator/migrate(databaseAt:to:plans:renames:options:block:)``
    ///   does, naming the user's file; the file is then unchanged.
    public static func migrate(
        _ path: String, key: [UInt8]?, to schema: Schema, plans: [MigrationPlan], renames: RenameSet,
        options: MigrationOptions, columnPath: Bool = true
    ) throws -> MigrationReport {
        let file = try RealmFile(path: path, encryptionKey: key)
        if let backup = options.backupPath, FileManager.default.fileExists(atPath: backup) {
            throw PorterError(.io, "the backup file already exists", location: backup)
        }
        var stored = file.schema
        stored.version = file.schemaVersion.map { UInt64(max(0, $0)) } ?? 0
        if columnPath,
            let report = try RealmColumnMigration.migrate(
                file, path: path, key: key, stored: stored, to: schema, plans: plans,
                renames: renames, options: options, backup: { try copyAtomically(path, to: $0) })
        {
            return report
        }
        // An encrypted file's objects stay in memory: nothing decrypted reaches the disk.
        let scratch = try RealmScratchDatabase(file, schema: stored)
        defer { scratch.remove() }
        scratch.close()
        var scratchOptions = options
        scratchOptions.backupPath = nil
        var report: MigrationReport
        do {
            if scratch.isInMemory, let db = scratch.database {
                report = try Migrator.migrate(db, to: schema, plans: plans, renames: renames, options: scratchOptions)
            } else {
                report = try Migrator.migrate(
                    databaseAt: scratch.path, to: schema, plans: plans, renames: renames, options: scratchOptions)
            }
        } catch var error as PorterError {
            // The private copy is an implementation detail: errors name the user's file.
            if let location = error.location, location.hasPrefix(scratch.path) {
                error.location = path + location.dropFirst(scratch.path.count)
            }
            throw error
        }
        report.path = path
        guard !options.dryRun, report.outcome != .upToDate else { return report }
        if let backup = options.backupPath {
            try copyAtomically(path, to: backup)
            report.backupPath = backup
        }
        let migrated =
            try scratch.isInMemory
            ? scratch.database ?? Database.open(at: scratch.path, readOnly: true)
            : Database.open(at: scratch.path, readOnly: true)
        try RealmFileOutput.write(migrated, to: path, encryptionKey: key)
        return report
    }

    /// Copies a file to a new path through a temporary file and a rename, so `to` is complete or absent.
    public static func copyAtomically(_ from: String, to: String) throws {
        // Under a temporary name a caught signal removes (a killed run's is swept by PID).
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: to)
        do {
            defer { close(fd) }
            // Holes stay holes: a sparse file's backup is sparse too.
            try SparseCopy.copy(from, into: fd, at: temporary)
        } catch {
            TemporaryFiles.remove(temporary)
            throw error
        }
        guard rename(temporary, to) == 0 else {
            let error = PorterError(
                .io, "cannot write the backup: \(String(cString: strerror(errno)))", location: to)
            TemporaryFiles.remove(temporary)
            throw error
        }
        TemporaryFiles.unregister(temporary)
    }
}
