import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// Every cheat-sheet type, required and optional: write, close, reopen, read back equal.
@Suite struct RoundTripTests {
    static let id = try! ObjectId(string: "65a1b2c3d4e5f60718293a4b")
    static let uuid = UUID(uuidString: "8f2e1d3c-4b5a-4678-9abc-def012345678")!
    static let when = Date(timeIntervalSince1970: 1_700_000_000.5)
    static let decimal = try! Decimal128(string: "-12345.6789")

    /// Fills every property of `AllTypes` with a value other than its default.
    static func filled(toy: DogToy) -> AllTypes {
        let all = AllTypes()
        all.bool = true; all.boolOpt = false
        all.int = -7; all.intOpt = Int.max
        all.float = 3.25; all.floatOpt = -0.5
        all.double = .pi; all.doubleOpt = -1e300
        all.decimal = decimal; all.decimalOpt = Decimal128(42)
        all.objectId = id; all.objectIdOpt = id
        all.uuid = uuid; all.uuidOpt = uuid
        all.string = "héllo ✓"; all.stringOpt = ""
        all.data = Data([1, 2, 3]); all.dataOpt = Data()
        all.date = when; all.dateOpt = Date(timeIntervalSince1970: -86_400)
        all.mixed = .string("mixed")
        all.link = toy
        let home = Address(); home.street = "1 Main"; home.city = "Oslo"
        all.embedded = home
        all.intList.append(objectsIn: [3, 1, 2])
        all.intOptList.append(objectsIn: [nil, 5])
        all.stringList.append(objectsIn: ["b", "a"])
        all.mixedList.append(objectsIn: [.int(1), .none, .bool(true), .double(2.5), .object(toy)])
        all.linkList.append(objectsIn: [toy, toy])
        let first = Address(); first.street = "A"; first.city = "X"
        let second = Address(); second.street = "B"; second.city = "Y"
        all.embeddedList.append(objectsIn: [first, second])
        all.intSet.formUnion([5, 6, 5])
        all.stringOptSet.formUnion([nil, "x"])
        all.uuidSet.insert(uuid)
        all.mixedSet.formUnion([.int(1), .string("1")])
        all.linkSet.insert(toy)
        all.intMap["one"] = 1
        all.stringOptMap.updateValue(nil, forKey: "none")
        all.stringOptMap["some"] = "thing"
        all.mixedMap["date"] = .date(when)
        all.linkMap["toy"] = toy
        all.linkMap.updateValue(nil, forKey: "nothing")
        let branch = Address(); branch.street = "Dock 4"; branch.city = "Bergen"
        all.embeddedMap["branch"] = branch
        all.boolDefault = false
        all.intDefault = 1
        all.mixedDefault = .none
        all.listDefault.removeAll()
        return all
    }

    @Test func allTypesRoundTripThroughAFile() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("all.realm")
        do {
            let realm = try fileRealm(url)
            let toy = DogToy()
            toy.name = "Ball"
            try realm.write {
                realm.add(Self.filled(toy: toy))
                realm.add(AllTypes())
            }
        }
        let realm = try fileRealm(url)
        let objects = realm.objects(AllTypes.self)
        #expect(objects.count == 2)
        let all = objects[0]
        #expect(all.bool == true && all.boolOpt == false)
        #expect(all.int == -7 && all.intOpt == Int.max)
        #expect(all.float == 3.25 && all.floatOpt == -0.5)
        #expect(all.double == .pi && all.doubleOpt == -1e300)
        #expect(all.decimal == Self.decimal && all.decimalOpt == Decimal128(42))
        #expect(all.objectId == Self.id && all.objectIdOpt == Self.id)
        #expect(all.uuid == Self.uuid && all.uuidOpt == Self.uuid)
        #expect(all.string == "héllo ✓" && all.stringOpt == "")
        #expect(all.data == Data([1, 2, 3]) && all.dataOpt == Data())
        #expect(all.date == Self.when && all.dateOpt == Date(timeIntervalSince1970: -86_400))
        #expect(all.mixed == .string("mixed"))
        #expect(all.link?.name == "Ball")
        #expect(all.embedded?.street == "1 Main" && all.embedded?.city == "Oslo" && all.embedded?.country == nil)
        #expect(Array(all.intList) == [3, 1, 2])
        #expect(Array(all.intOptList) == [nil, 5])
        #expect(Array(all.stringList) == ["b", "a"])
        let mixed = Array(all.mixedList)
        #expect(mixed.count == 5)
        #expect(Array(mixed.prefix(4)) == [.int(1), .none, .bool(true), .double(2.5)])
        #expect(mixed[4].objectValue(DogToy.self)?.name == "Ball")
        #expect(all.linkList.map(\.name) == ["Ball", "Ball"])
        #expect(all.linkList[0] == all.linkList[1])
        #expect(all.embeddedList.map(\.street) == ["A", "B"])
        #expect(Set(all.intSet) == [5, 6])
        #expect(Set(all.stringOptSet) == [nil, "x"])
        #expect(Array(all.uuidSet) == [Self.uuid])
        #expect(Set(all.mixedSet) == [.int(1), .string("1")])
        #expect(all.linkSet.map(\.name) == ["Ball"])
        #expect(all.intMap.dictionary == ["one": 1])
        let expectedStrings: [String: String?] = ["none": nil, "some": "thing"]
        #expect(all.stringOptMap.dictionary == expectedStrings)
        #expect(all.mixedMap["date"] == .date(Self.when))
        #expect(all.linkMap.keys == ["nothing", "toy"])
        #expect(all.linkMap["toy"]??.name == "Ball")
        #expect(all.embeddedMap["branch"]??.city == "Bergen")
        #expect(all.boolDefault == false && all.intDefault == 1 && all.mixedDefault == .none)
        #expect(all.listDefault.isEmpty)

