import Foundation
import Porter
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import PorterRealm
#endif

/// Whether another process has a Realm file open, told by its `.lock` file the way realm-core
/// tells it: every process with the file open holds a lock on `PATH.lock` for as long as it has
/// the file open. Self-contained on purpose (the lock-file locking of all writing commands may
/// replace it); it never creates, writes or keeps a lock file.
enum RealmOpenCheck {
    /// Refuses a file whose `.lock` is held by another process, with a message saying to close the app.
    /// - Throws: ``PorterError/Code/io`` naming the file.
    static func refuseIfOpen(_ path: String) throws {
        if isHeldElsewhere(lockPath: path + ".lock") {
            throw PorterError(
                .io,
                "another process has this Realm file open (its .lock file is locked): "
                    + "close the app using it, then try again", location: path)
        }
    }

    /// Whether `lockPath` exists and another open file description holds a lock on it: an
    /// exclusive, non-blocking `flock` or `fcntl` (POSIX and open-file-description) lock is
    /// refused. The probe lock is released at once.
    static func isHeldElsewhere(lockPath: String) -> Bool {
        let fd = open(lockPath, O_RDWR | O_CLOEXEC)
        let readOnly = fd < 0
        let descriptor = readOnly ? open(lockPath, O_RDONLY | O_CLOEXEC) : fd
        guard descriptor >= 0 else { return false }  // no lock file: nobody has it open through realm-core
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            return errno == EWOULDBLOCK
        }
        flock(descriptor, LOCK_UN)
        // A write lock needs a descriptor open for writing; a read-only lock file is probed by flock alone.
        guard !readOnly else { return false }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 0
        probe.l_len = 0
        if fcntl(descriptor, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) { return true }
        #if os(Linux)
        var ofd = flock()
        ofd.l_type = Int16(F_WRLCK)
        ofd.l_whence = Int16(SEEK_SET)
        // 36: F_OFD_GETLK, which Glibc does not export to Swift.
        if fcntl(descriptor, 36, &ofd) == 0, ofd.l_type != Int16(F_UNLCK) { return true }
        #endif
        return false
    }
}
