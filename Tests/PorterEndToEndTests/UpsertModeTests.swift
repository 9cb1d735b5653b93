import Foundation
import PorterTestSupport
import Testing

/// `porter import --mode upsert|merge` into both kinds of target: classes without a primary key
/// refused with nothing written, and the Interchange guide's update fixture idempotent.
@Suite struct UpsertModeTests {
    static let schema = PorterBinary.fixtures.appendingPathComponent("schemas/realm-docs.json").path
    static let fixture = PorterBinary.fixtures.appendingPathComponent("data/realm-docs-fixture.json").path
    static let update = PorterBinary.fixtures.appendingPathComponent("data/realm-docs-update.json").path

    /// Every file of a BSON export, by name.
    private func bsonExport(_ source: String, _ dir: URL, _ name: String) throws -> [String: Data] {
        let out = dir.appendingPathComponent(name)
        let run = try PorterBinary.run(["export", source, "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) where file.hasSuffix(".bson") {
            files[file] = try Data(contentsOf: out.appendingPathComponent(file))
        }
        return files
    }

    /// The object counts `porter inspect` reports.
    private func counts(_ target: String) throws -> [String] {
        try PorterBinary.run(["inspect", target]).stdout.split(separator: "\n").map(String.init).filter {
            $0.contains(" objects")
        }
    }

    /// A Porter database and a Realm file, both holding the Interchange guide's fixture.
    private func targets(_ dir: URL) throws -> [String] {
        let db = dir.appendingPathComponent("app.porter").path
        #expect(try PorterBinary.run(["create", db, "--schema", Self.schema]).status == 0)
        let load = try PorterBinary.run(["import", db, Self.fixture])
        #expect(load.status == 0, "\(load.stderr)")
        let realm = dir.appendingPathComponent("app.realm").path
        #expect(try PorterBinary.run(["export", db, "--format", "realm", "--out", realm]).status == 0)
        return [db, realm]
    }

    @Test(arguments: ["upsert", "merge"])
    func classesWithoutPrimaryKeyAreRefusedAndNothingIsWritten(_ mode: String) throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        for target in try targets(dir) {
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            let run = try PorterBinary.run(["import", target, Self.fixture, "--mode", mode])
            #expect(run.status == 1)
            let because = "matches objects by primary key"
            let refusals = ["DogToy", "AllTypes"].map { name in
                "\(Self.fixture):\(name)#1: '\(name)' does not have a primary key and can not be updated: "
                    + "--mode \(mode) \(because) (import \(name)'s documents with --mode insert)"
            }
            // A Realm file stores no defaults, so its target also reports the documents that leave
            // out properties with a default in the schema file.
            if target.hasSuffix(".porter") {
                #expect(Array(run.errorLines.prefix(2)) == refusals, "\(run.stderr)")
            } else {
                #expect(refusals.allSatisfy(run.errorLines.contains), "\(run.stderr)")
            }
            #expect(run.errorLines.last?.hasPrefix("porter: error: \(target): import failed") == true, "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before, "\(target) changed")
        }
    }

    @Test(arguments: ["upsert", "merge"])
    func theReadmeUpdateTwiceGivesTheSameExport(_ mode: String) throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        for (n, target) in try targets(dir).enumerated() {
            let first = try PorterBinary.run(["import", target, Self.update, "--mode", mode])
            #expect(first.status == 0, "\(target): \(first.stderr)")
            let once = try bsonExport(target, dir, "once-\(n)")
            let inspected = try counts(target)
            let second = try PorterBinary.run(["import", target, Self.update, "--mode", mode])
            #expect(second.status == 0, "\(target): \(second.stderr)")
            #expect(try bsonExport(target, dir, "twice-\(n)") == once, "\(target): the second \(mode) changed data")
            #expect(try counts(target) == inspected)
            #expect(try PorterBinary.run(["check", target]).status == 0)
        }
    }
}
