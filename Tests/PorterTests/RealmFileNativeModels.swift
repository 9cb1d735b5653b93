import Foundation
@testable import Porter

// Typed models of the Realm files in Fixtures/realm/written (their `*.oracle.json` schemas), for
// RealmFileNativeTests. Class names carry an `RF` prefix; `_realmObjectName` gives the file's.

final class RFItem: Object {
    override class func _realmObjectName() -> String? { "Item" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var n: Int?
    @Persisted var b: Bool
    @Persisted var bn: Bool?
    @Persisted var f: Float
    @Persisted var fn: Float?
    @Persisted var d: Double
    @Persisted var dn: Double?
    @Persisted var s: String?
    @Persisted var bin: Data
    @Persisted var binn: Data?
    @Persisted var t: Date
    @Persisted var tn: Date?
    @Persisted var dec: Decimal128
    @Persisted var decn: Decimal128?
    @Persisted var o: ObjectId
    @Persisted var on: ObjectId?
    @Persisted var u: UUID
    @Persisted var un: UUID?
}

final class RFDec: Object {
    override class func _realmObjectName() -> String? { "Dec" }
    @Persisted var d0: Decimal128
    @Persisted var d4: Decimal128
    @Persisted var d8: Decimal128
    @Persisted var d16: Decimal128
    @Persisted var n0: Decimal128?
    @Persisted var n4: Decimal128?
    @Persisted var n8: Decimal128?
    @Persisted var n16: Decimal128?
    @Persisted var sp: Decimal128?
}

final class RFPlain: Object {
    override class func _realmObjectName() -> String? { "Plain" }
    @Persisted var n: Int
    @Persisted var s: String?
    @Persisted(indexed: true) var v: Int?
    @Persisted(indexed: true) var w: String
}

final class RFEmpty: Object {
    override class func _realmObjectName() -> String? { "Empty" }
    @Persisted var x: Int
    @Persisted var s: String
    @Persisted var l: List<Int>
    @Persisted var d: Decimal128
    @Persisted var o: ObjectId?
    @Persisted var t: Date
}

final class RFX: Object {
    override class func _realmObjectName() -> String? { "X" }
    @Persisted(indexed: true) var m: AnyRealmValue
    @Persisted var n: Int
}

final class RFD: Object {
    override class func _realmObjectName() -> String? { "D" }
    @Persisted var n: Int
    @Persisted var owner: RFP?
    @Persisted var ps: MutableSet<RFP>
    @Persisted var pm: Map<String, RFP?>
    @Persisted var pl: List<RFP>
}

final class RFE: EmbeddedObject {
    override class func _realmObjectName() -> String? { "E" }
    @Persisted var x: Int
    @Persisted var inner: RFF?
    @Persisted var back: RFP?
}

final class RFF: EmbeddedObject {
    override class func _realmObjectName() -> String? { "F" }
    @Persisted var y: String
}

final class RFP: Object {
    override class func _realmObjectName() -> String? { "P" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var dog: RFD?
    @Persisted var dogs: List<RFD>
    @Persisted var tags: MutableSet<String>
    @Persisted var m: Map<String, Int?>
    @Persisted var e: RFE?
    @Persisted var el: List<RFE>
    @Persisted var ints: List<Int>
    @Persisted var em: Map<String, RFE?>
    @Persisted var `self`: RFP?
    @Persisted var peers: MutableSet<RFP>
    @Persisted(originProperty: "owner") var owners: LinkingObjects<RFD>
}

final class RFBig: Object {
    override class func _realmObjectName() -> String? { "Big" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var s: String
}

final class RFHub: Object {
    override class func _realmObjectName() -> String? { "Hub" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted(originProperty: "hub") var spokes: LinkingObjects<RFSpoke>
}

final class RFSeq: Object {
    override class func _realmObjectName() -> String? { "Seq" }
    @Persisted var v: Int
}

final class RFSparse: Object {
    override class func _realmObjectName() -> String? { "Sparse" }
    @Persisted var v: Int
    @Persisted var t: String
}

final class RFSpoke: Object {
    override class func _realmObjectName() -> String? { "Spoke" }
    @Persisted var hub: RFHub?
    @Persisted(indexed: true) var tag: String
    @Persisted var hubs: List<RFHub>
}

final class RFA: Object {
    override class func _realmObjectName() -> String? { "A" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted var m: AnyRealmValue
    @Persisted var ml: List<AnyRealmValue>
    @Persisted var md: Map<String, AnyRealmValue>
    @Persisted var ms: MutableSet<AnyRealmValue>
    @Persisted var e: RFEm?
}

final class RFB: Object {
    override class func _realmObjectName() -> String? { "B" }
    @Persisted var x: Int
}

final class RFMixedC: Object {
    override class func _realmObjectName() -> String? { "C" }
    @Persisted(primaryKey: true) var id: String
    @Persisted var back: AnyRealmValue
}

final class RFEm: EmbeddedObject {
    override class func _realmObjectName() -> String? { "Em" }
    @Persisted var mm: AnyRealmValue
}

final class RFK: Object {
    override class func _realmObjectName() -> String? { "K" }
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var n: Int
}

final class RFS: Object {
    override class func _realmObjectName() -> String? { "S" }
    @Persisted(primaryKey: true) var id: String
    @Persisted(indexed: true) var v: Int
    @Persisted(indexed: true) var b: Bool
    @Persisted(indexed: true) var o: ObjectId?
    @Persisted(indexed: true) var u: UUID
    @Persisted(indexed: true) var t: Date?
}

final class RFU: Object {
    override class func _realmObjectName() -> String? { "U" }
    @Persisted(primaryKey: true) var _id: UUID?
    @Persisted var n: Int
}

final class RFT: Object {
    override class func _realmObjectName() -> String? { "T" }
    @Persisted(primaryKey: true) var id: String
    @Persisted var s: String?
    @Persisted var b: Data?
    @Persisted(indexed: true) var ls: List<String?>
    @Persisted var mb: Map<String, Data>
}

/// The class of `collections.realm`: a list, set and map of every element type.
final class RFCollections: Object {
    override class func _realmObjectName() -> String? { "C" }
    @Persisted var l_bool: List<Bool>
    @Persisted var s_bool: MutableSet<Bool>
    @Persisted var m_bool: Map<String, Bool>
    @Persisted var l_bool_opt: List<Bool?>
    @Persisted var s_bool_opt: MutableSet<Bool?>
    @Persisted var m_bool_opt: Map<String, Bool?>
    @Persisted var l_int: List<Int>
    @Persisted var s_int: MutableSet<Int>
    @Persisted var m_int: Map<String, Int>
    @Persisted var l_int_opt: List<Int?>
    @Persisted var s_int_opt: MutableSet<Int?>
    @Persisted var m_int_opt: Map<String, Int?>
    @Persisted var l_float: List<Float>
    @Persisted var s_float: MutableSet<Float>
    @Persisted var m_float: Map<String, Float>
    @Persisted var l_float_opt: List<Float?>
    @Persisted var s_float_opt: MutableSet<Float?>
    @Persisted var m_float_opt: Map<String, Float?>
    @Persisted var l_double: List<Double>
    @Persisted var s_double: MutableSet<Double>
    @Persisted var m_double: Map<String, Double>
    @Persisted var l_double_opt: List<Double?>
    @Persisted var s_double_opt: MutableSet<Double?>
    @Persisted var m_double_opt: Map<String, Double?>
    @Persisted var l_string: List<String>
    @Persisted var s_string: MutableSet<String>
    @Persisted var m_string: Map<String, String>
    @Persisted var l_string_opt: List<String?>
    @Persisted var s_string_opt: MutableSet<String?>
    @Persisted var m_string_opt: Map<String, String?>
    @Persisted var l_data: List<Data>
    @Persisted var s_data: MutableSet<Data>
    @Persisted var m_data: Map<String, Data>
    @Persisted var l_data_opt: List<Data?>
    @Persisted var s_data_opt: MutableSet<Data?>
    @Persisted var m_data_opt: Map<String, Data?>
    @Persisted var l_date: List<Date>
    @Persisted var s_date: MutableSet<Date>
    @Persisted var m_date: Map<String, Date>
    @Persisted var l_date_opt: List<Date?>
    @Persisted var s_date_opt: MutableSet<Date?>
    @Persisted var m_date_opt: Map<String, Date?>
    @Persisted var l_decimal128: List<Decimal128>
    @Persisted var s_decimal128: MutableSet<Decimal128>
    @Persisted var m_decimal128: Map<String, Decimal128>
    @Persisted var l_decimal128_opt: List<Decimal128?>
    @Persisted var s_decimal128_opt: MutableSet<Decimal128?>
    @Persisted var m_decimal128_opt: Map<String, Decimal128?>
    @Persisted var l_objectId: List<ObjectId>
    @Persisted var s_objectId: MutableSet<ObjectId>
    @Persisted var m_objectId: Map<String, ObjectId>
    @Persisted var l_objectId_opt: List<ObjectId?>
    @Persisted var s_objectId_opt: MutableSet<ObjectId?>
    @Persisted var m_objectId_opt: Map<String, ObjectId?>
    @Persisted var l_uuid: List<UUID>
    @Persisted var s_uuid: MutableSet<UUID>
    @Persisted var m_uuid: Map<String, UUID>
    @Persisted var l_uuid_opt: List<UUID?>
    @Persisted var s_uuid_opt: MutableSet<UUID?>
    @Persisted var m_uuid_opt: Map<String, UUID?>
    @Persisted var l_mixed: List<AnyRealmValue>
    @Persisted var s_mixed: MutableSet<AnyRealmValue>
    @Persisted var m_mixed: Map<String, AnyRealmValue>
    @Persisted var x: AnyRealmValue
    @Persisted var big: List<Int>
    @Persisted var bigs: MutableSet<String>
}
