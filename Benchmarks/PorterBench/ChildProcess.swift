import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One measured run of a child process: wall time, peak resident memory (from `wait4`'s rusage,
/// so each operation is measured on its own), exit status and what it printed.
struct Measured {
    var seconds: Double
    var peakRSSBytes: Int
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ChildProcess {
    /// Runs `executable args…`, waits with `wait4`, and returns the measurement.
    static func run(_ executable: String, _ args: [String]) throws -> Measured {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).out")
            .path
        let errPath = outPath + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard rc == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measured(
            seconds: seconds, peakRSSBytes: Int(usage.ru_maxrss) * 1024, status: exitStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

/// A benchmark failure, printed and turned into exit code 1.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Total size of a file or of the files in a folder.
func diskSize(_ path: String) -> Int {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: path, isDirectory: &isDir) else { return 0 }
    if !isDir.boolValue { return ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0 }
    return ((try? fm.contentsOfDirectory(atPath: path)) ?? []).reduce(0) { $0 + diskSize(path + "/" + $1) }
}
