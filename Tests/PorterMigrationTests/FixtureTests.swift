import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterStore
import PorterTestSupport

/// `Fixtures/migration`: one app's v1 and v2 models, the v1 → v2 plan, and a v1 database with
/// data (`v1.porter`), all produced by ``MigrationFixtures``. The tests check that the committed
/// files are what the generator makes and that the demo migration works on them.
///
/// Regenerate with `PORTER_WRITE_FIXTURES=1 swift test --filter FixtureTests`.
enum MigrationFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/migration")
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func v1() throws -> Schema { try Schema(contentsOfFile: path("v1.json")) }
    static func v2() throws -> Schema { try Schema(contentsOfFile: path("v2.json")) }

    /// The plan `porter plan v1.json v2.json --rename Person.name=fullName --fill Person.city=Unknown` writes.
    static func plan() throws -> MigrationPlan {
        try MigrationPlan.make(
            from: try v1(), to: try v2(),
            renames: RenameSet(properties: [PropertyRename(className: "Person", from: "name", to: "fullName")]),
            fills: [try FillArgument(parsing: "Person.city=Unknown")]
        ).plan
    }

    /// Writes the v1 database with the sample data.
    static func writeDatabase(_ path: String) throws {
        let db = try Database.create(at: path, schema: try v1())
        func id(_ n: Int) throws -> Value {
            .objectId(try ObjectId(string: String(format: "65a000000000000000000%03d", n)))
        }
        try db.write {
            var dogs: [String: ObjectKey] = [:]
            for (n, (name, age, vaccinated)) in [
                ("Rex", 3, true), ("Bella", 5, false), ("Max", 2, true), ("Luna", 7, true),
            ].enumerated() {
                dogs[name] = try db.create(
                    "Dog",
                    [
                        "_id": try id(100 + n), "name": .string(name), "age": .int(Int64(age)),
                        "vaccinated": .bool(vaccinated),
                    ])
            }
            func link(_ name: String) -> Value { .link(ObjectLink("Dog", dogs[name] ?? ObjectKey(0))) }
            try db.create(
                "Person",
                [
                    "_id": try id(1), "name": .string("Ann Lee"), "city": .string("Oslo"),
                    "address": .object(["street": .string("Main St 1"), "city": .string("Oslo")]),
                    "dogs": .list([link("Rex"), link("Bella")]),
                ])
            try db.create("Person", ["_id": try id(2), "name": .string("Bob Stone"), "dogs": .list([link("Max")])])
            try db.create("Person", ["_id": try id(3), "name": .string("Cy Park")])
        }
    }
}

@Suite struct FixtureTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PORTER_WRITE_FIXTURES"] == "1"))
    func regenerateFixtures() throws {
        let db = MigrationFixtures.path("v1.porter")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        try MigrationFixtures.writeDatabase(db)
        try Data(try MigrationFixtures.plan().jsonString().utf8).write(
            to: URL(fileURLWithPath: MigrationFixtures.path("v1-to-v2.plan.json")))
    }

    @Test func committedFilesMatchTheGenerator() throws {
        let plan = try MigrationPlan(contentsOfFile: MigrationFixtures.path("v1-to-v2.plan.json"))
        #expect(plan == (try MigrationFixtures.plan()))
        let dir = try TemporaryFolder()
        try MigrationFixtures.writeDatabase(dir.path("fresh.porter"))
        #expect(try dataChecksum(MigrationFixtures.path("v1.porter")) == (try dataChecksum(dir.path("fresh.porter"))))
    }

    @Test func theDemoMigrationWorks() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("app.porter")
        try FileManager.default.copyItem(atPath: MigrationFixtures.path("v1.porter"), toPath: path)
        var diff = try DiffReport(old: try reopen(path).schema, new: try MigrationFixtures.v2())
        try diff.addDiagnostics(from: try reopen(path))
        #expect(diff.likelyRenames.map(\.option) == ["--rename Person.name=fullName"])
        #expect(
            diff.entries.map(\.change.code) == [
                "add-class", "add-index", "change-property-type", "remove-property", "make-required", "add-property",
                "add-property",
            ])
        let report = try migrate(
            path, to: try MigrationFixtures.v2(), plans: [try MigrationFixtures.plan()],
            options: MigrationOptions(backupPath: dir.path("backup.porter")))
        #expect(report.outcome == .migrated)
        #expect(
            try column(path, "Person", "fullName") == [.string("Ann Lee"), .string("Bob Stone"), .string("Cy Park")])
        #expect(try column(path, "Person", "city") == [.string("Oslo"), .string("Unknown"), .string("Unknown")])
        #expect(try column(path, "Dog", "age") == [.string("3"), .string("5"), .string("2"), .string("7")])
        #expect(try column(path, "Address", "street") == [.string("Main St 1")])
        #expect(try reopen(path).history().first?.planChecksum == (try MigrationFixtures.plan()).checksum)
        _ = try Database.open(at: path, schema: try MigrationFixtures.v2())
    }
}
