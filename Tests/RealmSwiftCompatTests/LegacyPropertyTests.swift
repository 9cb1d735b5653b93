import Foundation
import RealmSwift
import Testing
import PorterTestSupport

// Models declared as Realm's documentation declared them before `@Persisted`: `RealmProperty`,
// `RealmOptional` and `LinkingObjects(fromType:property:)` as `let` properties (issue 22).

class LegacyDog: Object {
    @Persisted var name = ""
    let age = RealmProperty<Int?>()
    let weight = RealmOptional<Double>()
    let owners = LinkingObjects(fromType: LegacyOwner.self, property: "dogs")
}

class LegacyOwner: Object {
    @Persisted var name = ""
    @Persisted var dogs: List<LegacyDog>
    let height = RealmProperty<Float?>()
    let isAdmin = RealmOptional<Bool>(false)
    let anything = RealmProperty<AnyRealmValue>()
}

/// Every optional `RealmPropertyType` and `RealmOptionalType`.
class LegacyEveryType: Object {
    let int = RealmProperty<Int?>()
    let int8 = RealmProperty<Int8?>()
    let int16 = RealmProperty<Int16?>()
    let int32 = RealmProperty<Int32?>()
    let int64 = RealmProperty<Int64?>()
    let float = RealmProperty<Float?>()
    let double = RealmProperty<Double?>()
    let bool = RealmProperty<Bool?>()
    let mixed = RealmProperty<AnyRealmValue>()
    let optInt = RealmOptional<Int>()
    let optInt8 = RealmOptional<Int8>()
    let optInt16 = RealmOptional<Int16>()
    let optInt32 = RealmOptional<Int32>()
    let optInt64 = RealmOptional<Int64>()
    let optFloat = RealmOptional<Float>()
    let optDouble = RealmOptional<Double>()
    let optBool = RealmOptional<Bool>()
}

/// The same model with `@Persisted`, for comparing schemas.
enum PersistedForm {
    class LegacyDog: Object {
        @Persisted var name = ""
        @Persisted var age: Int?
        @Persisted var weight: Double?
        @Persisted(originProperty: "dogs") var owners: LinkingObjects<LegacyOwner>
    }
}

enum LegacyV1 {
    class LegacyDog: Object {
        @Persisted var name = ""
        let age = RealmProperty<Int?>()
    }
}

enum LegacyV2 {
    class LegacyDog: Object {
        @Persisted var name = ""
        let yearsOld = RealmProperty<Int?>()
        let weight = RealmOptional<Double>()
    }
}

private func legacyRealm(_ name: String = #function) throws -> Realm {
    try Realm(
        configuration: Realm.Configuration(
            inMemoryIdentifier: "\(name)-\(UUID().uuidString)",
            objectTypes: [LegacyDog.self, LegacyOwner.self, LegacyEveryType.self]))
}

