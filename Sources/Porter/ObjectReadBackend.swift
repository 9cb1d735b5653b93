import Foundation

/// What the typed API reads objects through: the SQLite ``Database`` of a Porter realm, or a
/// ``RealmFileReader`` over a Realm Core file opened read-only. The same calls, the same values
/// (links and embedded objects as `.link`, collections as `.list`/`.set`/`.map`) and the same
/// errors; everything else (schema, transactions, change stamps) stays with ``Realm/database``.
protocol ObjectReadBackend: AnyObject {
    /// The number of objects of a class.
    func count(_ className: String) throws -> Int
    /// Whether an object with this key exists in the class.
    func exists(_ className: String, _ key: ObjectKey) throws -> Bool
    /// The keys of every object of a class, in key order.
    func allKeys(_ className: String) throws -> [ObjectKey]
    /// One property of one object; for a `linkingObjects` property, the list of origins.
    func value(_ className: String, _ key: ObjectKey, _ property: String) throws -> Value
    /// One single-value property of every object of a class, in key order.
    func propertyValues(_ className: String, _ property: String) throws -> [(key: ObjectKey, value: Value)]
    /// The keys of the objects whose single-value `property` equals `value`, in key order.
    func keys(_ className: String, where property: String, equals value: Value) throws -> [ObjectKey]
    /// The key of the object whose primary key is `primaryKey`, if any.
    func key(_ className: String, primaryKey: Value) throws -> ObjectKey?
    /// The objects linking to `key` through the origin of the `linkingObjects` property `property`.
    func linkingObjects(_ className: String, _ key: ObjectKey, _ property: String) throws -> [ObjectLink]
    /// An object's single-value properties in ``Database/rowProperties(_:)`` order; nil when absent.
    func row(_ className: String, _ key: ObjectKey) throws -> [Value]?
    /// The rows of the objects whose keys lie in `low...high`, in key order (see ``Database/rows(_:from:through:)``).
    func rows(_ className: String, from low: ObjectKey, through high: ObjectKey) throws -> (
        keys: [ObjectKey], values: [Value]
    )
    /// The number of elements of a list, set or map property.
    func collectionCount(_ className: String, _ key: ObjectKey, _ property: String) throws -> Int
    /// The element at `index` of a list property.
    func listElement(_ className: String, _ key: ObjectKey, _ property: String, at index: Int) throws -> Value
    /// Whether a set property holds `value`.
    func setContains(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Bool
    /// The value a map property holds under `mapKey`; nil when absent.
    func mapValue(_ className: String, _ key: ObjectKey, _ property: String, forKey mapKey: String) throws -> Value?
    /// Every property of one object by name, embedded objects nested as `.object`; nil when absent.
    func snapshot(_ className: String, _ key: ObjectKey) throws -> [String: Value]?
    /// Looks at the data again (a Realm file changed on disk); true when it changed.
    func reloadIfChanged() throws -> Bool
}

extension Database: ObjectReadBackend {
    /// A Porter database sees other connections' commits by itself.
    func reloadIfChanged() throws -> Bool { false }
}

extension Realm {
    /// What this realm reads objects through (see ``ObjectReadBackend``).
    var reader: any ObjectReadBackend { core.reader }
}
