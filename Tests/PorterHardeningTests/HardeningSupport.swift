import Foundation
import Porter
import PorterTestSupport

/// Paths of the built executables and the package's fixtures.
enum Hardening {
    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bundled fixtures folder.
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// An executable built next to the test bundle (`swift build --build-tests` puts them in one
    /// folder), or nil when it has not been built.
    static func executable(_ name: String) -> String? { PorterExecutable.built(name)?.path }

    /// The `porter` binary.
    static let porter = executable("porter")
    /// The `porter-torture-writer` helper.
    static let writer = executable("porter-torture-writer")
    /// Whether both executables exist (tests that run them are skipped otherwise).
    static let binariesBuilt = porter != nil && writer != nil

    /// Runs `porter args…` to the end.
    static func porter(_ args: [String], stdinPath: String = "/dev/null") throws -> ChildResult {
        try RunningChild.run(porter!, args, stdinPath: stdinPath)
    }

    /// Runs the writer helper to the end.
    static func writer(_ args: [String]) throws -> ChildResult {
        try RunningChild.run(writer!, args)
    }

    /// Runs `porter args…` through the writer helper, which measures the child's own peak memory
    /// (a direct child's `ru_maxrss` would include the test process's memory at exec time).
    static func porterMeasured(_ args: [String], stdinPath: String = "/dev/null") throws -> ChildResult {
        let folder = try TemporaryFolder("rss")
        let file = folder.path("rss")
        var result = try RunningChild.run(
            writer!, ["measure", "--rss-file", file, "--", porter!] + args, stdinPath: stdinPath)
        result.maxRSSKiB = Int((try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int($0) } ?? Int.max)
        return result
    }

    /// Runs `porter args…` with writes limited to `bytes` per file (a full disk, for SQLite and
    /// for export files alike: writes beyond the limit fail with EFBIG).
    static func porter(_ args: [String], fileSizeLimit bytes: Int) throws -> ChildResult {
        try RunningChild.run(writer!, ["limit-exec", "--fsize", String(bytes), "--", porter!] + args)
    }
}

extension TemporaryFolder {
    /// Copies a database file (and its WAL, when present) to `name` in this folder. The `-shm`
    /// index is not copied: SQLite rebuilds it from the WAL, as after a crash.
    func copyDatabase(_ source: String, to name: String) throws -> String {
        let target = path(name)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        if FileManager.default.fileExists(atPath: source + "-wal") {
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: target + "-wal")
        }
        return target
    }
}
