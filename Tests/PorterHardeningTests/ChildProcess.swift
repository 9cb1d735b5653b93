import Foundation
import PorterTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended, what it printed, and its peak memory.
struct ChildResult {
    /// The exit code, or nil when a signal ended the process.
    var status: Int32?
    /// The signal that ended the process, if any.
    var signal: Int32?
    /// Standard output.
    var stdout: String
    /// Standard error.
    var stderr: String
    /// Peak resident memory in KiB (`ru_maxrss` from `wait4`; for a direct child of the test
    /// process this includes the test's own memory, see `Hardening.porterMeasured`).
    var maxRSSKiB: Int
    /// Whether the test killed it while it was still running.
    var killedWhileRunning: Bool
}

/// A child process started with `posix_spawn`: unlike Foundation's `Process`, it reports peak
/// memory (`wait4`) and can be killed at an exact moment. Output goes to files, so a chatty child
/// can never block on a full pipe.
final class RunningChild {
    let pid: pid_t
    /// The folder of the child's output files, removed with the value.
    private let scratch: TemporaryFolder
    private let outPath: String
    private let errPath: String
    private var finished: ChildResult?

    /// `posix_spawn_file_actions_addclosefrom_np`, looked up at run time.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Starts `executable args…` with stdin from `stdinPath` (default /dev/null). Pass absolute paths.
    init(_ executable: String, _ args: [String], stdinPath: String = "/dev/null") throws {
        scratch = try TemporaryFolder("child")
        outPath = scratch.path("out")
        errPath = scratch.path("err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Other tests' pipes must not leak into this child (they would wait for its exit).
        // glibc ≥ 2.34 has it, but only under _GNU_SOURCE, which Swift's Glibc module lacks.
        if let closeFrom = RunningChild.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard rc == 0 else {
            throw ChildError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
    }

    /// Whether the process is still running (reaps it when it has ended).
    var isRunning: Bool {
        finished == nil && !reap(blocking: false)
    }

    /// Sends SIGKILL when the process still runs; returns whether it did.
    @discardableResult
    func killIfRunning() -> Bool {
        guard isRunning else { return false }
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
        finished?.killedWhileRunning = true
        return true
    }

    /// Waits for the end (killing the process after `timeout` seconds) and returns the result.
    func wait(timeout: Double = 300) -> ChildResult {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { killIfRunning(); break }
            usleep(2_000)
        }
        return finished!
    }

    /// `wait4`: records the result when the process has ended.
    private func reap(blocking: Bool) -> Bool {
        if finished != nil { return true }
        var status: Int32 = 0
        var usage = rusage()
        var r: pid_t
        repeat { r = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage) } while r < 0 && errno == EINTR
        guard r == pid else { return false }
        let signal = status & 0x7F
        finished = ChildResult(
            status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            stdout: Self.readAndRemove(outPath), stderr: Self.readAndRemove(errPath),
            maxRSSKiB: Int(usage.ru_maxrss), killedWhileRunning: false)
        return true
    }

    private static func readAndRemove(_ path: String) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Runs to the end (or `timeout`) and returns the result.
    static func run(_ executable: String, _ args: [String], stdinPath: String = "/dev/null", timeout: Double = 300)
        throws -> ChildResult
    {
        try RunningChild(executable, args, stdinPath: stdinPath).wait(timeout: timeout)
    }

    /// Runs and SIGKILLs the process after `delay` seconds if it still runs.
    static func run(_ executable: String, _ args: [String], killAfter delay: Double) throws -> ChildResult {
        let child = try RunningChild(executable, args)
        usleep(useconds_t(max(0, delay) * 1_000_000))
        child.killIfRunning()
        return child.wait()
    }
}

/// A child process could not be started.
struct ChildError: Error, CustomStringConvertible {
    var description: String
}
