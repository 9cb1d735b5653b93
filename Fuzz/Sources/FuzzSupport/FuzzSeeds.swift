import Foundation
import Porter

/// The seed corpora: the project's fixtures (exported in each format) and, when it is present
/// beside the project, the BSON corpus (`../shared/bson-corpus`), with each case's test field
/// renamed to `mixed` so its value reaches the schema-typed reader, not just the decoder.
public enum FuzzSeeds {
    /// Which target's seeds.
    public enum Kind: Sendable {
        /// The BSON, Extended JSON, plain JSON / fixture, schema-file and Realm-file targets.
        case bson, extendedJSON, plainJSON, schemaFile, realmFile
        /// The old-layout reader's target: Realm files of formats 2–11 (`../shared/realm-files/legacy`).
        case legacyRealmFile
    }

    /// With `PORTER_FUZZ_SEEDS=DIR` in the environment: writes the seeds of `kind` into DIR and
    /// exits (called from `LLVMFuzzerInitialize`, before any fuzzing).
    public static func writeIfRequested(_ kind: Kind) {
        guard let dir = ProcessInfo.processInfo.environment["PORTER_FUZZ_SEEDS"] else { return }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let seeds = try make(kind)
            for (i, seed) in seeds.enumerated() {
                try seed.write(to: URL(fileURLWithPath: dir).appendingPathComponent(String(format: "seed-%05d", i)))
            }
            print("wrote \(seeds.count) seeds to \(dir)")
            exit(0)
        } catch {
            fatalError("cannot write seeds: \(error)")
        }
    }

    static func make(_ kind: Kind) throws -> [Data] {
        switch kind {
        case .bson: return try exportSeeds("bson") + BSONCorpusSeeds.bson()
        case .extendedJSON:
            return try exportSeeds("ejson") + exportSeeds("ejson-canonical") + BSONCorpusSeeds.extendedJSON()
        case .plainJSON: return try fixtureSeeds() + exportSeeds("json")
        case .schemaFile: return try schemaSeeds()
        case .realmFile: return try realmFileSeeds()
        case .legacyRealmFile: return try legacyRealmFileSeeds()
        }
    }

    /// The fixture database exported in `format`: each AllTypes document alone, each class file whole.
    static func exportSeeds(_ format: String) throws -> [Data] {
        let db = try Database.inMemory(schema: FuzzHarness.schema)
        try db.importFixtures(
            data: FuzzFiles.read(FuzzHarness.root.appendingPathComponent("Fixtures/data/realm-docs-fixture.json").path),
            name: "fixture.json")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("porter-seeds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Exporter(database: db, formatNamed: format).export(toDirectory: dir.path)
        var seeds: [Data] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name != "schema.json" {
            let file = try FuzzFiles.read(dir.appendingPathComponent(name).path)
            seeds.append(file)
            guard name.hasPrefix("AllTypes.") else { continue }
            seeds += format == "bson" ? splitBSON(file) : file.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        }
        return seeds
    }

    /// Concatenated BSON documents, one by one.
    static func splitBSON(_ data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var out: [Data] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length =
                Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3])
                << 24
            guard length >= 5, offset + length <= bytes.count else { break }
            out.append(Data(bytes[offset..<offset + length]))
            offset += length
        }
        return out
    }

    /// Every committed `.realm` fixture (oracle-made ones, the writer's goldens) and, when
    /// `../shared/realm-files` is there, the real SDK and realm-core files it holds.
    static func realmFileSeeds() throws -> [Data] {
        var seeds: [Data] = []
        let shared = FuzzHarness.root.deletingLastPathComponent().appendingPathComponent("shared/realm-files")
        var folders = [
            FuzzHarness.root.appendingPathComponent("Fixtures/realm"),
            FuzzHarness.root.appendingPathComponent("Fixtures/realm/written"),
        ]
        if FileManager.default.fileExists(atPath: shared.path) { folders.append(shared) }
        for dir in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            where name.hasSuffix(".realm") {
                seeds.append(try FuzzFiles.read(dir.appendingPathComponent(name).path))
            }
        }
        return seeds
    }

    /// The old files of `../shared/realm-files/legacy` (realm-core's upgrade tests and Realm Java's
    /// assets, formats 2–11), when it is there. The repository holds no old-format file (Porter
    /// writes format 24 only), so without `../shared` the target starts from an empty corpus, and
    /// says so.
    static func legacyRealmFileSeeds() throws -> [Data] {
        let legacy = FuzzHarness.root.deletingLastPathComponent().appendingPathComponent("shared/realm-files/legacy")
        guard FileManager.default.fileExists(atPath: legacy.path) else {
            print("no old-format seeds: \(legacy.path) is absent; fuzzing from an empty corpus")
            return []
        }
        var seeds: [Data] = []
        for folder in ["core", "java"] {
            let dir = legacy.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            where name.hasSuffix(".realm") {
                seeds.append(try FuzzFiles.read(dir.appendingPathComponent(name).path))
            }
        }
        return seeds
    }

    /// The fixture file, and each class of it as a fixture of its own.
    static func fixtureSeeds() throws -> [Data] {
        let url = FuzzHarness.root.appendingPathComponent("Fixtures/data/realm-docs-fixture.json")
        let fixture = try FuzzFiles.read(url.path)
        var seeds = [fixture]
        if case .object(let members)? = try? JSONValue.parse(fixture) {
            for member in members where member.key != "schemaVersion" {
                let single = JSONValue.object([JSONMember("schemaVersion", .number("3")), member])
                seeds.append(Data(single.serialized(pretty: false).utf8))
            }
        }
        return seeds
    }

    /// Every schema file of the fixtures, valid and invalid.
    static func schemaSeeds() throws -> [Data] {
        let fixtures = FuzzHarness.root.appendingPathComponent("Fixtures")
        var seeds: [Data] = []
        let files = FileManager.default.enumerator(atPath: fixtures.path)
        while let name = files?.nextObject() as? String {
            guard name.hasSuffix(".json"), !name.hasPrefix("data/"), !name.contains("plan") else { continue }
            seeds.append(try FuzzFiles.read(fixtures.appendingPathComponent(name).path))
        }
        seeds.append(Data(FuzzHarness.schema.jsonString(pretty: false).utf8))
        return seeds
    }
}
