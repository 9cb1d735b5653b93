import Foundation
import Porter

/// Holds a database's write lock until told to let go: the other side of the two-writer tests.
enum LockHolder {
    /// Opens `path`, begins a write transaction and writes one object, creates the `ready` file,
    /// waits (at most a minute) for the `release` file, then commits.
    static func hold(_ path: String, ready: String, release: String) throws {
        let db = try Database.open(at: path)
        try db.beginWrite()
        var workload = TortureWorkload(seed: 42)
        try workload.createItems(db, count: 1, batch: 900)
        _ = FileManager.default.createFile(atPath: ready, contents: Data())
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: release) && Date() < deadline {
            usleep(10_000)
        }
        try db.commitWrite()
        print("committed")
    }
}

/// `limit-exec --fsize BYTES -- PROGRAM ARGS…`: replaces this process with PROGRAM under a
/// file-size limit. SIGXFSZ is ignored (and stays ignored across exec), so a write beyond the
/// limit fails with EFBIG, as a full disk fails with ENOSPC, instead of killing the process.
enum LimitExec {
    static func run(_ args: [String]) throws {
        guard let limit = option("--fsize", in: args).flatMap({ rlim_t($0) }),
            let dash = args.firstIndex(of: "--"), dash + 1 < args.count
        else {
            fail("usage: limit-exec --fsize BYTES -- PROGRAM ARGS…")
        }
        var rl = rlimit(rlim_cur: limit, rlim_max: limit)
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rl) == 0 else {
            fail("setrlimit: \(String(cString: strerror(errno)))")
        }
        signal(SIGXFSZ, SIG_IGN)
        let program = Array(args[(dash + 1)...])
        let argv = program.map { strdup($0) } + [nil]
        execv(program[0], argv)
        fail("cannot run \(program[0]): \(String(cString: strerror(errno)))")
    }
}

/// `measure --rss-file FILE -- PROGRAM ARGS…`: runs PROGRAM (sharing this process's standard
/// streams), writes its peak resident memory in KiB to FILE, and exits as it did.
///
/// A test process cannot measure its children itself: Linux counts the memory a process had
/// when it called exec into its peak, and a spawned child starts inside the (large) test
/// process. Started from this small helper, the child's figure is its own plus a few MiB.
enum Measure {
    static func run(_ args: [String]) throws {
        guard let file = option("--rss-file", in: args), let dash = args.firstIndex(of: "--"), dash + 1 < args.count
        else {
            fail("usage: measure --rss-file FILE -- PROGRAM ARGS…")
        }
        let program = Array(args[(dash + 1)...])
        let argv = program.map { strdup($0) } + [nil]
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program[0], nil, nil, argv, environ)
        guard rc == 0 else { fail("cannot run \(program[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        try String(usage.ru_maxrss).write(toFile: file, atomically: true, encoding: .utf8)
        let signal = status & 0x7F
        if signal != 0 { kill(getpid(), signal) }
        exit((status >> 8) & 0xFF)
    }
}
