import Foundation
import PorterCommands
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

/// Links held in lists and dictionaries nested in a `mixed` property of a Realm file: imported
/// into a Porter database, exported, written back to a Realm file and migrated through the
/// private database, each keeping every link (issue 18: they failed with "link to a missing
/// object" though the object exists).
@Suite struct NestedMixedLinkTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
         {"name": "Owner", "primaryKey": "id", "properties": {"id": "int", "m": "mixed", "ml": "mixed[]", "md": "mixed{}"}},
         {"name": "Thing", "primaryKey": "_id", "properties": {"_id": "objectId"}},
         {"name": "Pet", "primaryKey": "name", "properties": {"name": "string"}},
         {"name": "Toy", "properties": {"label": "string"}},
         {"name": "Junk", "properties": {"n": "int"}}]}
        """

    /// Owners whose `m` nests links to Pets (primary key) and Toys (no primary key: object keys).
    struct Source: RealmWriteSource {
        static func entry(_ key: String, _ value: RealmValue) -> RealmDictionaryEntry {
            RealmDictionaryEntry(key: key, value: value)
        }

        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            let pet = { (key: Int64) in RealmValue.link(className: "Pet", key: key) }
            let toy = { (key: Int64) in RealmValue.link(className: "Toy", key: key) }
            let thing = RealmValue.link(className: "Thing", key: 0)
            switch className {
            case "Owner":
                try body(
                    0,
                    [
                        .int(1),
                        .list([
                            pet(0), .dictionary([Self.entry("a", toy(5)), Self.entry("b", .list([pet(1), .int(3)]))]),
                        ]),
                        .list([]), .dictionary([]),
                    ])
                try body(
                    1,
                    [
                        .int(2),
                        .dictionary([
                            Self.entry("x", pet(1)), Self.entry("y", .list([.dictionary([Self.entry("z", toy(6))])])),
                        ]),
                        .list([]), .dictionary([]),
                    ])
                try body(2, [.int(3), pet(0), .list([]), .dictionary([])])
                // Links to the owner's own class, to an ObjectId primary key, in a list and a map of mixed.
                try body(
                    3,
                    [
                        .int(4), .list([.link(className: "Owner", key: 0), .list([thing])]),
                        .list([
                            pet(0), toy(5), .list([pet(1), .link(className: "Owner", key: 3)]),
                            .dictionary([Self.entry("t", toy(6))]),
                        ]),
                        .dictionary([
                            Self.entry("p", pet(1)), Self.entry("q", toy(5)),
                            Self.entry("s", .link(className: "Owner", key: 2)),
                            Self.entry(
                                "k", .list([thing, .dictionary([Self.entry("o", .link(className: "Owner", key: 1))])])),
                        ]),
                    ])
            case "Pet":
                try body(0, [.string("Rex")])
                try body(1, [.string("Tom")])
            case "Toy":
                try body(5, [.string("ball")])
                try body(6, [.string("bone")])
            case "Thing":
                try body(0, [.objectId(try ObjectId(string: "66b9fa6b0a6276620c3a4aa1"))])
            case "Junk":
                try body(0, [.int(7)])
            default:
                break
            }
        }
    }

    /// The JSON export of `file` (a folder of one file per class), as file name → contents.
    static func export(_ file: String, in dir: URL, _ name: String) throws -> [String: String] {
        let out = dir.appendingPathComponent(name).path
        let run = CapturedOutput.run(["export", file, "--out", out, "--format", "json"])
        #expect(run.status == 0, "\(run.output.stderr)")
        var files: [String: String] = [:]
        for entry in try FileManager.default.contentsOfDirectory(atPath: out) where entry.hasSuffix(".json") {
            files[entry] = try String(contentsOfFile: out + "/" + entry, encoding: .utf8)
        }
        return files
    }

    static func make(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("nested.realm").path
        try RealmFileWriter(schema: try Schema(jsonString: schemaJSON), schemaVersion: 1).write(
            to: path, source: Source())
        return path
    }

    @Test func importExportAndWriteBackKeepEveryLink() throws {
        let folder = try TemporaryFolder("nested-links")
        let dir = folder.url
        let realm = try Self.make(in: dir)
        let db = dir.appendingPathComponent("copy.porter").path
        let imported = CapturedOutput.run(["import", db, realm, "--create"])
        #expect(imported.status == 0, "\(imported.output.stderr)")
        let check = CapturedOutput.run(["check", db])
        #expect(check.status == 0, "\(check.output.stdout) \(check.output.stderr)")
        let fromRealm = try Self.export(realm, in: dir, "from-realm")
        let owners = try #require(fromRealm["Owner.json"])
        // The nested links name their targets (DBRefs by primary key or object key).
        #expect(owners.contains("Rex") && owners.contains("Tom"), "\(owners)")
        #expect(try Self.export(db, in: dir, "from-porter") == fromRealm)
        // Back to a Realm file: the same objects, links and all.
        let back = dir.appendingPathComponent("back.realm").path
        let written = CapturedOutput.run(["export", db, "--format", "realm", "--out", back])
        #expect(written.status == 0, "\(written.output.stderr)")
        #expect(CapturedOutput.run(["check", back]).status == 0)
        #expect(try Self.export(back, in: dir, "from-back") == fromRealm)
        let file = try RealmFile(path: back)
        let table = try #require(file.tables.first { $0.name == "Owner" })
        var values: [RealmValue] = []
        try file.forEachObject(in: table) { values.append($0.values[1]) }
        guard case .list(let first) = values[0], case .dictionary(let entries) = first[1],
            case .list(let inner) = entries.first(where: { $0.key == "b" })?.value
        else {
            Issue.record("unexpected value \(values[0])")
            return
        }
        #expect(inner.first.map { if case .link("Pet", _) = $0 { true } else { false } } == true, "\(inner)")
    }

    /// The general path (a class that holds objects removed) goes through the private Porter
    /// database; `diff` reads the same objects.
    @Test func generalPathMigrationKeepsEveryLink() throws {
        let folder = try TemporaryFolder("nested-links")
        let dir = folder.url
        let realm = try Self.make(in: dir)
        let before = try Self.export(realm, in: dir, "before")
        let v2 = dir.appendingPathComponent("v2.json").path
        try Data(
            """
            {"schemaVersion": 2, "classes": [
             {"name": "Owner", "primaryKey": "id", "properties": {"id": "int", "m": "mixed", "ml": "mixed[]", "md": "mixed{}"}},
             {"name": "Thing", "primaryKey": "_id", "properties": {"_id": "objectId"}},
             {"name": "Pet", "primaryKey": "name", "properties": {"name": "string"}},
             {"name": "Toy", "properties": {"label": "string"}}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: v2))
        let diff = CapturedOutput.run(["diff", realm, v2])
        #expect(diff.status == 0 || diff.status == 2, "\(diff.output.stderr)")
        #expect(!diff.output.stderr.contains("missing"), "\(diff.output.stderr)")
        let migrated = CapturedOutput.run(["migrate", realm, "--to", v2, "--allow-data-loss"])
        #expect(migrated.status == 0, "\(migrated.output.stderr)")
        #expect(CapturedOutput.run(["check", realm]).status == 0)
        var after = try Self.export(realm, in: dir, "after")
        #expect(after["Junk.json"] == nil)
        after["Junk.json"] = before["Junk.json"]
        after["schema.json"] = before["schema.json"]
        #expect(after == before)
    }
}
