import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Porter's temporary files: named after the process that makes them (so leftovers of a killed
/// run are recognised by a dead PID), registered while they exist (so a caught SIGINT, SIGTERM
/// or SIGHUP removes them), and swept by the next command on the same file or folder.
package enum TemporaryFiles {
    /// The registered paths; the flag says whether SQLite's `-wal`, `-shm`, `-journal` go too.
    nonisolated(unsafe) private static var registered: [String: Bool] = [:]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter: UInt32 = 0

    /// `.NAME.porter-PID-N.tmp` beside `path`: a new, unique name in the same folder (so a
    /// rename or link into place never crosses file systems).
    package static func besideName(for path: String) -> String {
        lock.withLock { besideNameLocked(for: path) }
    }

    /// ``besideName(for:)`` with the lock held.
    private static func besideNameLocked(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        counter &+= 1
        return folder + "/." + url.lastPathComponent
            + ".porter-\(getpid())-\(counter)-\(UInt16.random(in: 0...UInt16.max)).tmp"
    }

    /// Whether `path` is registered for removal on a caught signal.
    package static func isRegistered(_ path: String) -> Bool {
        lock.withLock { registered[path] != nil }
    }

    /// The prefix of temporary folders in `$TMPDIR`: `porter-realm-PID-`.
    package static var temporaryFolderPrefix: String { "porter-realm-\(getpid())-" }

    /// Set once a caught signal removed the registered paths: nothing is created after that.
    nonisolated(unsafe) private static var closed = false

    /// Registers `path` for removal on a caught signal.
    package static func register(_ path: String, sideFiles: Bool = false) {
        lock.withLock { registered[path] = sideFiles }
    }

    /// Creates a temporary folder from a `mkdtemp` template and registers it in one step under
    /// the lock ``removeAll()`` takes, so a signal's cleanup either sees the folder or comes
    /// before it is made (a folder made between the two was left behind by a SIGTERM); nil,
    /// with `errno` set, when it cannot be made or a signal is ending the process.
    package static func makeFolder(template: String) -> String? {
        lock.withLock { () -> String? in
            guard !closed else {
                errno = EINTR
                return nil
            }
            var bytes = Array(template.utf8CString)
            guard let made = mkdtemp(&bytes) else { return nil }
            let path = String(cString: made)
            registered[path] = false
            return path
        }
    }

    /// Creates a new empty file `.NAME.porter-PID-N.tmp` beside `path` (exclusively, mode 0644)
    /// and registers it in one step under the lock ``removeAll()`` takes, as
    /// ``makeFolder(template:)`` does: the registry never names a file not made yet, and no file
    /// is made after a signal's cleanup ran (registered first and made after, it was left behind).
    /// Returns its path and a descriptor open for writing, which the caller closes.
    package static func makeFile(beside path: String, sideFiles: Bool = false) throws -> (path: String, fd: Int32) {
        try lock.withLock { () throws -> (path: String, fd: Int32) in
            guard !closed else { throw PorterError(.io, "cannot create a file: Porter is ending", location: path) }
            let temporary = besideNameLocked(for: path)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw PorterError(.io, "cannot create file: \(String(cString: strerror(errno)))", location: temporary)
            }
            registered[temporary] = sideFiles
            return (temporary, fd)
        }
    }

    /// Forgets `path` (it was renamed into place or removed).
    package static func unregister(_ path: String) {
        lock.withLock { _ = registered.removeValue(forKey: path) }
    }

    /// Removes `path` (a file or folder, with SQLite's side files when asked) and forgets it.
    package static func remove(_ path: String, sideFiles: Bool = false) {
        unregister(path)
        removeItem(path, sideFiles: sideFiles)
    }

    private static func removeItem(_ path: String, sideFiles: Bool) {
        try? FileManager.default.removeItem(atPath: path)
        if sideFiles {
            for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
    }

    /// Removes every registered path (on a caught signal, before the process ends).
    package static func removeAll() {
        // Under the lock, so no folder is being made meanwhile (``makeFolder(template:)``).
        lock.withLock {
            closed = true
            for (path, sideFiles) in registered { removeItem(path, sideFiles: sideFiles) }
            registered.removeAll()
        }
    }

    /// Whether a process with this id is gone.
    static func isDead(_ pid: pid_t) -> Bool {
        pid > 0 && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The PID in `NAME.porter-PID-N.tmp`-style names, after `marker`: digits followed by `-`, so
    /// a name that merely starts with digits (`porter-realm-1234ABCD-…`, a UUID) is not taken for
    /// one of Porter's and removed.
    static func pid(in name: Substring, after marker: String) -> pid_t? {
        guard let range = name.range(of: marker) else { return nil }
        let rest = name[range.upperBound...]
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).first == "-" else { return nil }
        return pid_t(digits)
    }

    /// Removes leftovers of killed Porter runs beside `path` (`.NAME.porter-PID-N.tmp` and its
    /// side files, whose PID is dead); returns what it removed.
    @discardableResult
    package static func sweepLeftovers(beside path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".porter-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard rest.contains(".tmp"), let pid = pid(in: name[...], after: prefix), isDead(pid) else { continue }
            let full = folder + "/" + name
            if (try? FileManager.default.removeItem(atPath: full)) != nil { removed.append(full) }
        }
        return removed
    }

    /// Removes `porter-realm-PID-*` folders of killed runs from the temporary folder.
    @discardableResult
    package static func sweepTemporaryFolder() -> [String] {
        let folder = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix("porter-realm-") {
            guard let pid = pid(in: name[...], after: "porter-realm-"), isDead(pid) else { continue }
            let full = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            if (try? FileManager.default.removeItem(atPath: full)) != nil { removed.append(full) }
        }
        return removed
    }
}
