import Foundation
import Testing

@testable import Porter

/// How a `FlatAddEveryType` property is stored: every flat scalar type, declared without an
/// initial value, with one, and optional (nil by default, or with a non-nil initial value).
enum FlatAddMood: String, PersistableEnum {
    case calm, busy
}

/// A flat class (no links, collections or mixed values) with every scalar type Realm stores, so
/// adding it takes the flat add plan after the first object.
final class FlatAddEveryType: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var bool: Bool
    @Persisted var int: Int
    @Persisted var int8: Int8
    @Persisted var int16: Int16
    @Persisted var int32: Int32
    @Persisted var int64: Int64
    @Persisted var float: Float
    @Persisted var double: Double
    @Persisted var string: String
    @Persisted var data: Data
    @Persisted var date: Date
    @Persisted var decimal: Decimal128
    @Persisted var uuid: UUID
    @Persisted var objectId: ObjectId
    @Persisted var mood: FlatAddMood
    @Persisted var initialInt = 7
    @Persisted var initialString = "seven"
    @Persisted var initialDate = Date(timeIntervalSince1970: 7)
    @Persisted var initialMood = FlatAddMood.busy
    @Persisted var optInt: Int?
    @Persisted var optString: String?
    @Persisted var optDouble: Double?
    @Persisted var optDate: Date?
    @Persisted var optData: Data?
    @Persisted var optObjectId: ObjectId?
    @Persisted var optUUID: UUID?
    @Persisted var optMood: FlatAddMood?
    @Persisted var optWithInitial: String? = "initial"
    @Persisted var optIntWithInitial: Int? = 3
}

/// Adding an object reads every unmanaged value out of its `@Persisted` storage (through a typed
/// path, not a cast per value): each property type, set or not, must come back as it was, through
/// the general path (the class's first object) and the flat add plan (the objects after it).
@Suite struct FlatAddRoundTripTests {
    static let uuid = UUID(uuidString: "8f2e1d3c-4b5a-4678-9abc-def012345678")!
    static let objectId = try! ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e0f")

    /// An object with every property set to a value that is not its default, varied by `i`.
    private func full(_ i: Int) -> FlatAddEveryType {
        let o = FlatAddEveryType()
        o.bool = true
        o.int = 1_000 + i
        o.int8 = -8
        o.int16 = -16_000
        o.int32 = 32_000_000
        o.int64 = -64_000_000_000
        o.float = 2.5
        o.double = Double(i) + 0.25
        o.string = "string \(i) ✓"
        o.data = Data([0, 1, 2, UInt8(i % 256)])
        o.date = Date(timeIntervalSince1970: 1_600_000_000 + Double(i))
        o.decimal = try! Decimal128(string: "-12345.6789")
        o.uuid = Self.uuid
        o.objectId = Self.objectId
        o.mood = .busy
        o.initialInt = -i
        o.initialString = ""
        o.initialDate = Date(timeIntervalSince1970: 0)
        o.initialMood = .calm
        o.optInt = i
        o.optString = "opt \(i)"
        o.optDouble = -0.5
        o.optDate = Date(timeIntervalSince1970: 86_400)
        o.optData = Data()
        o.optObjectId = Self.objectId
        o.optUUID = Self.uuid
        o.optMood = .calm
        o.optWithInitial = nil  // nil set over a non-nil initial value: stays nil
        o.optIntWithInitial = 9
        return o
    }

    private func expectFull(_ o: FlatAddEveryType, _ i: Int) {
        #expect(o.bool && o.int == 1_000 + i && o.int8 == -8 && o.int16 == -16_000)
        #expect(o.int32 == 32_000_000 && o.int64 == -64_000_000_000)
        #expect(o.float == 2.5 && o.double == Double(i) + 0.25)
        #expect(o.string == "string \(i) ✓" && o.data == Data([0, 1, 2, UInt8(i % 256)]))
        #expect(o.date == Date(timeIntervalSince1970: 1_600_000_000 + Double(i)))
        #expect(o.decimal == (try! Decimal128(string: "-12345.6789")))
        #expect(o.uuid == Self.uuid && o.objectId == Self.objectId && o.mood == .busy)
        #expect(o.initialInt == -i && o.initialString == "" && o.initialDate == Date(timeIntervalSince1970: 0))
        #expect(o.initialMood == .calm)
        #expect(o.optInt == i && o.optString == "opt \(i)" && o.optDouble == -0.5)
        #expect(o.optDate == Date(timeIntervalSince1970: 86_400) && o.optData == Data())
        #expect(o.optObjectId == Self.objectId && o.optUUID == Self.uuid && o.optMood == .calm)
        #expect(o.optWithInitial == nil && o.optIntWithInitial == 9)
    }

