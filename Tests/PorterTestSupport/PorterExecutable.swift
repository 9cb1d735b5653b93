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
