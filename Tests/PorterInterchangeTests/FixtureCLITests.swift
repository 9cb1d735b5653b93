import Foundation
import PorterInterchange
import Testing
import PorterTestSupport

/// `porter import` of an older fixture agrees with `realm.importFixtures`: migrated when it
/// carries its schema, refused when it does not.
@Suite struct FixtureCLITests {
    typealias CLI = CLITests

    /// The schema of `dogs-v1-fixture.json` at version 2: Dog gains an optional `chip`.
    static let v2 = """
        {"schemaVersion": 2, "classes": [
          {"name": "Owner", "primaryKey": "_id", "properties": {"_id": "string", "name": "string", "age": "int", "dogs": "Dog[]", "home": "Home?"}},
          {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "objectId", "name": "string", "born": "date", "owner": "Owner?", "toys": "Toy[]", "chip": "string?"}},
          {"name": "Toy", "properties": {"label": "string"}},
          {"name": "Home", "embedded": true, "properties": {"street": "string", "city": "string"}}
        ]}
        """

    @Test func olderFixturesAreMigratedOrRefusedLikeTheSwiftAPI() throws {
        func scratch() throws -> Set<String> {
            Set(
                try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter
                { $0.hasPrefix("porter-import-fixture-") })
        }
        let scratchBefore = try scratch()
        let dir = try TemporaryFolder()
        let schemaPath = dir.path("v2.json")
        try Data(Self.v2.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let db = dir.path("app.realm")
        _ = try CLI.porter(["create", db, "--schema", schemaPath])
        let fixture = Files.root.appendingPathComponent("Fixtures/data/dogs-v1-fixture.json").path
        let run = try CLI.porter(["import", db, fixture])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Imported "), "\(run.stdout)")
        #expect(run.stdout.contains("Dog 3"), "\(run.stdout)")
        #expect(try scratch() == scratchBefore, "the scratch database is removed")

        // Without its schema, an older fixture is refused, as realm.importFixtures refuses it.
        var text = try String(contentsOfFile: fixture, encoding: .utf8)
        let start = try #require(text.range(of: "\"schema\":"))
        let end = try #require(text.range(of: "\"Dog\":"))
        text.removeSubrange(start.lowerBound..<end.lowerBound)
        let bare = dir.path("bare.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: bare))
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let refused = try CLI.porter(["import", db, bare])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                "\(bare): fixture schemaVersion 1 is older than the database's schema version 2; to migrate it, the fixture needs a \"schema\" member"
            ), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let mixed = try CLI.porter(["import", db, fixture, bare])
        #expect(mixed.status == 1)
        #expect(
            mixed.stderr
                == "porter: error: \(fixture): a fixture older than the database's schema: import it on its own, so it is migrated first\n",
            "\(mixed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
