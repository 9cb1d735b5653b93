import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// Older fixtures are migrated into a newer typed realm (issue 5, "Fixtures for Swift tests").
///
/// Serialized so the check that no scratch folder is left behind sees only this suite's.
@Suite(.serialized) struct FixtureMigrationTests {
    static let v1URL = fixturesDirectory.appendingPathComponent("data/dogs-v1-fixture.json")

    /// The version-1 schema of `dogs-v1-fixture.json`, without its own `schemaVersion`.
    static let v1Schema = """
        {"classes": [
          {"name": "Owner", "primaryKey": "_id", "properties": {"_id": "string", "name": "string", "age": "int", "dogs": "Dog[]", "home": "Home?"}},
          {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "objectId", "name": "string", "born": "date", "owner": "Owner?", "toys": "Toy[]"}},
          {"name": "Toy", "properties": {"label": "string"}},
          {"name": "Home", "embedded": true, "properties": {"street": "string", "city": "string"}}
        ]}
        """

    /// The fixture's documents, as members of the fixture object.
    static let v1Documents = """
        "Owner": [
          {"_id": "ada", "name": "Ada Lovelace", "age": 36, "dogs": ["65a1b2c3d4e5f60718293a01", "65a1b2c3d4e5f60718293a02"],
           "home": {"street": "2 Main St", "city": "London"}},
          {"_id": "bob", "name": "Bob Stone", "age": 50, "dogs": ["65a1b2c3d4e5f60718293a03"]}
        ],
        "Dog": [
          {"_id": "65a1b2c3d4e5f60718293a01", "name": "Rex", "born": "2019-04-01T08:30:00.123456Z", "owner": "ada", "toys": [1, 2]},
          {"_id": "65a1b2c3d4e5f60718293a02", "name": "Bella", "born": "2020-11-15T00:00:00Z", "owner": "ada", "toys": [2]},
          {"_id": "65a1b2c3d4e5f60718293a03", "name": "Fido", "born": "2018-01-01T12:00:00Z", "owner": "bob"}
        ],
        "Toy": [{"_key": 1, "label": "Ball"}, {"_key": 2, "label": "Rope"}]
        """

