import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Putting a finished temporary file in place: the last step of every writer that makes a new
/// file under a temporary name beside its destination (``TemporaryFiles/makeFile(beside:sideFiles:)``).
extension TemporaryFiles {
    /// Puts the finished, closed file `temporary` (made beside `path`) at `path` without replacing
    /// a file there: synced to disk, hard-linked to `path` (which fails when `path` exists, however
    /// late it appeared), then its temporary name removed and forgotten, and the folder synced.
    /// On a file system without hard links: a rename, after one more look at `path`.
    /// - Throws: "refusing to overwrite an existing file" when a file appeared at `path` meanwhile
    ///   (left untouched), or why the file could not be put there; the temporary file then stays,
    ///   for the caller to remove.
    package static func linkIntoPlace(_ temporary: String, at path: String) throws {
        try syncFile(temporary, name: path)
        if link(temporary, path) == 0 {
            unlink(temporary)
        } else {
            let reason = errno
            if reason == EEXIST { throw PorterError(.io, "refusing to overwrite an existing file", location: path) }
            guard reason == EPERM || reason == EOPNOTSUPP, !FileManager.default.fileExists(atPath: path),
                rename(temporary, path) == 0
            else {
                throw PorterError(
                    .io, "cannot put the new file in place: \(String(cString: strerror(reason)))", location: path)
            }
        }
        unregister(temporary)
        syncFolder(of: path)
    }

    /// Renames the finished, synced file `temporary` (made beside `path`) to `path`, replacing
    /// what is there, forgets its temporary name and syncs the folder.
    /// - Throws: why it could not be moved (the temporary file then stays, for the caller to remove).
    package static func renameIntoPlace(_ temporary: String, at path: String) throws {
        guard rename(temporary, path) == 0 else {
            throw PorterError(
                .io, "cannot move the finished file into place: \(String(cString: strerror(errno)))", location: path)
        }
        unregister(temporary)
        syncFolder(of: path)
    }

    /// `fsync` of a finished file, so no file is published whose data is not on disk yet.
    /// - Parameter name: the file's name in messages (its destination).
    package static func syncFile(_ path: String, name: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PorterError(
                .io, "cannot open the written file to sync it: \(String(cString: strerror(errno)))", location: name)
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw PorterError(.io, "cannot sync the written file: \(String(cString: strerror(errno)))", location: name)
        }
    }

    /// `fsync` of the folder holding `path`, after a link or rename in it (best effort: some file
    /// systems refuse it).
    package static func syncFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
