import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `--wait SECONDS`: how long a writing command waits for another writer of the same file.
public struct WaitOption: ParsableArguments {
    /// Seconds to wait.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to wait for another writer of the same file before giving up (default 5).",
            valueName: "seconds"))
    public var wait: Double = 5

    /// ArgumentParser requirement.
    public init() {}

    /// A negative, infinite or NaN wait is an argument error (exit 64).
    public func validate() throws {
        guard wait.isFinite, wait >= 0 else {
            throw ValidationError("--wait takes a number of seconds, 0 or more (got \(wait))")
        }
    }

    /// Makes `--wait` the busy timeout of every Porter database this process opens, and removes
    /// what killed Porter runs left beside `path` and in the temporary folder.
    func apply(sweeping path: String?) {
        Database.writerWait = wait
        SignalCleanup.install()
        if let path, path != "-" { TemporaryFiles.sweepLeftovers(beside: path) }
        TemporaryFiles.sweepTemporaryFolder()
    }
}

/// Removes Porter's registered temporary files when SIGINT, SIGTERM or SIGHUP arrives, then
/// ends the process as the signal would have.
enum SignalCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var terminating = false
    private static let lock = NSLock()

    /// Whether a caught signal is ending the process: the command's own error (its temporary
    /// files vanished under it) is then not reported, the signal ends the process instead.
    static var isTerminating: Bool { lock.withLock { terminating } }

    /// Waits for the signal handler to end the process, when one is; returns otherwise.
    static func yieldToSignal() {
        guard isTerminating else { return }
        while true { pause() }
    }

    private static let installOnce: Void = {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // Ignored as a plain signal, delivered to the dispatch source instead.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                lock.withLock { terminating = true }
                TemporaryFiles.removeAll()
                // Dies of the signal: default action, unblocked in this thread (dispatch threads
                // block signals), raised here; the exit status of a shell's `kill` if that fails.
                signal(number, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, number)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(number)
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }()

    /// Installs the handlers (once per process).
    static func install() { installOnce }
}

/// The lock a command holds while it writes a Realm file, in realm-core's own convention: an
/// exclusive `flock` on `FILE.lock` (realm-core's `DB::open` keeps a shared `flock` on that file
/// for as long as an app has the Realm open, so the exclusive lock is only granted when no app
/// has it open). Porter writers also queue on a POSIX record lock on one byte of that file far
/// beyond what realm-core uses (on Linux `flock` and `fcntl` locks are independent), which tells
/// "another Porter writer" from "an app" when the `flock` is refused.
///
/// Readers take no lock. A lock file Porter created is left in place once the Realm file
/// exists (realm-core creates it on every open, never removes it, and initialises an empty one;
/// removing it while another process may have opened it would split the lock in two), and
/// removed when the command ends without a Realm file there (a refused export or create).
/// Closing the descriptor (``release()``, the end of the process, a kill) releases both locks.
final class RealmFileLock {
    /// The lock file, `FILE.lock`.
    let lockPath: String
    private let realmPath: String
    private var fd: Int32
    /// Whether this command created the lock file.
    private var created = false

    /// Where Porter's record lock sits in the lock file (realm-core maps only the first few KiB).
    private static let porterByte: off_t = 1 << 40

    /// Takes the lock of the Realm file at `path`, waiting up to `wait` seconds.
    /// - Throws: "another porter process is writing FILE" when another Porter writer keeps it,
    ///   "FILE is open in an app" when realm-core holds it, or why the lock file cannot be opened.
    init(realmFile path: String, wait: TimeInterval) throws {
        lockPath = path + ".lock"
        realmPath = path
        fd = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 { created = true } else if errno == EEXIST { fd = open(lockPath, O_RDWR | O_CLOEXEC) }
        guard fd >= 0 else {
            throw PorterError(
                .io, "cannot open the lock file \(lockPath): \(String(cString: strerror(errno)))", location: path)
        }
        let deadline = Date().addingTimeInterval(wait)
        var appHoldsIt = false
        while true {
            if Self.recordLock(fd) {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
                let reason = errno
                guard reason == EWOULDBLOCK || reason == EINTR else {
                    close(fd)
                    throw PorterError(
                        .io, "cannot lock \(lockPath): \(String(cString: strerror(reason)))", location: path)
                }
                appHoldsIt = true
            } else {
                appHoldsIt = !Self.blockedByPorter(fd)
            }
            if Date() >= deadline { break }
            usleep(20_000)
        }
        release()
        if appHoldsIt {
            throw PorterError(
                .busy,
                "\(path) is open in an app (realm-core holds \(lockPath)): close the app, then run "
                    + "this command again")
        }
        throw Database.otherWriterError(path)
    }

    /// A write lock on Porter's byte of the lock file.
    private static var porterRange: flock {
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = porterByte
        range.l_len = 1
        return range
    }

    /// Takes Porter's record lock without waiting; false when another process holds it.
    private static func recordLock(_ fd: Int32) -> Bool {
        var lock = porterRange
        return fcntl(fd, F_SETLK, &lock) == 0
    }

    /// Whether what blocks Porter's record lock is another Porter writer's one-byte lock, rather
    /// than a lock over the whole lock file that some other program (not realm-core, which uses
    /// `flock`) holds while it has the file open.
    private static func blockedByPorter(_ fd: Int32) -> Bool {
        var probe = porterRange
        guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return true }
        return probe.l_start == porterByte && probe.l_len == 1
    }

    /// Releases both locks.
    func release() {
        guard fd >= 0 else { return }
        if created && !FileManager.default.fileExists(atPath: realmPath) && flock(fd, LOCK_EX | LOCK_NB) == 0 {
            unlink(lockPath)
        }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