    /// The names of fixture scratch folders in the temporary directory.
    static func scratchFolders() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        return Set(names.filter { $0.hasPrefix("porter-fixture-") })
    }

    /// Adds owner `zed` (and, with `ada`, an owner `ada`), so "the realm is unchanged" can be checked.
    static func populate(_ realm: Realm, ada: Bool = false) throws {
        try realm.write {
            for (id, name) in [("zed", "Zed"), ("ada", "Ada Before")] where id == "zed" || ada {
                let owner = FixtureOwner()
                owner._id = id
                owner.fullName = name
                realm.add(owner)
            }
        }
    }

    /// What `dogs-v1-fixture.json` holds once migrated to version 2.
    static func expectMigratedObjects(_ realm: Realm, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(realm.schema.version == 2, sourceLocation: sourceLocation)
        let ada = try #require(
            realm.object(ofType: FixtureOwner.self, forPrimaryKey: "ada"), sourceLocation: sourceLocation)
        #expect(ada.fullName == "Ada Lovelace" && ada.birthYear == 1989, sourceLocation: sourceLocation)
        #expect(ada.home?.street == "2 Main St" && ada.home?.city == "London", sourceLocation: sourceLocation)
        #expect(ada.dogs.map(\.name) == ["Rex", "Bella"], sourceLocation: sourceLocation)
        let bob = try #require(
            realm.object(ofType: FixtureOwner.self, forPrimaryKey: "bob"), sourceLocation: sourceLocation)
        #expect(bob.fullName == "Bob Stone" && bob.birthYear == 1975 && bob.home == nil, sourceLocation: sourceLocation)
        #expect(bob.dogs.map(\.name) == ["Fido"], sourceLocation: sourceLocation)
        let rex = try #require(
            realm.object(ofType: FixtureDog.self, forPrimaryKey: try ObjectId(string: "65a1b2c3d4e5f60718293a01")),
            sourceLocation: sourceLocation)
        #expect(rex.owner?._id == "ada", sourceLocation: sourceLocation)
        #expect(rex.toys.map(\.label) == ["Ball", "Rope"], sourceLocation: sourceLocation)
        // Plain JSON carries the copy, so microseconds survive.
        #expect(rex.born == Timestamp(microseconds: 1_554_107_400_123_456).date, sourceLocation: sourceLocation)
        #expect(
            realm.objects(FixtureDog.self).count == 3 && realm.objects(FixtureToy.self).count == 2,
            sourceLocation: sourceLocation)
        #expect(realm.lastReadError == nil, sourceLocation: sourceLocation)
    }

    @Test func anOlderFixtureCarryingItsSchemaIsMigratedIntoTheRealm() throws {
        let before = try Self.scratchFolders()
        let realm = try fixtureV2Realm()
        try realm.importFixtures(at: Self.v1URL)
        try Self.expectMigratedObjects(realm)
        #expect(try Self.scratchFolders() == before)
    }

    @Test func theSchemaMemberMayComeAnywhereAndDataWorksToo() throws {
        let realm = try fixtureV2Realm()
        let text = "{\(Self.v1Documents), \"schema\": \(Self.v1Schema), \"schemaVersion\": 1}"
        try realm.importFixtures(data: Data(text.utf8), name: "dogs.json")
        try Self.expectMigratedObjects(realm)
    }

    @Test func theMigratedObjectsJoinTheRealmsOwn() throws {
        let realm = try fixtureV2Realm()
        try Self.populate(realm)
        try realm.importFixtures(at: Self.v1URL)
        #expect(realm.objects(FixtureOwner.self).map(\._id).sorted() == ["ada", "bob", "zed"])
    }

    @Test func anOlderFixtureWithoutItsSchemaIsRefused() throws {
        let before = try Self.scratchFolders()
        let realm = try fixtureV2Realm()
        try Self.populate(realm)
        let fixture = Data(#"{"schemaVersion": 1, "Owner": [{"_id": "ada", "name": "Ada", "age": 36}]}"#.utf8)
        let error = expectPorterError(.invalidInput) { try realm.importFixtures(data: fixture, name: "old.json") }
        #expect(error?.message == "import failed with 1 error; nothing was written")
        #expect(
            error?.details == [
                "old.json: fixture schemaVersion 1 is older than the realm's schema version 2; to migrate it, the fixture needs a \"schema\" member holding its version-1 schema (`porter schema` prints one)"
            ])
        #expect(realm.objects(FixtureOwner.self).map(\._id) == ["zed"])
        #expect(try Self.scratchFolders() == before)
    }

    @Test func aThrowingMigrationBlockLeavesTheRealmUnchanged() throws {
        struct Refused: Error {}
        let before = try Self.scratchFolders()
        let realm = try fixtureV2Realm(block: { _, _ in throw Refused() })
        try Self.populate(realm)
        #expect(throws: Refused.self) { try realm.importFixtures(at: Self.v1URL) }
        #expect(realm.objects(FixtureOwner.self).map(\._id) == ["zed"])
        #expect(realm.objects(FixtureDog.self).isEmpty && realm.objects(FixtureToy.self).isEmpty)
        #expect(try Self.scratchFolders() == before)
    }

    @Test func aMigrationErrorNamesTheFixture() throws {
        let realm = try fixtureV2Realm(block: { migration, _ in
            migration.enumerateObjects(ofType: "Owner") { _, new in new?["birthYear"] = .string("old") }
        })
        let error = expectPorterError(.invalidValue) { try realm.importFixtures(at: Self.v1URL) }
        #expect(
            error?.location?.hasPrefix("\(Self.v1URL.path) (migrating from schema version 1 to 2)") == true,
            "\(String(describing: error))")
        #expect(realm.objects(FixtureOwner.self).isEmpty)
    }

    @Test func withoutABlockTheRuntimeRefusesToLoseData() throws {
        // Version 2 drops `age` and `name`: without a block nothing says what becomes of them.
        let realm = try fixtureV2Realm(block: nil)
        let error = expectPorterError(.migrationFailed) { try realm.importFixtures(at: Self.v1URL) }
        #expect(error?.message.hasPrefix("Refusing to lose data") == true, "\(String(describing: error))")
        #expect(error?.location == "\(Self.v1URL.path) (migrating from schema version 1 to 2)")
        #expect(
            error?.details.last
                == "the realm's configuration has no migrationBlock: give it one that moves or drops these values")
        #expect(realm.objects(FixtureOwner.self).isEmpty)
    }

    @Test func withoutABlockTheRuntimesOwnConversionsApply() throws {
        // Version 2 adds `label` to toys that had none: existing objects get its default.
        let schema = #"{"classes": [{"name": "Toy", "properties": {}}]}"#
        let config = Realm.Configuration(
            inMemoryIdentifier: "toys-\(UUID().uuidString)", schemaVersion: 2, objectTypes: [FixtureToy.self])
        let realm = try Realm(configuration: config)
        try realm.importFixtures(data: Data(#"{"schemaVersion": 0, "schema": \#(schema), "Toy": [{}, {}]}"#.utf8))
        #expect(realm.objects(FixtureToy.self).map(\.label) == ["", ""])
    }

    @Test func copyErrorsNameTheFixtureAndChangeNothing() throws {
        let realm = try fixtureV2Realm()
        try Self.populate(realm, ada: true)
        let error = expectPorterError(.invalidInput) { try realm.importFixtures(at: Self.v1URL) }
        let line = try #require(error?.details.first)
        #expect(line.hasPrefix("\(Self.v1URL.path) (migrated to schema version 2):Owner#1:_id: "), "\(line)")
        #expect(error?.location == realm.database.path)
        #expect(realm.objects(FixtureOwner.self).map(\.fullName).sorted() == ["Ada Before", "Zed"])
        #expect(realm.objects(FixtureDog.self).isEmpty)
        // Upsert matches objects by primary key: the fixture's toys have none, so it is refused as
        // Realm refuses `add(_:update:)` there, and nothing changes.
        let upsert = expectPorterError(.invalidInput) {
            try realm.importFixtures(at: Self.v1URL, options: ImportOptions(mode: .upsert))
        }
        #expect(
            upsert?.details.contains { $0.contains("'Toy' does not have a primary key and can not be updated") }
                == true,
            "\(String(describing: upsert))")
        #expect(realm.objects(FixtureOwner.self).map(\.fullName).sorted() == ["Ada Before", "Zed"])
    }

    @Test func errorsInAnOlderFixturesDocumentsAreLocatedInTheFixture() throws {
        let realm = try fixtureV2Realm()
        let text =
            #"{"schemaVersion": 1, "schema": \#(Self.v1Schema), "Owner": [{"_id": "ada", "name": "Ada", "age": "old"}]}"#
        let error = expectPorterError(.invalidInput) {
            try realm.importFixtures(data: Data(text.utf8), name: "typo.json")
        }
        #expect(error?.details == ["typo.json:Owner#1:age: expected an integer but got a string 'old'"])
        #expect(error?.location == realm.database.path)
    }

    @Test func anInvalidFixtureSchemaIsReported() throws {
        let realm = try fixtureV2Realm()
        let text =
            #"{"schemaVersion": 1, "schema": {"classes": [{"name": "Owner", "properties": {"pet": "Cat?"}}]}, "Owner": []}"#
        let error = expectPorterError(.invalidSchema) {
            try realm.importFixtures(data: Data(text.utf8), name: "cat.json")
        }
        #expect(error?.location == "cat.json")
        #expect(error?.message.hasPrefix("the fixture's schema (version 1) is invalid") == true)
        #expect(error?.details.isEmpty == false)
    }

    @Test func fixturesAtTheRealmsVersionAreUnaffected() throws {
        let realm = try fixtureV2Realm()
        try realm.importFixtures(
            data: Data(#"{"schemaVersion": 2, "Owner": [{"_id": "ada", "fullName": "Ada", "birthYear": 1989}]}"#.utf8))
        // A schema member is not needed at the same version, and is ignored.
        try realm.importFixtures(
            data: Data(
                #"{"schemaVersion": 2, "schema": {"classes": []}, "Owner": [{"_id": "bob", "fullName": "Bob"}]}"#.utf8))
        #expect(realm.objects(FixtureOwner.self).map(\.fullName) == ["Ada", "Bob"])
        let error = expectPorterError(.invalidInput) {
            try realm.importFixtures(
                data: Data(#"{"schemaVersion": 3, "schema": \#(Self.v1Schema), "Owner": []}"#.utf8), name: "new.json")
        }
        #expect(error?.details == ["new.json: fixture schemaVersion 3 is newer than the database's schema version 2"])
    }
}
