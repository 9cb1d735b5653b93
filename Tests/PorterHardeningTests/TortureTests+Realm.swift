import Foundation
import Porter
import Testing
import PorterTestSupport

/// `make torture`'s Realm-file kills and concurrent-writer rounds (`TortureHarness.kills` rounds
/// each, 3 in `make test`).
extension TortureTests {
    /// The object counts and schema version `porter inspect` reports: the state compared.
    private static func state(_ file: String) throws -> String {
        let inspect = try Hardening.porter(["inspect", file])
        return inspect.stdout.split(separator: "\n").filter {
            $0.hasPrefix("Schema version") || $0.contains(" objects")
        }
        .joined(separator: "\n")
    }

    private static func leftovers(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".porter-") }
    }

    /// A Realm file (300 items over the torture writer's schema) and an export folder whose
    /// upsert replaces some and adds 900.
    private static func realmSetUp(_ dir: TemporaryFolder) throws -> (
        realm: String, export: String, schema: String, version: UInt64
    ) {
        let base = dir.path("base.porter")
        #expect(try Hardening.writer(["create", base, "--seed", "41", "--objects", "300"]).status == 0)
        let source = dir.path("source.porter")
        #expect(try Hardening.writer(["create", source, "--seed", "42", "--objects", "1200"]).status == 0)
        #expect(try Hardening.porter(["export", source, "--out", dir.path("export")]).status == 0)
        let realm = dir.path("base.realm")
        #expect(try Hardening.porter(["export", base, "--format", "realm", "--out", realm]).status == 0)
        // The migration: a new optional property and the next schema version.
        var schema = try Database.open(at: base, readOnly: true).schema
        schema.version += 1
        if var item = schema["Item"] {
            item.properties.append(Property(name: "memo", type: .string, optional: true))
            schema.upsert(item)
        }
        try Data(schema.jsonString().utf8).write(to: URL(fileURLWithPath: dir.path("v2.json")))
        return (realm, dir.path("export"), dir.path("v2.json"), schema.version)
    }

    @Test(arguments: ["import", "migrate"])
    func killedRealmWriterLeavesTheOldOrTheNewFile(_ command: String) throws {
        let dir = try TemporaryFolder("torture-realm-\(command)")
        let (original, export, schema, _) = try Self.realmSetUp(dir)
        let args = { (path: String) -> [String] in
            command == "import"
                ? ["import", path, export, "--mode", "upsert", "--quiet"] : ["migrate", path, "--to", schema]
        }
        // The reference run: the new state and how long a run takes.
        let reference = dir.path("reference.realm")
        try FileManager.default.copyItem(atPath: original, toPath: reference)
        let started = Date()
        let ran = try Hardening.porter(args(reference))
        #expect(ran.status == 0, "\(ran.stderr)")
        let duration = Date().timeIntervalSince(started)
        let old = try Self.state(original), new = try Self.state(reference)
        #expect(old != new)
        var random = SeededGenerator(seed: TortureHarness.seed ^ (command == "import" ? 0x5EA1 : 0x5EA2))
        var killed = 0
        for round in 0..<TortureHarness.kills {
            let folder = dir.path("round-\(round)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/app.realm"
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let delay = Double(random.next() % 1_000) / 1_000 * duration * 1.2
            let result = try RunningChild.run(Hardening.porter!, args(path), killAfter: delay)
            if result.killedWhileRunning { killed += 1 }
            let check = try Hardening.porter(["check", path])
            #expect(check.status == 0, "\(command) round \(round) (\(delay) s): \(check.stdout)")
            let state = try Self.state(path)
            #expect(state == old || state == new, "\(command) round \(round) (\(delay) s): neither state:\n\(state)")
            // The next run cleans what the killed one left beside the file.
            let next = try Hardening.porter(
                state == old ? args(path) : ["import", path, export, "--mode", "upsert", "--quiet"])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(Self.leftovers(folder).isEmpty, "\(command) round \(round): \(Self.leftovers(folder))")
            try? FileManager.default.removeItem(atPath: folder)
        }
        print("torture realm \(command): \(TortureHarness.kills) rounds, \(killed) killed mid-run")
    }

    @Test(arguments: ["porter", "realm"])
    func concurrentWritersRunOneAfterTheOther(_ kind: String) throws {
        let dir = try TemporaryFolder("torture-concurrent-\(kind)")
        let (realm, export, schema, version) = try Self.realmSetUp(dir)
        let original = kind == "realm" ? realm : dir.path("base.porter")
        var random = SeededGenerator(seed: TortureHarness.seed ^ (kind == "realm" ? 0xC0C1 : 0xC0C2))
        for round in 0..<TortureHarness.kills {
            let path = dir.path("round-\(round).\(kind)")
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let first = ["import", path, export, "--mode", "upsert", "--quiet", "--wait", "120"]
            let second = ["migrate", path, "--to", schema, "--wait", "120"]
            let (a, b) = random.next() % 2 == 0 ? (first, second) : (second, first)
            let one = try RunningChild(Hardening.porter!, a)
            usleep(useconds_t(random.next() % 200_000))
            let two = try RunningChild(Hardening.porter!, b)
            let (r1, r2) = (one.wait(), two.wait())
            #expect(r1.status == 0 && r2.status == 0, "\(kind) round \(round): \(r1.stderr) \(r2.stderr)")
            let check = try Hardening.porter(["check", path])
            #expect(check.status == 0, "\(kind) round \(round): \(check.stdout)")
            let state = try Self.state(path)
            #expect(state.contains("Schema version: \(version)"), "\(kind) round \(round): \(state)")
            #expect(state.contains(" 1200 objects"), "\(kind) round \(round), nothing lost: \(state)")
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