    /// Every property left alone: declared initial values, else the type's default (nil for optionals).
    private func expectDefaults(_ o: FlatAddEveryType) {
        #expect(!o.bool && o.int == 0 && o.int8 == 0 && o.int16 == 0 && o.int32 == 0 && o.int64 == 0)
        #expect(o.float == 0 && o.double == 0 && o.string == "" && o.data == Data())
        #expect(o.date == Date(timeIntervalSince1970: 0) && o.decimal == Decimal128(0))
        #expect(o.mood == .calm)
        #expect(o.initialInt == 7 && o.initialString == "seven" && o.initialDate == Date(timeIntervalSince1970: 7))
        #expect(o.initialMood == .busy)
        #expect(o.optInt == nil && o.optString == nil && o.optDouble == nil && o.optDate == nil && o.optData == nil)
        #expect(o.optObjectId == nil && o.optUUID == nil && o.optMood == nil)
        #expect(o.optWithInitial == "initial" && o.optIntWithInitial == 3)
    }

    @Test func setValuesRoundTripThroughTheGeneralPathAndThePlan() throws {
        let realm = try memoryRealm([FlatAddEveryType.self])
        let objects = (0..<5).map(full)
        try realm.write { for o in objects { realm.add(o) } }
        for (i, o) in objects.enumerated() {
            #expect(o.realm != nil)
            expectFull(o, i)
        }
        // Read back from the database, not from the added instances.
        let stored = realm.objects(FlatAddEveryType.self).sorted(byKeyPath: "int")
        #expect(stored.count == 5)
        for (i, o) in stored.enumerated() { expectFull(o, i) }
    }

    @Test func unsetValuesGetInitialValuesOrDefaults() throws {
        let realm = try memoryRealm([FlatAddEveryType.self])
        let objects = (0..<4).map { _ in FlatAddEveryType() }
        // Read before adding (an unmanaged object's own values) …
        expectDefaults(objects[0])
        let readId = objects[0]._id
        try realm.write { for o in objects { realm.add(o) } }
        // … and after: the generated primary key read before adding is the one stored.
        #expect(objects[0]._id == readId)
        #expect(Set(objects.map(\._id)).count == 4)
        for o in realm.objects(FlatAddEveryType.self) { expectDefaults(o) }
        for o in objects { expectDefaults(o) }
    }

    @Test func objectsSetAndUnsetAlternatelyKeepTheirOwnValues() throws {
        let realm = try memoryRealm([FlatAddEveryType.self])
        try realm.write {
            for i in 0..<6 { realm.add(i.isMultiple(of: 2) ? full(i) : FlatAddEveryType()) }
        }
        let stored = Array(realm.objects(FlatAddEveryType.self))
        #expect(stored.count == 6)
        for (i, o) in stored.enumerated() {
            if i.isMultiple(of: 2) { expectFull(o, i) } else { expectDefaults(o) }
        }
    }

    @Test func unmanagedObjectsKeepWorkingAndAddedOnesWriteThrough() throws {
        let realm = try memoryRealm([FlatAddEveryType.self])
        let kept = full(1)
        kept.optString = nil
        #expect(kept.optString == nil && kept.string == "string 1 ✓")
        kept.setValue("by key", forKey: "string")
        #expect(kept.value(forKey: "string") as? String == "by key")
        let added = full(2)
        try realm.write { realm.add(added) }
        // Sets on the managed object write to the database (named without a key path).
        try realm.write {
            added.string = "changed"
            added.optInt = nil
            added.optWithInitial = "back"
            added.setValue(Int8(5), forKey: "int8")
        }
        let stored = try #require(realm.objects(FlatAddEveryType.self).first)
        #expect(stored.string == "changed" && stored.optInt == nil && stored.optWithInitial == "back")
        #expect(stored.int8 == 5 && stored.value(forKey: "int8") as? Int8 == 5)
        #expect(kept.realm == nil && kept.string == "by key" && kept.int == 1_001)
    }

    @Test func anUnmanagedLinkHoldsTheSameInstance() {
        // The typed read of an unmanaged value held in the object, for a class-typed value.
        let owner = FlatAddLinkOwner()
        let target = FlatAddLinkTarget()
        owner.target = target
        #expect(owner.target === target)
        owner.target = nil
        #expect(owner.target == nil)
    }
}

/// An object linking to another, for unmanaged link reads.
final class FlatAddLinkOwner: Object {
    @Persisted var target: FlatAddLinkTarget?
}

final class FlatAddLinkTarget: Object {
    @Persisted var name = ""
}
