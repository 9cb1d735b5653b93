import Foundation
import Porter

// The Swift models that `Fixtures/schemas/realm-docs.json` describes, declared the way the Realm
// Swift docs declare them. `SchemaDerivationTests` checks that the derived schema equals the file.

/// A dog's status, stored as its raw string.
enum DogStatus: String, PersistableEnum {
    case active, retired
}

/// The docs' Dog: primary key, indexed name, optional breed, to-one owner, embedded address,
/// list of toys, set of tags, map of ratings, a mixed value and an enum.
final class Dog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var name: String
    @Persisted var breed: String?
    @Persisted var dateOfBirth: Date
    @Persisted var owner: Person?
    @Persisted var favoriteToys: List<DogToy>
    @Persisted var tags: MutableSet<String>
    @Persisted var ratings: Map<String, Int?>
    @Persisted var extra: AnyRealmValue
    @Persisted var address: Address?
    @Persisted var status = DogStatus.active
    /// Not `@Persisted`: ignored, never stored.
    var isSelected = false
}

/// A toy; no primary key.
final class DogToy: Object {
    @Persisted var name: String
    @Persisted var squeaky = true
    @Persisted var color: String?
}

/// A person with dogs (to-many), the dogs that name them as owner (inverse), and addresses.
final class Person: Object {
    @Persisted(primaryKey: true) var _id: UUID
    @Persisted var name: String
    @Persisted var age: Int?
    @Persisted var dogs: List<Dog>
    @Persisted(originProperty: "owner") var walkers: LinkingObjects<Dog>
    @Persisted var address: Address?
    @Persisted var previousAddresses: List<Address>
    @Persisted var addressBook: Map<String, Address?>
}

/// An embedded address with an embedded country.
final class Address: EmbeddedObject {
    @Persisted var street: String
    @Persisted var city: String
    @Persisted var country: Country?
}

/// An embedded country.
final class Country: EmbeddedObject {
    @Persisted var code: String
    @Persisted var name: String?
}

/// A user and the tasks assigned to them (inverse relationship).
final class User: Object {
    @Persisted(primaryKey: true) var _id: String
    @Persisted(indexed: true) var name: String
    @Persisted(originProperty: "assignee") var tasks: LinkingObjects<TaskItem>
}

/// The docs' Task, named `TaskItem` in Swift (so it does not hide Swift's `Task`) and stored as
/// "Task" through Realm's `_realmObjectName()` hook.
final class TaskItem: Object {
    override class func _realmObjectName() -> String? { "Task" }

    @Persisted(primaryKey: true) var _id: Int
    @Persisted var title: String
    @Persisted var isComplete = false
    @Persisted(indexed: true) var priority = 3
    @Persisted var assignee: User?
    @Persisted var dueDate: Date?
    @Persisted var createdAt = Date(timeIntervalSince1970: 1_704_067_200)
    @Persisted var progress = 0.5
    @Persisted var subtasks: List<String>
}

/// Every type of the cheat sheet, required and optional, in every collection, with defaults.
final class AllTypes: Object {
    @Persisted var bool: Bool
    @Persisted var boolOpt: Bool?
    @Persisted(indexed: true) var int: Int
    @Persisted var intOpt: Int?
    @Persisted var float: Float
    @Persisted var floatOpt: Float?
    @Persisted var double: Double
    @Persisted var doubleOpt: Double?
    @Persisted var decimal: Decimal128
    @Persisted var decimalOpt: Decimal128?
    @Persisted(indexed: true) var objectId: ObjectId
    @Persisted var objectIdOpt: ObjectId?
    @Persisted(indexed: true) var uuid: UUID
    @Persisted var uuidOpt: UUID?
    @Persisted var string: String
    @Persisted(indexed: true) var stringOpt: String?
    @Persisted var data: Data
    @Persisted var dataOpt: Data?
    @Persisted(indexed: true) var date: Date
    @Persisted var dateOpt: Date?
    @Persisted(indexed: true) var mixed: AnyRealmValue
    @Persisted var link: DogToy?
    @Persisted var embedded: Address?
    @Persisted var intList: List<Int>
    @Persisted var intOptList: List<Int?>
    @Persisted(indexed: true) var stringList: List<String>
    @Persisted var mixedList: List<AnyRealmValue>
    @Persisted var linkList: List<DogToy>
    @Persisted var embeddedList: List<Address>
    @Persisted var intSet: MutableSet<Int>
    @Persisted var stringOptSet: MutableSet<String?>
    @Persisted var uuidSet: MutableSet<UUID>
    @Persisted var mixedSet: MutableSet<AnyRealmValue>
    @Persisted var linkSet: MutableSet<DogToy>
    @Persisted var intMap: Map<String, Int>
    @Persisted var stringOptMap: Map<String, String?>
    @Persisted var mixedMap: Map<String, AnyRealmValue>
    @Persisted var linkMap: Map<String, DogToy?>
    @Persisted var embeddedMap: Map<String, Address?>
    @Persisted var boolDefault = true
    @Persisted var intDefault = -42
    @Persisted var floatDefault: Float = 1.5
    @Persisted var doubleDefault = 2.25e10
    @Persisted var decimalDefault = try! Decimal128(string: "123.4500")
    @Persisted var objectIdDefault = try! ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e1f")
    @Persisted var uuidDefault = UUID(uuidString: "3b241101-e2bb-4255-8caf-4136c566a962")!
    @Persisted var stringDefault = "hello \"world\""
    @Persisted var dataDefault = Data([0, 1, 2, 255])
    // 15625 µs is 1/64 s: a `Date` (a binary Double) holds it exactly, so the default is exact.
    @Persisted var dateDefault = Timestamp(microseconds: 1_000_000_000_015_625).date
    @Persisted var optionalDefault: Int? = nil
    @Persisted var mixedDefault: AnyRealmValue = .string("anything")
    @Persisted var listDefault: List<Int> = [1, 2, 3]
    @Persisted var setDefault: MutableSet<String> = ["a", "b"]
    @Persisted var mapDefault: Map<String, Double?> = ["a": 1, "b": nil]
}