@Suite struct LegacyPropertyTests {
    @Test func theSchemaIsThatOfPersistedProperties() throws {
        let realm = try legacyRealm()
        let persisted = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "persisted-\(UUID().uuidString)",
                objectTypes: [PersistedForm.LegacyDog.self, LegacyOwner.self]))
        func shape(_ realm: Realm) throws -> [String] {
            let schema = try #require(realm.schema["LegacyDog"])
            return schema.properties.map { "\($0.name) \($0.type) \($0.isOptional) \($0.objectClassName ?? "")" }
        }
        #expect(try shape(realm) == shape(persisted))
        let age = try #require(realm.schema["LegacyDog"]?.properties.first { $0.name == "age" })
        #expect(age.type == .int && age.isOptional)
        let owner = try #require(realm.schema["LegacyOwner"])
        #expect(owner.properties.first { $0.name == "anything" }?.type == .any)
        // `RealmOptional(false)` is the property's default, as an initial value of `@Persisted` is.
        let created = try realm.write { realm.create(LegacyOwner.self, value: ["name": "Ada"]) }
        #expect(created.isAdmin.value == false && created.height.value == nil)
    }

    @Test func unmanagedObjectsHoldTheirValues() {
        let dog = LegacyDog()
        #expect(dog.age.value == nil && dog.weight.value == nil && dog.owners.isEmpty)
        dog.age.value = 3
        dog.weight.value = 12.5
        #expect(dog.age.value == 3 && dog.weight.value == 12.5)
        #expect(LegacyOwner().isAdmin.value == false)
        let made = LegacyDog(value: ["name": "Rex", "age": 5, "weight": 9.0])
        #expect(made.age.value == 5 && made.weight.value == 9.0)
    }

    @Test func valuesArePersistedReadAndWrittenThroughTheRealm() throws {
        let realm = try legacyRealm()
        let dog = LegacyDog()
        dog.name = "Rex"
        dog.age.value = 3
        try realm.write { realm.add(dog) }
        let read = try #require(realm.objects(LegacyDog.self).first)
        #expect(read.age.value == 3 && read.weight.value == nil)
        try realm.write {
            read.age.value = 4
            read.weight.value = 20
        }
        #expect(dog.age.value == 4 && dog.weight.value == 20)
        try realm.write { dog.age.value = nil }
        #expect(realm.objects(LegacyDog.self).first?.age.value == nil)
        #expect(realm.objects(LegacyDog.self).first?.value(forKey: "weight") as? Double == 20)
    }

    @Test func everyOptionalTypeRoundTrips() throws {
        let realm = try legacyRealm()
        let object = LegacyEveryType()
        object.int.value = 1
        object.int8.value = 2
        object.int16.value = 3
        object.int32.value = 4
        object.int64.value = 5
        object.float.value = 6.5
        object.double.value = 7.5
        object.bool.value = true
        object.mixed.value = .string("hello")
        object.optInt.value = 11
        object.optInt8.value = 12
        object.optInt16.value = 13
        object.optInt32.value = 14
        object.optInt64.value = 15
        object.optFloat.value = 16.5
        object.optDouble.value = 17.5
        object.optBool.value = false
        try realm.write { realm.add(object) }
        let read = try #require(realm.objects(LegacyEveryType.self).first)
        #expect(read.int.value == 1 && read.int8.value == 2 && read.int16.value == 3 && read.int32.value == 4)
        #expect(read.int64.value == 5 && read.float.value == 6.5 && read.double.value == 7.5 && read.bool.value == true)
        #expect(read.mixed.value == .string("hello"))
        #expect(read.optInt.value == 11 && read.optInt8.value == 12 && read.optInt16.value == 13)
        #expect(read.optInt32.value == 14 && read.optInt64.value == 15 && read.optFloat.value == 16.5)
        #expect(read.optDouble.value == 17.5 && read.optBool.value == false)
        let schema = try #require(realm.schema["LegacyEveryType"])
        let required = schema.properties.filter { $0.type != .any && !$0.isOptional }.map(\.name)
        #expect(required.isEmpty)
    }

    @Test func queriesSeeTheValues() throws {
        let realm = try legacyRealm()
        try realm.write {
            for (name, age) in [("a", 1), ("b", 5), ("c", 9)] {
                let dog = LegacyDog()
                dog.name = name
                dog.age.value = age
                realm.add(dog)
            }
            realm.add(LegacyDog(value: ["name": "d"]))
        }
        let dogs = realm.objects(LegacyDog.self)
        #expect(dogs.filter("age > 3").map(\.name) == ["b", "c"])
        #expect(dogs.filter("age == nil").map(\.name) == ["d"])
        #expect(dogs.sorted(byKeyPath: "age", ascending: false).first?.name == "c")
        #expect(dogs.max(ofProperty: "age") as Int? == 9)
    }

    @Test func linkingObjectsDeclaredWithLetAreLive() throws {
        let realm = try legacyRealm()
        let dog = LegacyDog()
        dog.name = "Rex"
        let owner = LegacyOwner()
        owner.name = "Ali"
        owner.dogs.append(dog)
        try realm.write { realm.add(owner) }
        #expect(dog.owners.count == 1 && dog.owners.first?.name == "Ali")
        let read = try #require(realm.objects(LegacyDog.self).first)
        #expect(read.owners.map(\.name) == ["Ali"])
        try realm.write { realm.add(LegacyOwner(value: ["name": "Bo", "dogs": [read]])) }
        #expect(read.owners.map(\.name).sorted() == ["Ali", "Bo"])
        #expect(realm.objects(LegacyDog.self).filter("ANY owners.name == 'Bo'").count == 1)
    }

    @Test func migrationsRenameAndAddLegacyProperties() throws {
        let tmp = try TemporaryFolder("legacy")
        let dir = tmp.url
        let url = dir.appendingPathComponent("dogs.realm")
        do {
            let v1 = try Realm(
                configuration: Realm.Configuration(
                    fileURL: url, schemaVersion: 1, objectTypes: [LegacyV1.LegacyDog.self]))
            let dog = LegacyV1.LegacyDog()
            dog.name = "Rex"
            dog.age.value = 7
            try v1.write { v1.add(dog) }
        }
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2,
            migrationBlock: { migration, oldSchemaVersion in
                if oldSchemaVersion < 2 {
                    migration.renameProperty(onType: "LegacyDog", from: "age", to: "yearsOld")
                    migration.enumerateObjects(ofType: "LegacyDog") { _, newObject in
                        newObject!["weight"] = 4.5
                    }
                }
            }, objectTypes: [LegacyV2.LegacyDog.self])
        let realm = try Realm(configuration: config)
        let dog = try #require(realm.objects(LegacyV2.LegacyDog.self).first)
        #expect(dog.name == "Rex" && dog.yearsOld.value == 7 && dog.weight.value == 4.5)
    }

    @Test func equalityAndCodingFollowTheValue() throws {
        let a = RealmProperty<Int?>()
        let b = RealmProperty<Int?>()
        a.value = 3
        #expect(a != b)
        b.value = 3
        #expect(a == b)
        let data = try JSONEncoder().encode(a)
        #expect(String(decoding: data, as: UTF8.self) == "3")
        #expect(try JSONDecoder().decode(RealmProperty<Int?>.self, from: Data("null".utf8)).value == nil)
        let optional = RealmOptional<Int>(5)
        #expect(optional == RealmOptional(5) && optional.description == "5")
        #expect(try JSONDecoder().decode(RealmOptional<Int>.self, from: Data("8".utf8)).value == 8)
    }

    @Test func frozenObjectsKeepTheirLegacyValues() throws {
        let realm = try legacyRealm()
        let dog = LegacyDog()
        dog.age.value = 2
        try realm.write { realm.add(dog) }
        let frozen = dog.freeze()
        try realm.write { dog.age.value = 3 }
        #expect(frozen.age.value == 2 && dog.age.value == 3)
    }
}
