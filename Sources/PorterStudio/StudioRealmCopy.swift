import Foundation
import PorterModel
import PorterRealm
import PorterRealmFile
import PorterStore

/// `porter studio --write` on a Realm file: the file's objects in a private Porter working copy,
/// edited as a Porter database is (Begin, edits, Commit or Cancel), and **Save**, which writes the
/// Realm file anew from the copy, atomically (the Studio guide).
///
/// The copy is `RealmScratchDatabase`'s, as `porter import` into a Realm file and the Realm
/// migration make theirs: in memory for an encrypted file (nothing decrypted reaches the disk),
/// else in a private folder under `$TMPDIR` removed by ``remove()``. The Realm file's writer lock
/// (`FILE.lock`, the Safety guide) is held while the copy is read and during each Save, not in
/// between: an app opening the file would otherwise wait for the whole session. Instead Save
/// refuses when the file is no longer the one read (device, inode, size, modification time), so
/// another writer's change is never overwritten.
package final class StudioRealmCopy: @unchecked Sendable {
    /// Releases a lock ``Lock`` took.
    package typealias Unlock = () -> Void
    /// Takes the Realm file's writer lock (the command's `RealmFileLock`, waiting `--wait` seconds).
    package typealias Lock = () throws -> Unlock

    /// The Realm file.
    package let path: String
    /// Where Save keeps the file as it was before the first Save (must not exist at the start).
    package let backupPath: String?
    /// The working copy.
    package let database: Database
    /// The key the file is encrypted with; Save writes it with the same key.
    let encryptionKey: [UInt8]?
    /// The file's format, which Save writes again (22, 23 or 24).
    let fileFormat: Int
    private let lock: Lock
    private let scratch: RealmScratchDatabase
    /// The file as it was read or last saved: Save refuses when it is no longer so.
    private var stamp: FileStamp
    /// Commits since the start or the last Save.
    package private(set) var unsavedCommits = 0
    /// Saves so far.
    package private(set) var saves = 0

    /// Reads the Realm file at `path` into a new working copy, under the file's writer lock.
    /// - Throws: ``PorterError`` naming the file: a backup path that exists, the lock refused
    ///   (an app has the file open, another Porter writer), a file Save could not write back as it is
    ///   (a synced file's history, a format before 22), or why the file cannot be read.
    package init(path: String, encryptionKey: [UInt8]?, backup: String?, lock: @escaping Lock) throws {
        if let backup, FileManager.default.fileExists(atPath: backup) {
            throw PorterError(.io, "already exists: --backup does not overwrite a file", location: backup)
        }
        let unlock = try lock()
        defer { unlock() }
        let stamp = try FileStamp(path)
        let file = try RealmFile(path: path, encryptionKey: encryptionKey)
        if file.historyType == 3 || file.historyType == 4 {
            throw PorterError(
                .invalidInput,
                "a synced Realm file (history type \(file.historyType)): saving it would drop its sync history; "
                    + "browse it without --write", location: path)
        }
        guard WriterFileFormat.supported.contains(file.fileFormat) else {
            throw PorterError(
                .invalidInput,
                "file format \(file.fileFormat) cannot be written back (Porter writes formats "
                    + "\(WriterFileFormat.supported.map(String.init).joined(separator: ", "))): upgrade it first "
                    + "('porter compact FILE --allow-format-upgrade'), or browse it without --write", location: path)
        }
        var stored = file.schema
        stored.version = file.schemaVersion.map { UInt64(max(0, $0)) } ?? 0
        let scratch = try RealmScratchDatabase(file, schema: stored)
        guard let database = scratch.database else {
            throw PorterError(.io, "cannot open the private working copy", location: path)
        }
        self.path = path
        self.backupPath = backup
        self.encryptionKey = encryptionKey
        self.fileFormat = file.fileFormat
        self.lock = lock
        self.scratch = scratch
        self.database = database
        self.stamp = stamp
    }

    /// Whether the copy lives in memory (an encrypted file's always does).
    package var isInMemory: Bool { scratch.isInMemory }

    /// The private folder of a working copy on disk (nil in memory).
    package var workingFolder: String? { scratch.isInMemory ? nil : scratch.folder }

    /// Counts a commit of the working copy: the page shows unsaved changes until Save.
    func committed() { unsavedCommits += 1 }

    /// Writes the Realm file from the working copy: a new file beside it (its format, its key, the
    /// schema version), fsynced, renamed over it with its permissions, under its writer lock; the
    /// first Save with a backup path copies the old file there first.
    /// - Throws: ``StudioRequestError`` 409 while a write transaction is open, when the lock is
    ///   refused, or when the file changed on disk since it was read or saved; the file is then
    ///   untouched. What the writer refuses (``PorterError``).
    func save() throws {
        guard !database.isInWriteTransaction else {
            throw StudioRequestError("commit or cancel the write transaction before saving", status: 409)
        }
        let unlock: Unlock
        do { unlock = try lock() } catch let error as PorterError {
            throw StudioRequestError("not saved: \(error.headline)", status: 409)
        }
        defer { unlock() }
        guard (try? FileStamp(path)) == stamp else {
            throw StudioRequestError(
                "not saved: \(path) changed on disk since the studio read it (another writer); saving would "
                    + "overwrite that change. Restart the studio to edit the file as it is now", status: 409)
        }
        if let backupPath, saves == 0 {
            guard !FileManager.default.fileExists(atPath: backupPath) else {
                throw StudioRequestError(
                    "not saved: the backup \(backupPath) exists now: --backup does not overwrite a file", status: 409)
            }
            try RealmFileMigration.copyAtomically(path, to: backupPath)
        }
        try RealmFileOutput.write(database, to: path, encryptionKey: encryptionKey, fileFormat: fileFormat)
        stamp = try FileStamp(path)
        unsavedCommits = 0
        saves += 1
    }

    /// What `/api/info` tells of the file: a Realm file, edited in a working copy.
    var infoMembers: [JSONMember] {
        [
            JSONMember("kind", .string("realm")), JSONMember("schemaVersion", .int(database.schemaVersion)),
            JSONMember("fileFormat", .int(fileFormat)), JSONMember("encrypted", .bool(encryptionKey != nil)),
            JSONMember("workingCopy", .bool(true)),
        ]
    }

    /// Closes the working copy and removes its folder.
    package func remove() { scratch.remove() }
}

/// What tells one state of a file from another: a rename puts another inode there, a write in
/// place changes the size or the modification time.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec

    init(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PorterError(.io, "cannot read the file's state: \(String(cString: strerror(errno)))", location: path)
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
            && a.modified.tv_nsec == b.modified.tv_nsec
    }
}
