import Foundation
import Testing
@testable import Porter
import PorterTestSupport

// Models that break a rule, one rule each.

final class NonOptionalLink: Object {
    @Persisted var owner: Person
}

final class KeyedAddress: EmbeddedObject {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var street = ""
}

final class TwoKeys: Object {
    @Persisted(primaryKey: true) var code: Int
    @Persisted(primaryKey: true) var name: String
}

final class Unsupported: Object {
    @Persisted var tags: List<String>?
    @Persisted var nested: Int??
    @Persisted var anything: AnyRealmValue?
    @Persisted var backlinks: LinkingObjects<Dog>
}

final class EngineRules: Object {
    @Persisted(primaryKey: true) var weight: Double
    @Persisted(indexed: true) var ratio: Float
    @Persisted var places: MutableSet<Address>
    @Persisted var toys: Map<String, DogToy>
}

@Suite struct ModelErrorTests {
    @Test func nonOptionalToOneLink() {
        let errors = schemaErrors([
            NonOptionalLink.self, Person.self, Dog.self, DogToy.self, Address.self, Country.self,
        ])
        #expect(errors == ["NonOptionalLink.owner: a to-one link must be optional: declare it as 'Person?'"])
    }

    @Test func primaryKeyOnAnEmbeddedObject() {
        #expect(schemaErrors([KeyedAddress.self]) == ["KeyedAddress.id: embedded objects cannot have a primary key"])
    }

