import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PorterModel

extension Database {
    /// What SQLite should open for `path`, decided before SQLite touches anything, so that
    /// permission problems get a clear error instead of SQLite's "attempt to write a readonly
    /// database" (which used to surface as "file is not a Porter database").
    ///
    /// - A write open of a file without write permission, or in a folder where SQLite cannot
    ///   create its `-wal` and `-shm` files, is refused up front, naming the reason.
    /// - A read-only open in a read-only folder (read-only media, a mounted backup) cannot create
    ///   `-shm` either; when no `-wal` file holds changes, the file is opened as immutable, which
    ///   needs no side files. With a non-empty `-wal` that would hide committed changes, so it is
    ///   refused instead.
    /// - Returns: the filename or `file:` URI to hand to SQLite.
    static func sqliteTarget(for path: String, readOnly: Bool) throws -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let fm = FileManager.default
        let hasWAL = fm.fileExists(atPath: path + "-wal"), hasSHM = fm.fileExists(atPath: path + "-shm")
        let folderWritable = access(folder, W_OK) == 0
        if !readOnly {
            if access(path, W_OK) != 0 {
                throw PorterError(
                    .io, "database file is read-only (no write permission); nothing was changed", location: path)
            }
            if !folderWritable && !(hasWAL && hasSHM) {
                throw PorterError(
                    .io,
                    "cannot write to the database: its folder is read-only, and SQLite needs to create '\(name)-wal' and '\(name)-shm' beside it; nothing was changed",
                    location: path)
            }
            return path
        }
        if folderWritable || hasSHM { return path }
        let walSize = ((try? fm.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.int64Value ?? 0
        if walSize > 0 {
            throw PorterError(
                .io,
                "cannot read the database: its folder is read-only and '\(name)-wal' holds changes that SQLite can only read after creating '\(name)-shm'; copy the files to a writable folder",
                location: path)
        }
        // No side file can exist or appear (nobody can create one here), so nothing can change
        // under the reader: immutable is exact, and it needs no locks.
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:\(escaped)?immutable=1"
    }

    /// Refuses, from the 100-byte SQLite header alone, files that are not Porter databases or
    /// come from a newer Porter, before SQLite opens them: opening a WAL-mode file, even
    /// read-only, creates `-wal` and `-shm` files beside it, and a refused file must not gain any.
    ///
    /// A non-empty `-wal` may hold a newer header (a database created or changed by a process
    /// that was killed before its checkpoint), so then the decision is left to SQLite's reading.
    static func checkHeader(_ path: String) throws {
        let walSize =
            ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.int64Value ?? 0
        guard walSize == 0 else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        func bigEndian(_ offset: Int) -> UInt32 { header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        if header.isEmpty {
            throw PorterError(.notADatabase, "file is not a Porter database", location: path)
        }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw PorterError(.notADatabase, "file is not a Porter database (file is not a database)", location: path)
        }
        let appID = Int32(bitPattern: bigEndian(68))
        guard appID == applicationID else {
            throw PorterError(
                .notADatabase,
                appID == 0
                    ? PlainSQLiteFile.foreignFileMessage(path)
                    : "file is an SQLite database of another application, not a Porter database", location: path)
        }
        let format = Int64(Int32(bitPattern: bigEndian(60)))
        guard format <= fileFormatVersion else {
            throw PorterError(
                .notADatabase,
                "file was written by a newer Porter (file format \(format); this Porter reads up to \(fileFormatVersion))",
                location: path)
        }
    }
}
