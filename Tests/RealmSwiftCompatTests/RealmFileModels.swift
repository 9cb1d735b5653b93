import Foundation
import RealmSwift

// The classes of Fixtures/realm/every-type.realm (realm-core 14.14, file format 24) as Realm Swift
// models, written as an app with that file would write them; `RealmFileTests` opens the file with them.

class Emb: EmbeddedObject {
    @Persisted var label: String
    @Persisted var inner: Inner?
    @Persisted var inners: List<Inner>
    @Persisted var innerMap: Map<String, Inner?>
}

class Every: Object {
    @Persisted(primaryKey: true) var _id: Int
    @Persisted var bool: Bool
    @Persisted var boolOpt: Bool?
    @Persisted var int: Int
    @Persisted var intOpt: Int?
    @Persisted var float: Float
    @Persisted var floatOpt: Float?
    @Persisted var double: Double
    @Persisted var doubleOpt: Double?
    @Persisted var decimal128: Decimal128
    @Persisted var decimal128Opt: Decimal128?
    @Persisted var objectId: ObjectId
    @Persisted var objectIdOpt: ObjectId?
    @Persisted var uuid: UUID
    @Persisted var uuidOpt: UUID?
    @Persisted var string: String
    @Persisted var stringOpt: String?
    @Persisted var data: Data
    @Persisted var dataOpt: Data?
    @Persisted var date: Date
    @Persisted var dateOpt: Date?
    @Persisted var mixed: AnyRealmValue
    @Persisted(indexed: true) var indexedString: String
    @Persisted var boolList: List<Bool>
    @Persisted var boolOptList: List<Bool?>
    @Persisted var boolSet: MutableSet<Bool>
    @Persisted var boolOptSet: MutableSet<Bool?>
    @Persisted var boolMap: Map<String, Bool>
    @Persisted var boolOptMap: Map<String, Bool?>
    @Persisted var intList: List<Int>
    @Persisted var intOptList: List<Int?>
    @Persisted var intSet: MutableSet<Int>
    @Persisted var intOptSet: MutableSet<Int?>
    @Persisted var intMap: Map<String, Int>
    @Persisted var intOptMap: Map<String, Int?>
    @Persisted var floatList: List<Float>
    @Persisted var floatOptList: List<Float?>
    @Persisted var floatSet: MutableSet<Float>
    @Persisted var floatOptSet: MutableSet<Float?>
    @Persisted var floatMap: Map<String, Float>
    @Persisted var floatOptMap: Map<String, Float?>
    @Persisted var doubleList: List<Double>
    @Persisted var doubleOptList: List<Double?>
    @Persisted var doubleSet: MutableSet<Double>
    @Persisted var doubleOptSet: MutableSet<Double?>
    @Persisted var doubleMap: Map<String, Double>
    @Persisted var doubleOptMap: Map<String, Double?>
    @Persisted var decimal128List: List<Decimal128>
    @Persisted var decimal128OptList: List<Decimal128?>
    @Persisted var decimal128Set: MutableSet<Decimal128>
    @Persisted var decimal128OptSet: MutableSet<Decimal128?>
    @Persisted var decimal128Map: Map<String, Decimal128>
    @Persisted var decimal128OptMap: Map<String, Decimal128?>
    @Persisted var objectIdList: List<ObjectId>
    @Persisted var objectIdOptList: List<ObjectId?>
    @Persisted var objectIdSet: MutableSet<ObjectId>
    @Persisted var objectIdOptSet: MutableSet<ObjectId?>
    @Persisted var objectIdMap: Map<String, ObjectId>
    @Persisted var objectIdOptMap: Map<String, ObjectId?>
    @Persisted var uuidList: List<UUID>
    @Persisted var uuidOptList: List<UUID?>
    @Persisted var uuidSet: MutableSet<UUID>
    @Persisted var uuidOptSet: MutableSet<UUID?>
    @Persisted var uuidMap: Map<String, UUID>
    @Persisted var uuidOptMap: Map<String, UUID?>
    @Persisted var stringList: List<String>
    @Persisted var stringOptList: List<String?>
    @Persisted var stringSet: MutableSet<String>
    @Persisted var stringOptSet: MutableSet<String?>
    @Persisted var stringMap: Map<String, String>
    @Persisted var stringOptMap: Map<String, String?>
    @Persisted var dataList: List<Data>
    @Persisted var dataOptList: List<Data?>
    @Persisted var dataSet: MutableSet<Data>
    @Persisted var dataOptSet: MutableSet<Data?>
    @Persisted var dataMap: Map<String, Data>
    @Persisted var dataOptMap: Map<String, Data?>
    @Persisted var dateList: List<Date>
    @Persisted var dateOptList: List<Date?>
    @Persisted var dateSet: MutableSet<Date>
    @Persisted var dateOptSet: MutableSet<Date?>
    @Persisted var dateMap: Map<String, Date>
    @Persisted var dateOptMap: Map<String, Date?>
    @Persisted var mixedList: List<AnyRealmValue>
    @Persisted var mixedSet: MutableSet<AnyRealmValue>
    @Persisted var mixedMap: Map<String, AnyRealmValue>
    @Persisted var target: Target?
    @Persisted var targets: List<Target>
    @Persisted var targetSet: MutableSet<Target>
    @Persisted var targetMap: Map<String, Target?>
    @Persisted var plain: NoPk?
    @Persisted var plains: List<NoPk>
    @Persisted var emb: Emb?
    @Persisted var embList: List<Emb>
    @Persisted var embMap: Map<String, Emb?>
}

class Inner: EmbeddedObject {
    @Persisted var v: Int?
    @Persisted var s: String?
}

class NoPk: Object {
    @Persisted var n: Int
    @Persisted var label: String?
}

class Target: Object {
    @Persisted(primaryKey: true) var name: String
    @Persisted var n: Int?
    @Persisted(originProperty: "target") var pointedFrom: LinkingObjects<Every>
}
