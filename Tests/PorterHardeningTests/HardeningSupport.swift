import Foundation
import Porter

/// Paths of the built executables and the package's fixtures.
enum Hardening {
    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bundled fixtures folder.
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// An executable built next to the test bundle (`swift build --build-tests` puts them in one
    /// folder), or nil when it has not been built.
    static func executable(_ name: String) -> String? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

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
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("porter-rss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
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

/// A fresh temporary folder, removed when the value is released.
final class TempDir {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "hardening") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("porter-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Tests may have made parts read-only; give the owner write access back first.
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items { chmod(url.appendingPathComponent(item).path, 0o755) }
        }
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

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
