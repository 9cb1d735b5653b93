import Foundation
import Porter

/// Migrating a Realm file: its objects are copied into a private Porter database, migrated there
/// by the same runtime and checks as any Porter database, and written as a new Realm file (format
/// 24, at the new schema version, with the same key) that replaces the original atomically.
/// Until that rename the original is untouched; after any failure it is byte for byte as before.
enum RealmFileMigration {
    static func migrate(_ path: String, key: [UInt8]?, to schema: Schema, plans: [MigrationPlan], renames: RenameSet,
                        options: MigrationOptions) throws -> MigrationReport {
        let file = try RealmFile(path: path, encryptionKey: key)
        if let backup = options.backupPath, FileManager.default.fileExists(atPath: backup) {
            throw PorterError(.io, "the backup file already exists", location: backup)
        }
        var stored = file.schema
        stored.version = file.schemaVersion.map { UInt64(max(0, $0)) } ?? 0
        let scratch = try RealmScratchDatabase(file, schema: stored)
        defer { scratch.remove() }
        scratch.close()
        var scratchOptions = options
        scratchOptions.backupPath = nil
        var report: MigrationReport
        do {
            report = try Migrator.migrate(databaseAt: scratch.path, to: schema, plans: plans, renames: renames, options: scratchOptions)
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
        let migrated = try Database.open(at: scratch.path, readOnly: true)
        try RealmFileOutput.write(migrated, to: path, encryptionKey: key)
        return report
    }

    /// Copies a file to a new path through a temporary file and a rename, so `to` is complete or absent.
    static func copyAtomically(_ from: String, to: String) throws {
        let temporary = to + ".porter-tmp"
        do {
            try? FileManager.default.removeItem(atPath: temporary)
            try FileManager.default.copyItem(atPath: from, toPath: temporary)
            guard rename(temporary, to) == 0 else {
                throw PorterError(.io, "cannot write the backup: \(String(cString: strerror(errno)))", location: to)
            }
        } catch let error as PorterError {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw PorterError(.io, "cannot write the backup: \(error.localizedDescription)", location: to)
        }
    }
}
