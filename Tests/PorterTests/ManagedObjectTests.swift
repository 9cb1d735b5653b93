import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// Read-through and write-through of managed objects, live collections, transactions.
@Suite struct ManagedObjectTests {
    @Test func setInsideAWriteIsStoredAndReadsSeeTheCurrentValue() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        dog.name = "Rex"
        try realm.write { realm.add(dog) }
        let key = try #require(try realm.database.key("Dog", primaryKey: .objectId(dog._id)))
        try realm.write { dog.name = "Max" }
        #expect(try realm.database.value("Dog", key, "name") == .string("Max"))
        try realm.write { try realm.database.set("Dog", key, "name", .string("Buddy")) }
        #expect(dog.name == "Buddy", "a read always sees the stored value")
        let other = realm.objects(Dog.self)[0]
        try realm.write { other.breed = "Pug" }
        #expect(dog.breed == "Pug", "two instances of one object share its data")
        #expect(dog == other && dog !== other)
    }

    @Test func liveListSetAndMap() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        try realm.write { realm.add(dog) }
        let ball = DogToy()
        ball.name = "Ball"
        try realm.write {
            dog.favoriteToys.append(ball)
            let rope = DogToy()
            rope.name = "Rope"
            dog.favoriteToys.insert(rope, at: 0)
            dog.favoriteToys.append(ball)
            dog.tags.insert("a")
            dog.tags.insert("b")
            dog.tags.insert("a")
            dog.ratings["vet"] = 5
            dog.ratings.updateValue(nil, forKey: "walker")
        }
        #expect(ball.realm === realm, "an unmanaged object appended to a managed list is added")
        #expect(dog.favoriteToys.map(\.name) == ["Rope", "Ball", "Ball"])
        #expect(dog.tags.count == 2 && dog.tags.contains("a") && !dog.tags.contains("z"))
        #expect(dog.ratings.keys == ["vet", "walker"])
        #expect(dog.ratings["walker"] == .some(nil) && dog.ratings["nobody"] == nil)
        try realm.write {
            dog.favoriteToys.swapAt(0, 2)
            dog.favoriteToys[1].name = "Big Ball"
            dog.tags.remove("a")
            dog.ratings["vet"] = nil
        }
        #expect(dog.favoriteToys.map(\.name) == ["Big Ball", "Big Ball", "Rope"])
        #expect(Array(dog.tags) == ["b"])
        #expect(dog.ratings.keys == ["walker"])
        try realm.write {
            dog.favoriteToys[0] = ball
            dog.favoriteToys.removeLast()
        }
        #expect(dog.favoriteToys.count == 2)
        #expect(realm.objects(DogToy.self).count == 2, "removing a link keeps the object")
    }

    @Test func assigningACollectionReplacesIt() throws {
        let realm = try memoryRealm()
        let all = AllTypes()
        try realm.write { realm.add(all) }
        try realm.write {
            all.intList = [7, 8]
            all.intSet = [1, 1, 2]
            all.intMap = ["x": 1]
        }
        #expect(Array(all.intList) == [7, 8] && Set(all.intSet) == [1, 2] && all.intMap.dictionary == ["x": 1])
    }

    @Test func unmanagedEmbeddedObjectsBecomeManagedWhenAssigned() throws {
        let realm = try memoryRealm()
        let person = Person()
        try realm.write { realm.add(person) }
        let home = Address()
        home.street = "1 Main"
        let country = Country()
        country.code = "NO"
        home.country = country
        try realm.write { person.previousAddresses.append(home) }
        #expect(home.realm === realm && country.realm === realm)
        try realm.write { home.city = "Oslo" }
        #expect(person.previousAddresses[0].city == "Oslo")
        let error = expectPorterError(.invalidValue) { try realm.write { person.address = home } }
        #expect(error?.message.contains("already belongs to a parent") == true)
        try realm.write { person.address = Address(value: home) }
        #expect(person.address?.country?.code == "NO")
        #expect(try realm.database.count("Address") == 2)
    }

    @Test func addingAGraphWithACycleAddsEachObjectOnce() throws {
        let realm = try memoryRealm()
        let ada = Person()
        let rex = Dog()
        rex.owner = ada
        ada.dogs.append(rex)
        rex.extra = .object(ada)
        try realm.write { realm.add(rex) }
        #expect(realm.objects(Person.self).count == 1 && realm.objects(Dog.self).count == 1)
        #expect(ada.dogs.first == rex && rex.owner == ada)
        try realm.write { realm.add(ada) }
        #expect(realm.objects(Person.self).count == 1, "adding a managed object again does nothing")
    }

    @Test func objectsAddedInACycleDoNotKeepEachOtherOrTheRealmAlive() throws {
        weak var weakRealm: Realm?
        weak var weakPerson: Person?
        weak var weakDog: Dog?
        try {
            let realm = try memoryRealm()
            let ada = Person()
            let rex = Dog()
            rex.owner = ada
            ada.dogs.append(rex)
            try realm.write { realm.add(rex) }
            // Managed objects read their links from the database, as Realm's do.
            #expect(ada.dogs.first == rex && rex.owner == ada)
            (weakRealm, weakPerson, weakDog) = (realm, ada, rex)
        }()
        #expect(
            weakPerson == nil && weakDog == nil && weakRealm == nil,
            "a cycle of added objects kept itself and its realm alive")
    }

    @Test func addWithUpdateModifiedUpdatesLinkedObjectsByPrimaryKey() throws {
        let realm = try memoryRealm()
        let original = Person()
        original.name = "Ada"
        try realm.write { realm.add(original) }
        let edited = Person()
        edited._id = original._id
        edited.name = "Ada Lovelace"
        edited.age = 36
        try realm.write { realm.add(edited, update: .modified) }
        #expect(original.name == "Ada Lovelace" && original.age == 36)
        #expect(realm.objects(Person.self).count == 1)
        let error = expectPorterError(.usage) { try realm.write { realm.add(DogToy(), update: .all) } }
        #expect(error?.message == "'DogToy' has no primary key, so it cannot be added with update: .all")
    }

    @Test func cancelledWriteLeavesAddedObjectsUnmanaged() throws {
        let realm = try memoryRealm()
        let dog = Dog()
        dog.name = "Ghost"
        realm.beginWrite()
        realm.add(dog)
        #expect(dog.realm != nil)
        realm.cancelWrite()
        #expect(dog.realm == nil && dog.name == "Ghost")
        #expect(realm.objects(Dog.self).isEmpty)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try realm.write {
                try realm.add(dog)
                throw Stop()
            }
        }
        #expect(dog.realm == nil && realm.objects(Dog.self).isEmpty)
    }

    @Test func detachedCopyIsIndependentOfTheDatabase() throws {
        var copy: Person?
        do {
            let realm = try memoryRealm()
            let ada = Person()
            ada.name = "Ada"
            let rex = Dog()
            rex.name = "Rex"
            rex.owner = ada
            rex.tags.insert("good")
            let home = Address()
            home.city = "London"
            ada.address = home
            ada.dogs.append(rex)
            try realm.write { realm.add(ada) }
            copy = Person(value: realm.objects(Person.self)[0])
            let managedRex = realm.objects(Dog.self)[0]
            let rexCopy = Dog(value: managedRex)
            #expect(rexCopy.realm == nil && rexCopy.name == "Rex" && rexCopy._id == managedRex._id)
            rexCopy.name = "Changed"
            #expect(managedRex.name == "Rex", "changing the copy leaves the stored object alone")
            rexCopy.owner = nil
        }
        let person = try #require(copy)
        #expect(person.realm == nil && person.name == "Ada" && person.address?.city == "London")
        #expect(person.address?.realm == nil)
        let dog = try #require(person.dogs.first)
        #expect(dog.realm == nil && Array(dog.tags) == ["good"])
        #expect(dog.owner === person, "links inside the copied graph point at the copies")
        #expect(person.walkers.isEmpty)
        person.name = "Changed outside a write"
        #expect(person.name == "Changed outside a write")
        // The copied graph is a plain Swift reference cycle (person ⇄ dog), as Realm's unmanaged
        // copies are: break it, so that `make sanitize` reports only real leaks.
        dog.owner = nil
    }

    @Test func inMemoryRealmsShareDataByIdentifier() throws {
        let id = "shared-\(UUID().uuidString)"
        let first = try Realm(configuration: .init(inMemoryIdentifier: id, objectTypes: [DogToy.self]))
        let second = try Realm(configuration: .init(inMemoryIdentifier: id, objectTypes: [DogToy.self]))
        let other = try Realm(configuration: .init(inMemoryIdentifier: id + "-other", objectTypes: [DogToy.self]))
        try first.write { first.add(DogToy()) }
        #expect(second.objects(DogToy.self).count == 1)
        #expect(other.objects(DogToy.self).isEmpty)
        #expect(first.configuration.fileURL == nil)
    }

    @Test func outOfRangeValuesAreReportedOnRead() throws {
        let realm = try memoryRealm([MoreTypes.self])
        let more = MoreTypes()
        try realm.write { realm.add(more) }
        try realm.write {
            try realm.database.update(
                "MoreTypes", ObjectKey(1),
                [
                    "int8": .int(300), "int16Opt": .int(-40_000),
                    "status": .string("lost"), "homepage": .string("http://[invalid"),
                ])
        }
        #expect(more.int8 == 0)
        #expect(realm.lastReadError?.location == "MoreTypes.int8")
        #expect(realm.lastReadError?.message == "stored value 300 is out of range for Int8 (-128...127)")
        #expect(more.int16Opt == nil)
        #expect(realm.lastReadError?.message == "stored value -40000 is out of range for Int16 (-32768...32767)")
        #expect(more.status == .active)
        #expect(realm.lastReadError?.message == "stored value lost is not a case of DogStatus")
        #expect(more.homepage == nil)
        #expect(
            realm.lastReadError
                == PorterError(
                    .invalidValue, "stored value http://[invalid cannot be converted to URL",
                    location: "MoreTypes.homepage"))
        realm.clearReadError()
        try realm.write {
            more.int32 = .max; more.int64 = .min
        }
        #expect(more.int32 == .max && more.int64 == .min && realm.lastReadError == nil)
    }

    @Test func subclassesAreStoredAsTheirOwnClass() throws {
        let realm = try memoryRealm([Animal.self, Cat.self, DogToy.self])
        let cat = Cat()
        cat.name = "Tom"
        cat.legs = 3
        let animal = Animal()
        animal.name = "Generic"
        try realm.write { realm.add([animal, cat]) }
        #expect(realm.objects(Animal.self).map(\.name) == ["Generic"])
        #expect(realm.objects(Cat.self).map(\.name) == ["Tom"])
        #expect(realm.objects(Cat.self)[0].legs == 3 && realm.objects(Cat.self)[0].indoor)
    }
}
