import Foundation
import RealmSwift
import Testing
import PorterTestSupport

// Frozen realms as Realm's documentation uses them ("Freeze Data", "Threading"): immutable
// snapshots whose objects and collections keep the values they had when frozen (issue 22).

@Suite struct FrozenRealmTests {
    @Test func aFrozenRealmIsASnapshot() throws {
        let realm = try testRealm()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 3])) }
        let frozenRealm = realm.freeze()
        #expect(frozenRealm.isFrozen && !realm.isFrozen)
        #expect(frozenRealm.freeze() === frozenRealm)
        let frozenDogs = frozenRealm.objects(Dog.self)
        let frozenRex = try #require(frozenDogs.first)
        #expect(frozenDogs.isFrozen && frozenRex.isFrozen && frozenRex.realm?.isFrozen == true)
        try realm.write {
            realm.objects(Dog.self).first?.age = 4
            realm.add(Dog(value: ["name": "Max"]))
        }
        #expect(frozenRex.age == 3 && frozenDogs.count == 1)
        #expect(frozenRealm.objects(Dog.self).count == 1 && realm.objects(Dog.self).count == 2)
        #expect(frozenRealm.refresh() == false)
        let live = frozenRealm.thaw()
        #expect(!live.isFrozen && live.objects(Dog.self).count == 2)
        let thawedRex = try #require(frozenRex.thaw())
        #expect(thawedRex.age == 4 && !thawedRex.isFrozen)
        #expect(frozenDogs.thaw().count == 2)
        #expect(frozenRealm != realm)
    }

    @Test func writingToAFrozenRealmThrowsRealmsMessage() throws {
        let realm = try testRealm()
        let frozenRealm = realm.freeze()
        #expect {
            try frozenRealm.write { frozenRealm.add(Dog()) }
        } throws: { error in
            "\(error)".contains("Can't perform transactions on a frozen Realm")
        }
        #expect(realm.objects(Dog.self).isEmpty)
    }

    @Test func aFrozenFileRealmKeepsItsVersionWhileTheFileChanges() throws {
        let tmp = try TemporaryFolder("frozen")
        let dir = tmp.url
        let config = Realm.Configuration(
            fileURL: dir.appendingPathComponent("default.realm"), objectTypes: [Dog.self, Person.self, Address.self])
        let realm = try Realm(configuration: config)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        let frozen = realm.freeze()
        let frozenRex = try #require(frozen.objects(Dog.self).first)
        for age in 2...5 {
            try realm.write {
                realm.objects(Dog.self).first?.age = age
                realm.add(Dog(value: ["name": "Dog \(age)"]))
            }
        }
        #expect(frozenRex.age == 1 && frozen.objects(Dog.self).count == 1)
        #expect(frozen.objects(Dog.self).filter("age > 0").count == 1)
        #expect(realm.objects(Dog.self).count == 5)
    }

    @Test func collectionsAndObjectsFreezeThroughTheRealm() throws {
        let realm = try testRealm()
        let person = Person(value: [
            "name": "Ali", "dogs": [["name": "Rex"]], "tags": ["a"], "favoriteParksByCity": ["x": "y"],
        ])
        try realm.write { realm.add(person) }
        let dogs = person.dogs.freeze()
        let tags = person.tags.freeze()
        let parks = person.favoriteParksByCity.freeze()
        let owners = person.dogs[0].owners.freeze()
        #expect(dogs.isFrozen && tags.isFrozen && parks.isFrozen && owners.isFrozen && !person.dogs.isFrozen)
        let frozenPerson = realm.freeze(person)
        let frozenResults = realm.freeze(realm.objects(Person.self))
        try realm.write {
            person.dogs.append(Dog(value: ["name": "Max"]))
            person.tags.insert("b")
            person.favoriteParksByCity["z"] = "w"
            person.name = "Bea"
        }
        #expect(dogs.count == 1 && tags.count == 1 && parks.count == 1 && owners.count == 1)
        #expect(frozenPerson.isFrozen && frozenPerson.name == "Ali" && frozenPerson.dogs.count == 1)
        #expect(frozenResults.isFrozen && frozenResults.first?.name == "Ali")
        #expect(dogs.thaw()?.count == 2 && tags.thaw()?.count == 2 && parks.thaw()?.count == 2)
        let thawed = try #require(realm.thaw(frozenPerson))
        #expect(thawed.name == "Bea")
        try realm.write { realm.delete(person) }
        #expect(frozenPerson.thaw() == nil && frozenPerson.name == "Ali")
    }
}
