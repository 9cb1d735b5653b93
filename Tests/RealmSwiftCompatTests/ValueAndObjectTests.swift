import Foundation
import Testing
import RealmSwift

@Suite struct ValueTests {
    @Test func objectIdSpellings() throws {
        let id = try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e1f")
        #expect(id.stringValue == "5f1b2c3d4e5f6a7b8c9d0e1f")
        #expect(id.timestamp == Date(timeIntervalSince1970: 0x5f1b2c3d))
        let made = ObjectId(timestamp: Date(timeIntervalSince1970: 1_000), machineId: 0x123456, processId: 0x789)
        #expect(made.timestamp == Date(timeIntervalSince1970: 1_000))
        #expect(made.stringValue.hasPrefix("000003e8" + "123456" + "0789"))
        #expect(ObjectId.generate() != ObjectId.generate())
        #expect(throws: (any Error).self) { try ObjectId(string: "nope") }
    }

    @Test func decimal128Spellings() throws {
        let a = try Decimal128(string: "1.5")
        let b = Decimal128(value: 2)
        let c = Decimal128(number: 0.25 as NSNumber)
        #expect((a + b).stringValue == "3.5")
        #expect((b - a).stringValue == "0.5")
        #expect((a * b).stringValue == "3")  // results are normalized (Realm keeps "3.0")
        #expect((b / Decimal128(value: "4")).stringValue == "0.5")
        #expect(c.stringValue == "0.25")
        #expect(a < b && b > c && !(a > b))
        let literal: Decimal128 = 10
        #expect(literal == Decimal128(value: 10))
        #expect(Decimal128(value: "not a number").isNaN)
    }

    @Test func anyRealmValueAccessors() throws {
        let realm = try testRealm()
        let dog = Dog()
        dog.name = "Rex"
        let money = Money()
        money.mixed = .object(dog)
        try realm.write { realm.add(money) }
        let stored = try #require(realm.objects(Money.self).first)
        #expect(stored.mixed.objectValue(Dog.self)?.name == "Rex")
        #expect(stored.mixed.dynamicObject?["name"] as? String == "Rex")
        #expect(AnyRealmValue.int(3).intValue == 3 && AnyRealmValue.string("a").stringValue == "a")
        #expect(AnyRealmValue.float(1.5).floatValue == 1.5 && AnyRealmValue.decimal128(1).decimal128Value == 1)
        #expect(AnyRealmValue.int(3).stringValue == nil)
    }

    @Test func customPersistableUsesPersistableValue() throws {
        let realm = try testRealm()
        let landmark = Landmark()
        landmark.name = "Eiffel Tower"
        landmark.location = CLLocationCoordinate2D(latitude: 48.8584, longitude: 2.2945)
        try realm.write { realm.add(landmark) }
        let stored = try #require(realm.objects(Landmark.self).first)
        #expect(stored.location == CLLocationCoordinate2D(latitude: 48.8584, longitude: 2.2945))
    }
}

@Suite struct ObjectTests {
    @Test func objectValueInitializers() throws {
        let dog = Dog(value: ["name": "Rex", "age": 3])
        #expect(dog.name == "Rex" && dog.age == 3)
        let person = Person(value: ["name": "Ali", "dogs": [["name": "Fido", "age": 2]], "address": ["city": "Oslo"]])
        #expect(person.dogs.count == 1 && person.dogs[0].name == "Fido" && person.address?.city == "Oslo")
        let location = Location(value: [1.5, 2.5])
        #expect(location.latitude == 1.5 && location.longitude == 2.5)
        let copy = Dog(value: dog)
        #expect(copy.name == "Rex" && copy !== dog)
    }

    @Test func keyValueAccessAndIntrospection() throws {
        let realm = try testRealm()
        let dog = Dog()
        dog["name"] = "Rex"
        dog.setValue(4, forKey: "age")
        #expect(dog.value(forKey: "name") as? String == "Rex" && dog["age"] as? Int == 4)
        #expect(dog.realm == nil && !dog.isInvalidated)
        #expect(dog.objectSchema.className == "Dog")
        try realm.write { realm.add(dog) }
        #expect(dog.realm != nil)
        #expect(dog.objectSchema.primaryKeyProperty?.name == "_id")
        #expect(dog.objectSchema["owner"]?.objectClassName == "Person")
        #expect(realm.schema["Person"]?.properties.first { $0.name == "dogs" }?.isArray == true)
        #expect(realm.schema.objectSchema.contains { $0.className == "Task" })
        let again = try #require(realm.object(ofType: Dog.self, forPrimaryKey: dog._id))
        #expect(again.isSameObject(as: dog))
        try realm.write {
            dog.setValue(5, forKey: "age")
            realm.delete(dog)
        }
        #expect(dog.isInvalidated && again.isInvalidated)
    }

    @Test func freezeAndThaw() throws {
        let realm = try testRealm()
        let dog = Dog(value: ["name": "Rex", "age": 3, "owner": ["name": "Ali"]])
        try realm.write { realm.add(dog) }
        let frozen = dog.freeze()
        #expect(frozen.isFrozen && !dog.isFrozen)
        let frozenDogs = realm.objects(Dog.self).freeze()
        try realm.write {
            dog.age = 4
            dog.owner?.name = "Bea"
            realm.add(Dog(value: ["name": "Max"]))
        }
        #expect(frozen.age == 3 && frozen.owner?.name == "Ali")
        #expect(frozenDogs.isFrozen && frozenDogs.count == 1 && frozenDogs[0].age == 3)
        #expect(realm.objects(Dog.self).count == 2)
        let thawed = try #require(frozen.thaw())
        #expect(thawed.age == 4 && !thawed.isFrozen)
        #expect(frozenDogs.thaw().count == 2)
        try realm.write { realm.delete(dog) }
        #expect(frozen.thaw() == nil && frozen.name == "Rex")
    }

    @Test func legacyPrimaryKeyAndIndexHooks() throws {
        let realm = try testRealm()
        #expect(realm.schema["LegacyKeyed"]?.primaryKey == "code")
        #expect(realm.schema["LegacyKeyed"]?["title"]?.isIndexed == true)
        try realm.write { realm.create(LegacyKeyed.self, value: ["code": "A", "title": "first"]) }
        try realm.write { realm.create(LegacyKeyed.self, value: ["code": "A", "title": "second"], update: .modified) }
        #expect(realm.objects(LegacyKeyed.self).count == 1)
        #expect(realm.object(ofType: LegacyKeyed.self, forPrimaryKey: "A")?.title == "second")
        #expect(realm.schema["LegacyKeyed"]?["scratch"] == nil)
        // URL is a FailableCustomPersistable stored as its string.
        let keyed = try #require(realm.object(ofType: LegacyKeyed.self, forPrimaryKey: "A"))
        try realm.write { keyed.website = URL(string: "https://realm.io/docs") }
        #expect(keyed.website?.host == "realm.io")
        #expect(realm.schema["LegacyKeyed"]?["website"]?.type == .string)
    }
}
