import Foundation
import Porter

// Models from the Realm Swift docs that the fixture schema does not cover, plus the types of the
// cheat sheet that need their own class (integer widths, enums of other raw types, projections).

/// "Dog with a to-one favorite toy" (docs: Model Relationships, to-one).
final class ToyDog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var favoriteToy: DogToy?
}

/// "Contact with an embedded Address" (docs: embedded objects, cascading delete).
final class Contact: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var address: Address?
}

/// A business with several embedded addresses.
final class Business: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var addresses: List<Address>
    @Persisted var branches: Map<String, Address?>
}

/// An enum stored as an int.
enum Priority: Int, PersistableEnum {
    case low = 1, medium = 5, high = 10
}

/// The cheat-sheet types the fixture schema has no property for.
final class MoreTypes: Object {
    @Persisted var int8: Int8
    @Persisted var int8Opt: Int8?
    @Persisted var int16: Int16
    @Persisted var int16Opt: Int16?
    @Persisted var int32: Int32
    @Persisted var int32Opt: Int32?
    @Persisted var int64: Int64
    @Persisted var int64Opt: Int64?
    @Persisted var status = DogStatus.retired
    @Persisted var statusOpt: DogStatus?
    @Persisted var priority: Priority
    @Persisted var priorities: List<Priority>
    @Persisted var homepage: URL?
    @Persisted var site = URL(string: "https://realm.io")!
    @Persisted var links: List<URL>
    @Persisted var exact: Timestamp
    @Persisted var celsius: Celsius
}

/// A non-failable projection: a temperature stored as a double.
struct Celsius: CustomPersistable {
    var degrees: Double
    init(degrees: Double) { self.degrees = degrees }
    init(persistedValue: Double) { degrees = persistedValue }
    var persistableValue: Double { degrees }
}

/// Version 1 and 2 of one class "Thing": version 2 adds a required property (needs a migration).
final class ThingV1: Object {
    override class func _realmObjectName() -> String? { "Thing" }
    @Persisted var name = ""
}

final class ThingV2: Object {
    override class func _realmObjectName() -> String? { "Thing" }
    @Persisted var name = ""
    @Persisted var weight: Int
}
