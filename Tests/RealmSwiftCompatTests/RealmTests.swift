import Foundation
import Testing
import PorterTestSupport
import RealmSwift

@Suite struct RealmTests {
    @Test func writesAddsDeletesAsRealmDocumentsThem() throws {
        let realm = try testRealm()
        let dog = Dog()
        dog.name = "Rex"
        dog.age = 10
        let count = try realm.write { () -> Int in
            realm.add(dog)
            return realm.objects(Dog.self).count
        }
        #expect(count == 1)
        try realm.write { realm.create(Person.self, value: ["name": "Jane", "age": 31, "dogs": [dog]]) }
        #expect(realm.objects(Person.self).first?.dogs.first?.name == "Rex")
    }

    @Test func createAddUpdateAndDelete() throws {
        let realm = try testRealm()
        try realm.write {
            let jane = realm.create(Person.self, value: ["name": "Jane", "age": 31])
            jane.dogs.append(objectsIn: [Dog(value: ["name": "Fido"]), Dog(value: ["name": "Spot"])])
        }
        let jane = try #require(realm.objects(Person.self).first)
        #expect(jane.dogs.map(\.name) == ["Fido", "Spot"])
        let update = Person(value: ["_id": jane._id, "name": "Jane Doe", "age": 32])
        try realm.write { realm.add(update, update: .modified) }
        // `.modified` writes every property of the object given, so its empty list replaces Jane's.
        #expect(jane.name == "Jane Doe" && jane.age == 32 && jane.dogs.isEmpty)
        try realm.write { jane.dogs.append(objectsIn: realm.objects(Dog.self)) }
        try realm.write { realm.create(Person.self, value: ["_id": jane._id, "age": 40], update: .modified) }
        #expect(jane.name == "Jane Doe" && jane.age == 40)
        #expect(throws: (any Error).self) {
            try realm.write { realm.add(Person(value: ["_id": jane._id]), update: .error) }
        }
        try realm.write { realm.delete(jane.dogs) }
        #expect(realm.objects(Dog.self).isEmpty && jane.dogs.isEmpty)
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
    }

    @Test func explicitTransactions() throws {
        let realm = try testRealm()
        realm.beginWrite()
        #expect(realm.isInWriteTransaction)
        realm.add(Dog(value: ["name": "Rex"]))
        realm.cancelWrite()
        #expect(!realm.isInWriteTransaction && realm.objects(Dog.self).isEmpty)
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Rex"]))
        try realm.commitWrite()
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func defaultConfigurationFileURLAndCopies() throws {
        let tmp = try TemporaryFolder("compat")
        let dir = tmp.url
        let url = dir.appendingPathComponent("default.realm")
        DefaultConfigurationTurn.begin()
        var config = Realm.Configuration.defaultConfiguration
        config.fileURL = url
        let saved = Realm.Configuration.defaultConfiguration
        Realm.Configuration.defaultConfiguration = config
        defer {
            Realm.Configuration.defaultConfiguration = saved
            DefaultConfigurationTurn.end()
        }
        // No objectTypes: classes join the schema as they are used, as Realm finds them itself.
        let realm = try Realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "owner": ["name": "Ali"]])) }
        #expect(realm.objects(Dog.self).first?.owner?.name == "Ali")
        let copyURL = dir.appendingPathComponent("copy.realm")
        try realm.writeCopy(toFile: copyURL)
        let copy = try Realm(fileURL: copyURL)
        #expect(copy.objects(Dog.self).count == 1)
        #expect(throws: (any Error).self) {
            try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: Data(count: 64)))
        }
        #expect(
            try Realm.deleteFiles(for: Realm.Configuration(fileURL: dir.appendingPathComponent("none.realm"))) == false)
        let readOnly = try Realm(
            configuration: Realm.Configuration(
                fileURL: copyURL, readOnly: true, objectTypes: [Dog.self, Person.self, Address.self]))
        #expect(readOnly.objects(Dog.self).first?.name == "Rex")
        let scratch = dir.appendingPathComponent("scratch.realm")
        do {
            _ = try Realm(
                configuration: Realm.Configuration(
                    fileURL: scratch, objectTypes: [Dog.self, Person.self, Address.self]))
        }
        #expect(try Realm.deleteFiles(for: Realm.Configuration(fileURL: scratch)) == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test func realmsOfOneFileOnOneThreadActAsOne() throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "one-\(UUID())", objectTypes: [Dog.self, Person.self, Address.self])
        func fetchRex() throws -> Dog? {
            let realm = try Realm(configuration: config)
            return realm.objects(Dog.self).where { $0.name == "Rex" }.first
        }
        // An in-memory realm lives while one of its realms does, as in Realm.
        let realm = try Realm(configuration: config)
        try Realm(configuration: config).write { try Realm(configuration: config).add(Dog(value: ["name": "Rex"])) }
        let rex = try #require(try fetchRex())
        try realm.write {
            rex.age = 7  // managed through another Realm() of the same file
            realm.delete(realm.objects(Dog.self).filter("name != 'Rex'"))
        }
        #expect(try fetchRex()?.age == 7 && rex.realm != nil)
        try realm.write { realm.delete(rex) }
        #expect(rex.isInvalidated)
    }

    @Test func configurationInRealmOrder() throws {
        let config = Realm.Configuration(
            fileURL: nil, inMemoryIdentifier: "order-\(UUID())", encryptionKey: nil, readOnly: false,
            schemaVersion: 2, migrationBlock: { _, _ in }, deleteRealmIfMigrationNeeded: false,
            objectTypes: [Dog.self, Person.self, Address.self])
        let realm = try Realm(configuration: config)
        #expect(realm.schema.version == 2)
        realm.invalidate()
        #expect(realm.refresh() == false)
    }
}

