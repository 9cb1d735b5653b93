import Foundation

/// The built `porter` executable, for tests that run it as users and CI do.
public enum PorterExecutable {
    /// The `porter` binary next to the test executable, or nil when it was not built.
    public static let url: URL? = built("porter")

    /// An executable of the package built next to the test executable (`swift build --build-tests`
    /// builds them into the same products folder), or nil when it was not built.
    public static func built(_ name: String) -> URL? {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = here.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs the binary with `arguments` (output discarded); with `killAfter`, kills it with
    /// SIGKILL after that many seconds if it is still running. Returns its process id, and its
    /// exit status, or nil when it was killed while running.
    public static func run(_ arguments: [String], killAfter: Double?) throws -> (pid: Int32, status: Int32?) {
        let process = Process()
        process.executableURL = try locate()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let killAfter else {
            process.waitUntilExit()
            return (process.processIdentifier, process.terminationStatus)
        }
        Thread.sleep(forTimeInterval: killAfter)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let killed = wasRunning && process.terminationReason == .uncaughtSignal
        return (process.processIdentifier, killed ? nil : process.terminationStatus)
    }

    /// The binary's path, or nil when it was not built.
    public static var path: String? { url?.path }

    /// The binary, or an error telling how to build it.
    public static func locate() throws -> URL {
        guard let url else { throw Missing() }
        return url
    }

    /// Why a test that needs the binary could not run.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "the porter binary was not found next to the test executable; run 'swift build' first"
        }
    }
}
