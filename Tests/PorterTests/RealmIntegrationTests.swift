import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// The realm with the migration runtime (issue 4) and fixture loading (issue 5).
@Suite struct RealmIntegrationTests {
    @Test func migrationBlockRunsWhenTheSchemaVersionIsRaised() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("migrate.realm")
        do {
            let realm = try Realm(configuration: .init(fileURL: url, schemaVersion: 1, objectTypes: [ThingV1.self]))
            try realm.write {
                for name in ["box", "anvil"] {
                    let thing = ThingV1()
                    thing.name = name
                    realm.add(thing)
                }
            }
        }
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2,
            migrationBlock: { migration, oldVersion in
                guard oldVersion < 2 else { return }
                migration.enumerateObjects(ofType: "Thing") { old, new in
                    guard case .string(let name)? = old?["name"] else { return }
                    new?["weight"] = .int(Int64(name.count))
                }
            }, objectTypes: [ThingV2.self])
        let realm = try Realm(configuration: config)
        #expect(realm.schema.version == 2)
        #expect(realm.objects(ThingV2.self).map(\.weight) == [3, 5])
        #expect(try realm.database.history().count == 1)
    }

    @Test func aThrowingMigrationBlockLeavesTheFileAsItWas() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("failing.realm")
        do { _ = try Realm(configuration: .init(fileURL: url, schemaVersion: 1, objectTypes: [ThingV1.self])) }
        struct Refused: Error {}
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2, migrationBlock: { _, _ in throw Refused() }, objectTypes: [ThingV2.self])
        #expect(throws: Refused.self) { _ = try Realm(configuration: config) }
        let reopened = try Realm(configuration: .init(fileURL: url, schemaVersion: 1, objectTypes: [ThingV1.self]))
        #expect(reopened.schema.version == 1)
    }

    @Test func fixtureFileLoadsIntoTypedObjects() throws {
        let realm = try memoryRealm()
        try realm.importFixtures(at: fixturesDirectory.appendingPathComponent("data/realm-docs-fixture.json"))
        let rex = try #require(
            realm.object(ofType: Dog.self, forPrimaryKey: try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e01")))
        #expect(rex.name == "Rex" && rex.breed == "Labrador")
        #expect(rex.owner?.name == "Ada")
        #expect(rex.favoriteToys.map(\.name) == ["Ball", "Rope"])
        #expect(rex.address?.country?.name == "Norway")
        let ada = try #require(rex.owner)
        #expect(ada.walkers.count == 2)
        #expect(realm.objects(Dog.self).where { $0.status == .retired }.map(\.name) == ["Bella"])
        #expect(realm.lastReadError == nil)
    }

    @Test func badFixtureChangesNothing() throws {
        let realm = try memoryRealm()
        let fixture = Data(#"{ "Dog": [ { "name": 5 } ] }"#.utf8)
        let error = expectPorterError(.invalidInput) { try realm.importFixtures(data: fixture, name: "bad.json") }
        #expect(error?.details.first?.hasPrefix("bad.json:") == true)
        #expect(realm.objects(Dog.self).isEmpty)
    }

    @Test func readOnlyRealmRefusesWrites() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("readonly.realm")
        let missing = expectPorterError(.io) {
            _ = try Realm(configuration: .init(fileURL: url, readOnly: true, objectTypes: [DogToy.self]))
        }
        #expect(missing?.message == "no such database file (a read-only realm cannot create one)")
        do {
            let realm = try Realm(configuration: .init(fileURL: url, objectTypes: [DogToy.self]))
            try realm.write { realm.add(DogToy()) }
        }
        let realm = try Realm(configuration: .init(fileURL: url, readOnly: true, objectTypes: [DogToy.self]))
        #expect(realm.objects(DogToy.self).count == 1)
        let error = expectPorterError(.notInWriteTransaction) { try realm.write {} }
        #expect(error?.message == "database was opened read-only")
    }

    @Test func aDeletedObjectCannotBeAddedAgain() throws {
        let realm = try memoryRealm()
        let toy = DogToy()
        try realm.write { realm.add(toy) }
        try realm.write { realm.delete(toy) }
        #expect(toy.isInvalidated && toy.name == "")
        #expect(realm.lastReadError?.code == .notFound)
        let error = expectPorterError(.usage) { try realm.write { realm.add(toy) } }
        #expect(error?.headline == "DogToy: the object has been deleted; add a copy made before it was deleted instead")
    }

    @Test func objectDescriptionShowsCurrentValues() throws {
        let realm = try memoryRealm()
        let toy = DogToy()
        toy.name = "Ball"
        #expect(toy.description == "DogToy { name = Ball; squeaky = true; color = nil }")
        try realm.write { realm.add(toy) }
        try realm.write { toy.color = "red" }
        #expect(toy.description == "DogToy { name = Ball; squeaky = true; color = red }")
        let dog = Dog()
        dog.extra = .object(dog)
        #expect(dog.description.contains("extra = object(Dog(unmanaged))"))
        // Unmanaged objects linking to each other are plain Swift reference cycles, as in Realm:
        // break it, so that `make sanitize` reports only real leaks.
        dog.extra = .none
    }

    @Test func linkingAnUnmanagedCopyOfAnExistingObjectIsADuplicate() throws {
        let realm = try memoryRealm()
        let ada = Person()
        let dog = Dog()
        try realm.write {
            realm.add([ada]); realm.add(dog)
        }
        let copy = Person(value: ada)
        let error = expectPorterError(.duplicatePrimaryKey) { try realm.write { dog.owner = copy } }
        #expect(error?.location == "Person._id")
        #expect(copy.realm == nil && dog.owner == nil)
        try realm.write { dog.owner = ada }
        #expect(dog.owner == ada)
    }
}