    @Test func twoPrimaryKeys() {
        #expect(
            schemaErrors([TwoKeys.self]) == [
                "TwoKeys.name: the class already has the primary key 'code'; only one property can be the primary key"
            ])
    }

    @Test func unsupportedTypes() {
        #expect(
            schemaErrors([Unsupported.self, Dog.self, Person.self, DogToy.self, Address.self, Country.self]) == [
                "Unsupported.tags: type 'Optional<List<String>>' is not supported: lists, sets and maps cannot be optional (declare the collection itself non-optional)",
                "Unsupported.nested: type 'Optional<Optional<Int>>' is not supported: a double optional has no stored form",
                "Unsupported.anything: type 'Optional<AnyRealmValue>' is not supported: AnyRealmValue cannot be optional (it holds .none for null)",
                "Unsupported.backlinks: LinkingObjects must name the property that links here: @Persisted(originProperty: \"…\")",
            ])
    }

    @Test func engineRulesNameTheSwiftClassAndProperty() {
        #expect(
            schemaErrors([EngineRules.self, DogToy.self, Address.self, Country.self]) == [
                "EngineRules.weight: property of type 'double' cannot be made the primary key",
                "EngineRules.ratio: property of type 'float' cannot be indexed",
                "EngineRules.places: property of type 'set<Address>' cannot hold embedded objects",
                "EngineRules.toys: property of type 'map<DogToy>' must be optional",
            ])
    }

    @Test func linkToAClassMissingFromObjectTypes() {
        #expect(schemaErrors([ToyDog.self]) == ["ToyDog.favoriteToy: unknown object type 'DogToy'"])
    }

    @Test func realmRefusesAnInvalidModel() {
        let error = expectPorterError(.invalidSchema) {
            _ = try Realm(configuration: .init(inMemoryIdentifier: "bad-\(UUID())", objectTypes: [TwoKeys.self]))
        }
        #expect(error?.details.count == 1)
    }

    @Test func addingOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try await Realm(
                configuration: .init(inMemoryIdentifier: "exit-add", schemaVersion: 3, objectTypes: fixtureTypes))
            realm.add(Dog())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains("Dog: cannot add an object outside a write transaction; call it inside realm.write { }"))
    }

    @Test func deletingOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try await Realm(
                configuration: .init(inMemoryIdentifier: "exit-delete", schemaVersion: 3, objectTypes: fixtureTypes))
            try realm.write { realm.add(Dog()) }
            realm.delete(realm.objects(Dog.self)[0])
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains("Dog: cannot delete an object outside a write transaction; call it inside realm.write { }"))
    }

    @Test func settingAManagedPropertyOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try await Realm(
                configuration: .init(inMemoryIdentifier: "exit", schemaVersion: 3, objectTypes: fixtureTypes))
            let dog = Dog()
            try realm.write { try realm.add(dog) }
            dog.name = "Outside"
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains(
                "Dog.name: cannot modify a managed object outside a write transaction; make the change inside realm.write { }"
            ))
    }

    @Test func changingAManagedListOutsideAWriteTransactionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try await Realm(
                configuration: .init(inMemoryIdentifier: "exit", schemaVersion: 3, objectTypes: fixtureTypes))
            let dog = Dog()
            try realm.write { try realm.add(dog) }
            dog.tags.insert("outside")
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Dog.tags: cannot modify a managed object outside a write transaction"))
    }

    @Test func assigningLinkingObjectsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let person = Person()
            person.walkers = Person().walkers
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Person.walkers: LinkingObjects properties are read-only"))
    }

    @Test func changingThePrimaryKeyOfAManagedObject() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        dog.name = "Rex"
        let original = dog._id
        try realm.write { realm.add(dog) }
        let error = expectPorterError(.constraintViolation) {
            try realm.write {
                dog.name = "Renamed"
                dog._id = ObjectId.generate()
                dog.breed = "skipped after the failure"
            }
        }
        #expect(error?.location == "Dog._id")
        #expect(error?.message.hasPrefix("primary key cannot be changed after creation") == true)
        #expect(dog._id == original && dog.name == "Rex" && dog.breed == nil, "the whole transaction is rolled back")
        #expect(realm.pendingWriteError == nil)
        try realm.write { dog._id = original }
    }

    @Test func aFailedChangeIsThrownByCommitWrite() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        try realm.write { realm.add(dog) }
        realm.beginWrite()
        dog.name = String(repeating: "x", count: Database.maxBinarySize + 1)
        #expect(realm.pendingWriteError?.location == "Dog.name")
        let error = expectPorterError(.constraintViolation) { try realm.commitWrite() }
        #expect(error?.message == "string of 16777217 bytes exceeds the 16 MB limit")
        #expect(!realm.isInWriteTransaction && dog.name == "")
    }

    @Test func migrationNeededAndVersionRules() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("thing.realm")
        do { _ = try Realm(configuration: .init(fileURL: url, schemaVersion: 1, objectTypes: [ThingV1.self])) }
        let needed = expectPorterError(.migrationRequired) {
            _ = try Realm(configuration: .init(fileURL: url, schemaVersion: 2, objectTypes: [ThingV2.self]))
        }
        #expect(needed?.details == ["Property 'Thing.weight' has been added."])
        let older = expectPorterError(.migrationRequired) {
            _ = try Realm(configuration: .init(fileURL: url, schemaVersion: 0, objectTypes: [ThingV1.self]))
        }
        #expect(older?.message == "Provided schema version 0 is less than last set version 1.")
        let fresh = try Realm(
            configuration: .init(
                fileURL: url, schemaVersion: 2, deleteRealmIfMigrationNeeded: true,
                objectTypes: [ThingV2.self]))
        #expect(fresh.schema["Thing"]?.property(named: "weight") != nil && fresh.schema.version == 2)
    }

    @Test func aModelMayUseASubsetOfTheFilesClasses() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("subset.realm")
        do {
            let realm = try fileRealm(url)
            try realm.write { realm.add(DogToy()) }
        }
        let subset = try Realm(configuration: .init(fileURL: url, schemaVersion: 3, objectTypes: [DogToy.self]))
        #expect(subset.objects(DogToy.self).count == 1)
        #expect(subset.schema["AllTypes"] != nil, "classes the model does not list stay in the file")
    }
}
