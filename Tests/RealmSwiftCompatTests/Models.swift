import Foundation
import RealmSwift

// Models as Realm's documentation writes them (Swift SDK, "Define an Object Model").

class Dog: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var breed: String?
    @Persisted var currentCity = ""
    @Persisted var owner: Person?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

class Person: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var dogs: List<Dog>
    @Persisted var address: Address?
    @Persisted var tags: MutableSet<String>
    @Persisted var favoriteParksByCity: Map<String, String>
}

class Address: EmbeddedObject {
    @Persisted var street: String?
    @Persisted var city: String?
    @Persisted var country: String?
}

enum TaskStatusEnum: String, PersistableEnum {
    case notStarted, inProgress, complete
}

class Task: Object {
    @Persisted var name = ""
    @Persisted var priority = 0
    @Persisted var progressMinutes = 0
    @Persisted var isComplete = false
    @Persisted var assignee: Person?
    @Persisted var status = TaskStatusEnum.notStarted
}

class Project: Object {
    @Persisted var name = ""
    @Persisted var tasks: List<Task>
}

// A type projection, as in Realm's "Map Property Values to Custom Types".
struct CLLocationCoordinate2D: Hashable {
    var latitude: Double
    var longitude: Double
}

class Location: EmbeddedObject {
    @Persisted var latitude = 0.0
    @Persisted var longitude = 0.0
}

extension CLLocationCoordinate2D: CustomPersistable {
    typealias PersistedType = Location
    init(persistedValue: PersistedType) {
        self.init(latitude: persistedValue.latitude, longitude: persistedValue.longitude)
    }
    var persistableValue: PersistedType {
        Location(value: [self.latitude, self.longitude])
    }
}

class Landmark: Object {
    @Persisted var name = ""
    @Persisted var location: CLLocationCoordinate2D?
}

class Money: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var amount: Decimal128 = 0
    @Persisted var mixed: AnyRealmValue
}

// The legacy class-method hooks Realm still honours.
class LegacyKeyed: Object {
    @Persisted var code = ""
    @Persisted var title = ""
    @Persisted var website: URL?
    @Persisted var scratch = ""
    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["title"] }
    override class func ignoredProperties() -> [String] { ["scratch"] }
}