        let plain = objects[1]
        #expect(plain.boolOpt == nil && plain.intOpt == nil && plain.floatOpt == nil && plain.doubleOpt == nil)
        #expect(plain.decimalOpt == nil && plain.objectIdOpt == nil && plain.uuidOpt == nil && plain.stringOpt == nil)
        #expect(
            plain.dataOpt == nil && plain.dateOpt == nil && plain.mixed == .none && plain.link == nil
                && plain.embedded == nil)
        #expect(plain.intList.isEmpty && plain.intSet.isEmpty && plain.intMap.isEmpty)
        #expect(
            plain.boolDefault == true && plain.intDefault == -42 && plain.floatDefault == 1.5
                && plain.doubleDefault == 2.25e10)
        #expect(plain.decimalDefault == (try Decimal128(string: "123.4500")))
        #expect(plain.stringDefault == "hello \"world\"" && plain.dataDefault == Data([0, 1, 2, 255]))
        #expect(Timestamp(plain.dateDefault) == Timestamp(microseconds: 1_000_000_000_015_625))
        #expect(plain.optionalDefault == nil && plain.mixedDefault == .string("anything"))
        #expect(Array(plain.listDefault) == [1, 2, 3] && Set(plain.setDefault) == ["a", "b"])
        let expectedDoubles: [String: Double?] = ["a": 1, "b": nil]
        #expect(plain.mapDefault.dictionary == expectedDoubles)
        #expect(realm.lastReadError == nil)
    }

    @Test func integerWidthsEnumsAndProjectionsRoundTrip() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("more.realm")
        let types: [ObjectBase.Type] = [MoreTypes.self]
        do {
            let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
            let more = MoreTypes()
            more.int8 = .min; more.int8Opt = .max
            more.int16 = .min; more.int16Opt = .max
            more.int32 = .min; more.int32Opt = .max
            more.int64 = .min; more.int64Opt = .max
            more.status = .active; more.statusOpt = .retired
            more.priority = .high
            more.priorities.append(objectsIn: [.low, .high])
            more.homepage = URL(string: "https://example.com/a?b=c")
            more.links.append(URL(string: "file:///tmp/x")!)
            more.exact = Timestamp(microseconds: -62_135_596_800_000_001)
            more.celsius = Celsius(degrees: -40)
            try realm.write { realm.add(more) }
            try realm.write { realm.add(MoreTypes()) }
        }
        let realm = try Realm(configuration: .init(fileURL: url, objectTypes: types))
        let more = try #require(realm.objects(MoreTypes.self).first)
        #expect(more.int8 == .min && more.int8Opt == .max && more.int16 == .min && more.int16Opt == .max)
        #expect(more.int32 == .min && more.int32Opt == .max && more.int64 == .min && more.int64Opt == .max)
        #expect(more.status == .active && more.statusOpt == .retired && more.priority == .high)
        #expect(Array(more.priorities) == [.low, .high])
        #expect(more.homepage == URL(string: "https://example.com/a?b=c"))
        #expect(more.site == URL(string: "https://realm.io"))
        #expect(Array(more.links) == [URL(string: "file:///tmp/x")!])
        #expect(more.exact == Timestamp(microseconds: -62_135_596_800_000_001))
        #expect(more.celsius.degrees == -40)
        #expect(try realm.database.value("MoreTypes", ObjectKey(1), "homepage") == .string("https://example.com/a?b=c"))
        #expect(try realm.database.value("MoreTypes", ObjectKey(1), "priority") == .int(10))

        let fresh = realm.objects(MoreTypes.self)[1]
        #expect(fresh.int8Opt == nil && fresh.statusOpt == nil && fresh.homepage == nil)
        #expect(fresh.status == .retired && fresh.priority == .low && fresh.site == URL(string: "https://realm.io"))
        #expect(realm.schema["MoreTypes"]?.property(named: "status")?.defaultValue == .string("retired"))
        #expect(realm.schema["MoreTypes"]?.property(named: "priority") == Property(name: "priority", type: .int))
        #expect(realm.lastReadError == nil)
    }

    @Test func relationshipsRoundTripThroughAFile() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("docs.realm")
        let personID = UUID()
        do {
            let realm = try fileRealm(url)
            let ada = Person()
            ada._id = personID
            ada.name = "Ada"
            ada.age = 36
            let rex = Dog()
            rex.name = "Rex"
            rex.owner = ada
            rex.tags.insert("good")
            rex.ratings["vet"] = 5
            rex.extra = .object(ada)
            let ball = DogToy()
            ball.name = "Ball"
            rex.favoriteToys.append(ball)
            ada.dogs.append(rex)
            let work = Address()
            work.street = "Office 1"
            work.city = "London"
            let country = Country()
            country.code = "GB"
            work.country = country
            ada.addressBook["work"] = work
            try realm.write { realm.add(ada) }
            #expect(rex.realm != nil && ball.realm != nil && work.realm != nil && country.realm != nil)
        }
        let realm = try fileRealm(url)
        let ada = try #require(realm.object(ofType: Person.self, forPrimaryKey: personID))
        #expect(ada.name == "Ada" && ada.age == 36)
        let rex = try #require(ada.dogs.first)
        #expect(rex.name == "Rex" && rex.owner == ada && rex.extra.objectValue(Person.self) == ada)
        #expect(Array(rex.tags) == ["good"] && rex.ratings["vet"] == .some(5))
        #expect(rex.favoriteToys.map(\.name) == ["Ball"])
        #expect(ada.walkers.map(\.name) == ["Rex"])
        #expect(ada.addressBook["work"]??.country?.code == "GB")
        #expect(try realm.database.count("Country") == 1)
    }
}
