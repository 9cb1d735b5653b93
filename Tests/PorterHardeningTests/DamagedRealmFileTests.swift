import Foundation
import Porter
import Testing
import PorterTestSupport

/// Realm files damaged by editing bytes of a Porter-written file: `porter check` finds what
/// realm-core's own check finds about sets, and the writing commands refuse the file.
@Suite(.serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter (swift build)"))
struct DamagedRealmFileTests {
    /// The three set elements, as the writer stores them (32-bit little-endian, sorted).
    static let elements: [Int32] = [111_111_111, 222_222_222, 333_333_333]

    /// A Realm file written by Porter: one Item whose int set holds ``elements`` and whose
    /// double and float sets hold a NaN.
    private func writtenFile(_ dir: TemporaryFolder) throws -> String {
        let schema = dir.path("schema.json"), source = dir.path("Item.json"), db = dir.path("db.porter")
        try Data(
            #"""
            {"schemaVersion": 1, "classes": [{"name": "Item", "primaryKey": "_id",
              "properties": {"_id": "int", "nums": "int<>", "ds": "double<>", "fs": "float?<>"}}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: schema))
        try Data(
            #"""
            {"_id": 1, "nums": [333333333, 111111111, 222222222], "ds": [1.5, {"$numberDouble": "NaN"}, -2.0],
             "fs": [null, {"$numberDouble": "NaN"}, 3.5, -1]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: source))
        #expect(try Hardening.porter(["import", db, source, "--create", "--schema", schema, "--quiet"]).status == 0)
        let realm = dir.path("w.realm")
        #expect(try Hardening.porter(["export", db, "--format", "realm", "--out", realm]).status == 0)
        return realm
    }

    private func le32(_ values: [Int32]) -> [UInt8] {
        values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    }

    /// `file` with the int set's three elements replaced by `values`.
    private func patched(_ file: String, _ values: [Int32], to path: String) throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let pattern = le32(Self.elements)
        let offsets = (0...(bytes.count - pattern.count)).filter { Array(bytes[$0..<$0 + pattern.count]) == pattern }
        try #require(offsets.count == 1, "the set's elements appear once in the file")
        bytes.replaceSubrange(offsets[0]..<offsets[0] + pattern.count, with: le32(values))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func writtenSetsAreInRealmCoreOrderWithNaNLast() throws {
        let dir = try TemporaryFolder("realm-sets")
        let realm = try writtenFile(dir)
        #expect(try Hardening.porter(["check", realm]).stdout == "ok\n")
        let exported = try Hardening.porter(["export", realm, "--out", "-", "--class", "Item", "--format", "ejson"])
        #expect(exported.stdout.contains(#""ds" : [ -2.0, 1.5, { "$numberDouble" : "NaN" } ]"#), "\(exported.stdout)")
        #expect(
            exported.stdout.contains(#""fs" : [ null, -1.0, 3.5, { "$numberDouble" : "NaN" } ]"#),
            "\(exported.stdout)")
        #expect(exported.stdout.contains(#""nums" : [ 111111111, 222222222, 333333333 ]"#), "\(exported.stdout)")
    }

    @Test func unsortedAndDuplicateSetsAreFoundAndRefused() throws {
        let dir = try TemporaryFolder("realm-sets")
        let realm = try writtenFile(dir)
        let cases: [(String, [Int32], String)] = [
            (
                "unsorted", [222_222_222, 111_111_111, 333_333_333],
                "Item[key 0].nums: set element 0 is out of realm-core's set order"
            ),
            (
                "duplicate", [111_111_111, 111_111_111, 333_333_333],
                "Item[key 0].nums: the set holds an element more than once"
            ),
        ]
        let source = dir.path("more.json")
        try Data(#"{"_id": 2, "nums": [], "ds": [], "fs": []}"#.utf8).write(to: URL(fileURLWithPath: source))
        let schema = dir.path("v2.json")
        try Data(
            #"""
            {"schemaVersion": 2, "classes": [{"name": "Item", "primaryKey": "_id",
              "properties": {"_id": "int", "nums": "int<>", "ds": "double<>", "fs": "float?<>", "note": "string?"}}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: schema))
        for (name, values, finding) in cases {
            let file = dir.path("\(name).realm")
            try patched(realm, values, to: file)
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let check = try Hardening.porter(["check", file])
            #expect(check.status == 1, "\(name)")
            #expect(check.stdout.contains(finding), "\(name): \(check.stdout)")
            let runs: [[String]] = [
                ["migrate", file, "--to", schema], ["import", file, source, "--class", "Item"],
                ["export", file, "--out", dir.path("\(name)-out")],
                // The exports that commit at one point check while they write: refused all the same.
                ["export", file, "--format", "sqlite", "--out", dir.path("\(name).sqlite")],
                ["export", file, "--format", "postgres", "--out", dir.path("\(name).sql")],
                ["export", file, "--format", "realm", "--out", dir.path("\(name).sql-realm")],
            ]
            for args in runs {
                let result = try Hardening.porter(args)
                #expect(result.status == 1, "\(name) \(args[0]): \(result.stderr)")
                #expect(
                    result.stderr.contains("refused: the file fails its check: \(finding)"),
                    "\(name) \(args[0]): \(result.stderr)")
                #expect(result.stderr.contains("salvage what is readable"), "\(name) \(args[0]): \(result.stderr)")
            }
            // `export --to` checks the file while it loads: the load is rolled back, the database
            // holds nothing.
            if PostgresServer.available {
                let database = try PostgresServer.createDatabase("damaged")
                defer { PostgresServer.dropDatabase(database) }
                let load = try Hardening.porter(["export", file, "--to", PostgresServer.url(database), "--quiet"])
                #expect(load.status == 1, "\(name) --to: \(load.stderr)")
                #expect(
                    load.stderr.contains("refused: the file fails its check: \(finding)"),
                    "\(name) --to: \(load.stderr)")
                #expect(load.stderr.split(separator: "\n").count == 1, "\(name) --to: \(load.stderr)")
                #expect(
                    try PostgresServer.value(
                        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database) == "0",
                    "\(name) --to: tables were left")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(name): the file changed")
            let left = dir.listing.filter {
                $0.hasPrefix("\(name).sql") || $0.hasPrefix(".\(name).sql") || $0 == "\(name)-out"
            }
            #expect(left.isEmpty, "\(name): the refused exports left \(left)")
            // --skip-check: the user takes over (the migration runs on the file as it is).
            let skipped = try Hardening.porter(["export", file, "--out", dir.path("\(name)-skipped"), "--skip-check"])
            #expect(skipped.status == 0, "\(name): \(skipped.stderr)")
        }
        // The unpatched file is written by the same commands.
        let migrated = try Hardening.porter(["migrate", realm, "--to", schema])
        #expect(migrated.status == 0, "\(migrated.stderr)")
    }
}
