import Foundation

/// Real Realm files from other projects (realm-core's test files, files the Realm SDKs wrote),
/// read where they live: `../shared/realm-files` beside the project root. Porter does not copy
/// them; tests that need them are skipped with ``missing`` where that folder is absent.
public enum SharedRealmFiles {
    /// The project root (this file is `Tests/PorterTestSupport/SharedRealmFiles.swift`).
    public static let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/realm-files`, beside the project root.
    public static let folder = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/realm-files")
    /// Whether the folder is there.
    public static let available = FileManager.default.fileExists(atPath: folder.path)
    /// Why a test needing the files was skipped.
    public static let missing = "skipped: ../shared/realm-files (real Realm files of other projects) is absent"

    /// The path of one shared file.
    public static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `name` resolved against `ownFolder`, except that a `shared/` prefix names a shared file.
    public static func resolve(_ name: String, in ownFolder: URL) -> String {
        name.hasPrefix("shared/")
            ? path(String(name.dropFirst("shared/".count)))
            : ownFolder.appendingPathComponent(name).path
    }
}

/// The BSON corpus of MongoDB's specifications, read where it lives: `../shared/bson-corpus`
/// beside the project root. Tests that need it are skipped with ``missing`` where it is absent.
public enum SharedBSONCorpus {
    /// `../shared/bson-corpus`.
    public static let folder = SharedRealmFiles.projectRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/bson-corpus")
    /// Whether the folder is there.
    public static let available = FileManager.default.fileExists(atPath: folder.path)
    /// Why a test needing the corpus was skipped.
    public static let missing = "skipped: ../shared/bson-corpus (the BSON corpus) is absent"

    /// The names of the corpus's JSON files, sorted.
    public static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    }
}
