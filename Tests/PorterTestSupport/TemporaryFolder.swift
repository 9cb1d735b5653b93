import Foundation

/// A fresh folder under the system's temporary folder, removed with everything in it when the
/// value is released. Every test makes its own, so tests run in parallel without sharing files.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// Creates `porter-<label>-<UUID>` under the temporary folder.
    public init(_ label: String = "tests") throws {
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

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The file URL of `name` inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `bytes` as `name` inside the folder and returns its path.
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: file(name))
        return path(name)
    }

    /// The names in the folder, sorted (empty when it cannot be read).
    public var listing: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }
}