@Suite struct CollectionTests {
    @Test func listOperations() throws {
        let realm = try testRealm()
        let person = Person()
        try realm.write { realm.add(person) }
        let names = ["a", "b", "c", "d"].map { Dog(value: ["name": $0]) }
        try realm.write {
            person.dogs.append(objectsIn: names)
            person.dogs.insert(Dog(value: ["name": "z"]), at: 0)
            person.dogs.remove(at: 1)
            person.dogs.move(from: 0, to: 3)
            person.dogs.swapAt(0, 1)
            person.dogs.replace(index: 0, object: Dog(value: ["name": "y"]))
        }
        #expect(person.dogs.map(\.name) == ["y", "b", "d", "z"])
        #expect(person.dogs.index(of: person.dogs[2]) == 2)
        #expect(person.dogs.index(matching: { $0.name == "z" }) == 3)
        #expect(person.dogs.index(matching: "name == %@", "d") == 2)
        #expect(person.dogs.where { $0.name.starts(with: "y") }.count == 1)
        try realm.write { person.dogs.removeAll() }
        #expect(person.dogs.isEmpty)
    }

    @Test func mutableSetOperations() throws {
        let realm = try testRealm()
        let person = Person()
        try realm.write {
            realm.add(person)
            person.tags.insert(objectsIn: ["a", "b", "c"])
            person.tags.insert("a")
            person.tags.remove("b")
        }
        #expect(Set(person.tags) == ["a", "c"] && person.tags.contains("a") && !person.tags.contains("b"))
        let other = MutableSet<String>()
        other.insert(objectsIn: ["c", "d"])
        #expect(person.tags.intersects(other) && !person.tags.isSubset(of: other))
        try realm.write {
            person.tags.formUnion(other)
            person.tags.formIntersection(["a", "d"])
            person.tags.subtract(["a"])
        }
        #expect(Array(person.tags) == ["d"])
        try realm.write { person.tags.removeAll() }
        #expect(person.tags.isEmpty)
    }

    @Test func mapOperations() throws {
        let realm = try testRealm()
        let person = Person()
        try realm.write {
            realm.add(person)
            person.favoriteParksByCity["New York"] = "Central Park"
            person.favoriteParksByCity.setValue("Bayshore Park", forKey: "Staten Island")
            person.favoriteParksByCity["Boston"] = "Common"
            person.favoriteParksByCity.removeObject(for: "Boston")
        }
        #expect(person.favoriteParksByCity.keys == ["New York", "Staten Island"])
        #expect(person.favoriteParksByCity.values == ["Central Park", "Bayshore Park"])
        #expect(person.favoriteParksByCity["New York"] == "Central Park")
        #expect(person.favoriteParksByCity.asKeyValueSequence().map(\.key) == ["New York", "Staten Island"])
        for (city, park) in person.favoriteParksByCity { #expect(!city.isEmpty && !park.isEmpty) }
    }
}

@Suite struct ThreadTests {
    @Test func threadSafeReferencesResolveOnAnotherThread() throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "threads-\(UUID())", objectTypes: [Dog.self, Person.self, Address.self])
        let realm = try Realm(configuration: config)
        let dog = Dog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add([dog, Dog(value: ["name": "Max", "age": 9])]) }
        let dogReference = ThreadSafeReference(to: dog)
        let oldDogs = ThreadSafeReference(to: realm.objects(Dog.self).filter("age > 5"))
        let shared = Box(config)
        let result = Box(NSMutableArray())
        let done = DispatchSemaphore(value: 0)
        Thread {
            if let other = try? Realm(configuration: shared.value) {
                result.value.add(other.resolve(dogReference)?.name ?? "missing")
                result.value.add(other.resolve(oldDogs)?.map(\.name).joined() ?? "missing")
            }
            done.signal()
        }.start()
        done.wait()
        #expect(result.value as? [String] == ["Rex", "Max"])
        try realm.write { realm.objects(Dog.self).setValue(1, forKey: "age") }
        #expect(realm.objects(Dog.self).map(\.age) == [1, 1])
    }
}
