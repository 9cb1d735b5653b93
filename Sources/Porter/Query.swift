import Foundation
import PorterModel
import PorterQuery

/// A type-safe query on a model's properties, as in Realm's `where { }`:
///
/// ```swift
/// realm.objects(Dog.self).where { $0.name == "Rex" }
/// realm.objects(Dog.self).where { $0.age >= 2 && !$0.isAdopted }
/// realm.objects(Dog.self).where { $0.breed.in(["Beagle", "Pug"]) || $0.name.starts(with: "r", options: .caseInsensitive) }
/// realm.objects(Dog.self).where { $0.owner.name == "Ali" }            // through a link
/// realm.objects(Person.self).where { $0.dogs.age > 5 }                // any dog older than 5
/// realm.objects(Person.self).where { $0.dogs.count >= 2 && $0.dogs.age.avg > 3 }
/// ```
///
/// `$0.property` names a `@Persisted` property; paths go on through links (`$0.owner.name`),
/// embedded objects, lists, sets and linking objects (`$0.dogs.name`: a condition on any element).
/// A property that does not exist makes the results empty and is reported in
/// ``Realm/lastReadError`` naming class and property.
@dynamicMemberLookup
public struct Query<T> {
    let node: QueryNode

    init(_ node: QueryNode) { self.node = node }

    /// The property a key path names (`$0.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        extended(KeyPathNames.name(of: keyPath), on: T.self)
    }

    /// A property of the linked object, embedded object or collection elements (`$0.owner.name`,
    /// `$0.dogs.age`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T._QueryElement, V>) -> Query<V> where T: _QueryObjectPath {
        extended(KeyPathNames.name(of: keyPath), on: T._QueryElement.self)
    }

    fileprivate func extended<V>(_ name: String?, on type: ObjectBase.Type) -> Query<V> {
        guard let name else {
            return Query<V>(.invalid("the key path does not name one @Persisted property of \(type)"))
        }
        switch node {
        case .root: return Query<V>(.path(QueryPath([name])))
        case .path(let path): return Query<V>(.path(path.appending(name)))
        case .invalid(let message): return Query<V>(.invalid(message))
        case .predicate: return Query<V>(.invalid("a condition has no properties"))
        }
    }

    /// This query as a condition: a `Bool` property means "is true".
    var predicate: QueryPredicate {
        switch node {
        case .predicate(let predicate): return predicate
        case .path(let path): return .compare(path, .equal, QueryArgument(true), [])
        case .invalid(let message): return .invalid(message)
        case .root: return .invalid("a query must compare a property")
        }
    }

    /// The path this query names, or the predicate explaining why it names none.
    func withPath(_ body: (QueryPath) -> QueryPredicate) -> Query<Bool> {
        switch node {
        case .path(let path): return Query<Bool>(.predicate(body(path)))
        case .invalid(let message): return Query<Bool>(.predicate(.invalid(message)))
        default: return Query<Bool>(.predicate(.invalid("only a property can be compared with a value")))
        }
    }

    /// The same path with a collection aggregate (`@count`, `@min` …) applied.
    func aggregated<V>(_ aggregate: QueryAggregate) -> Query<V> {
        guard case .path(var path) = node else { return Query<V>(node) }
        path.aggregate = aggregate
        return Query<V>(.path(path))
    }

    func compare(_ op: QueryOperator, _ value: T, _ options: StringOptions = []) -> Query<Bool> where T: _Persistable {
        withPath { .compare($0, op, QueryArgument(value), options) }
    }
}

/// Types a query path goes on through: optional links, lists, sets and linking objects of objects.
public protocol _QueryObjectPath {
    /// The object class whose properties the path continues with.
    associatedtype _QueryElement: ObjectBase
}

extension Optional: _QueryObjectPath where Wrapped: ObjectBase { public typealias _QueryElement = Wrapped }
extension List: _QueryObjectPath where Element: ObjectBase { public typealias _QueryElement = Element }
extension MutableSet: _QueryObjectPath where Element: ObjectBase { public typealias _QueryElement = Element }
extension LinkingObjects: _QueryObjectPath { public typealias _QueryElement = Element }

extension Query where T: _Persistable {
    /// The property equals `rhs` (uses the index when there is one).
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.equal, rhs) }
    /// The property differs from `rhs` (null differs from every value).
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.notEqual, rhs) }

    /// The property equals one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        withPath { .in($0, values.map { QueryArgument($0) }) }
    }
}

// Property-to-property comparisons, as Realm's `Query` declares them (`$0.a == $0.b`): the two
// properties may have different Swift types (`Int` with `Int?`, `Int` with `Double`, an enum with
// an enum of its type); their stored values are compared as the query language compares them
// (numbers by value, values of different kinds never equal).
extension Query where T: _Persistable {
    /// The two properties are equal (two nulls are equal).
    public static func == <U: _Persistable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.equal, rhs)
    }
    /// The two properties differ.
    public static func != <U: _Persistable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.notEqual, rhs)
    }

    /// A comparison of this path with another query's path.
    func comparePaths<U>(_ op: QueryOperator, _ rhs: Query<U>) -> Query<Bool> {
        switch rhs.node {
        case .path(let right): return withPath { .comparePaths($0, op, right, [], .any) }
        case .invalid(let message): return Query<Bool>(.predicate(.invalid(message)))
        default: return Query<Bool>(.predicate(.invalid("only a property can be compared with a property")))
        }
    }
}

extension Query where T: _QueryComparable {
    /// The left property is less than the right one (null never matches).
    public static func < <U: _QueryComparable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.less, rhs)
    }
    /// The left property is at most the right one.
    public static func <= <U: _QueryComparable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.lessOrEqual, rhs)
    }
    /// The left property is greater than the right one.
    public static func > <U: _QueryComparable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.greater, rhs)
    }
    /// The left property is at least the right one.
    public static func >= <U: _QueryComparable>(lhs: Query<T>, rhs: Query<U>) -> Query<Bool> {
        lhs.comparePaths(.greaterOrEqual, rhs)
    }
}

extension Query where T: _QueryComparable {
    /// The property is less than `rhs` (null never matches).
    public static func < (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.less, rhs) }
    /// The property is at most `rhs`.
    public static func <= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs) }
    /// The property is greater than `rhs`.
    public static func > (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.greater, rhs) }
    /// The property is at least `rhs`.
    public static func >= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs) }

    /// The property lies in the closed range (Realm's `BETWEEN`).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> where T: Comparable {
        between(range.lowerBound, range.upperBound)
    }
    /// The property lies in the half-open range.
    public func contains(_ range: Range<T>) -> Query<Bool> where T: Comparable {
        withPath {
            .and(
                .compare($0, .greaterOrEqual, QueryArgument(range.lowerBound), []),
                .compare($0, .less, QueryArgument(range.upperBound), []))
        }
    }
    /// The property lies between `low` and `high`, both included.
    public func between(_ low: T, _ high: T) -> Query<Bool> {
        withPath { .between($0, QueryArgument(low), QueryArgument(high)) }
    }

    /// The smallest value of the collection the path goes through (`$0.dogs.age.min`, `@min`).
    public var min: Query<T> { aggregated(.min) }
    /// The largest value (`@max`).
    public var max: Query<T> { aggregated(.max) }
    /// The sum (`@sum`).
    public var sum: Query<T> { aggregated(.sum) }
    /// The average (`@avg`).
    public var avg: Query<T> { aggregated(.avg) }
}

extension Query where T == Bool {
    /// Both conditions hold.
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(.predicate(.and(lhs.predicate, rhs.predicate)))
    }
    /// Either condition holds.
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query(.predicate(.or(lhs.predicate, rhs.predicate)))
    }
    /// The condition does not hold.
    public static prefix func ! (operand: Query<Bool>) -> Query<Bool> { Query(.predicate(.not(operand.predicate))) }
}

/// String properties (optional or not).
public protocol _QueryString: _QueryComparable {}
extension String: _QueryString {}
extension Optional: _QueryString where Wrapped == String {}

extension Query where T: _QueryString {
    /// The string contains `text`.
    public func contains(_ text: String, options: StringOptions = []) -> Query<Bool> {
        stringMatch(.contains, text, options)
    }
    /// The string starts with `prefix`.
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        stringMatch(.beginsWith, prefix, options)
    }
    /// The string ends with `suffix`.
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        stringMatch(.endsWith, suffix, options)
    }
    /// The string matches a wildcard pattern: `*` any run of characters, `?` one character.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        stringMatch(.like, pattern, caseInsensitive ? .caseInsensitive : [])
    }
    /// The string equals `text` under `options`.
    public func equals(_ text: String, options: StringOptions = []) -> Query<Bool> {
        stringMatch(.equal, text, options)
    }
    /// The string differs from `text` under `options`.
    public func notEquals(_ text: String, options: StringOptions = []) -> Query<Bool> {
        stringMatch(.notEqual, text, options)
    }

    /// Porter's earlier spelling of ``contains(_:options:)``.
    @available(*, deprecated, renamed: "contains(_:options:)")
    public func contains(_ text: String, caseInsensitive: Bool) -> Query<Bool> {
        contains(text, options: caseInsensitive ? .caseInsensitive : [])
    }
    /// Porter's earlier spelling of ``starts(with:options:)``.
    @available(*, deprecated, renamed: "starts(with:options:)")
    public func starts(with prefix: String, caseInsensitive: Bool) -> Query<Bool> {
        starts(with: prefix, options: caseInsensitive ? .caseInsensitive : [])
    }
    /// Porter's earlier spelling of ``ends(with:options:)``.
    @available(*, deprecated, renamed: "ends(with:options:)")
    public func ends(with suffix: String, caseInsensitive: Bool) -> Query<Bool> {
        ends(with: suffix, options: caseInsensitive ? .caseInsensitive : [])
    }

    private func stringMatch(_ op: QueryOperator, _ text: String, _ options: StringOptions) -> Query<Bool> {
        withPath { .compare($0, op, QueryArgument(text), options) }
    }
}

/// Collections in queries: their size, membership, and conditions on any element.
public protocol _QueryCollection {
    /// The element type.
    associatedtype _QueryCollectionElement: _Persistable
}

extension List: _QueryCollection { public typealias _QueryCollectionElement = Element }
extension MutableSet: _QueryCollection { public typealias _QueryCollectionElement = Element }
extension LinkingObjects: _QueryCollection { public typealias _QueryCollectionElement = Element }
extension Map: _QueryCollection { public typealias _QueryCollectionElement = Value }

extension Query where T: _QueryCollection {
    /// The number of elements (`@count`).
    public var count: Query<Int> { aggregated(.count) }
    /// A condition on any element (`ANY`): `$0.scores.any > 5`.
    public var any: Query<T._QueryCollectionElement> { Query<T._QueryCollectionElement>(node) }
    /// The collection holds `element`.
    public func contains(_ element: T._QueryCollectionElement) -> Query<Bool> {
        withPath { .compare($0, .equal, QueryArgument(element), []) }
    }
    /// The collection holds at least one of `elements`.
    public func containsAny<S: Sequence>(in elements: S) -> Query<Bool> where S.Element == T._QueryCollectionElement {
        withPath { .in($0, elements.map { QueryArgument($0) }) }
    }
}

extension Query where T: _QueryCollection, T._QueryCollectionElement: _QueryComparable {
    /// The smallest element (`@min`).
    public var min: Query<T._QueryCollectionElement> { aggregated(.min) }
    /// The largest element (`@max`).
    public var max: Query<T._QueryCollectionElement> { aggregated(.max) }
    /// The sum of the elements (`@sum`).
    public var sum: Query<T._QueryCollectionElement> { aggregated(.sum) }
    /// The average of the elements (`@avg`).
    public var avg: Query<T._QueryCollectionElement> { aggregated(.avg) }
}

/// Optional numbers and dates (`Int?`, `Double?`, `Date?` …): what a range of their wrapped type
/// applies to.
public protocol _QueryOptionalNumeric {
    /// The wrapped type.
    associatedtype _QueryWrapped: _QueryNumeric & Comparable
}

extension Optional: _QueryOptionalNumeric where Wrapped: _QueryNumeric & Comparable {
    /// The wrapped type.
    public typealias _QueryWrapped = Wrapped
}

extension Query where T: _QueryOptionalNumeric {
    /// The optional property lies in the closed range (Realm's `BETWEEN`; null never does).
    public func contains(_ range: ClosedRange<T._QueryWrapped>) -> Query<Bool> {
        withPath { .between($0, QueryArgument(range.lowerBound), QueryArgument(range.upperBound)) }
    }
    /// The optional property lies in the half-open range (null never does).
    public func contains(_ range: Range<T._QueryWrapped>) -> Query<Bool> {
        withPath {
            .and(
                .compare($0, .greaterOrEqual, QueryArgument(range.lowerBound), []),
                .compare($0, .less, QueryArgument(range.upperBound), []))
        }
    }
}

// A range on a collection of values holds when every element lies in it, as in Realm, which
// writes it as `@min >= low AND @max < high` (so an empty collection, whose @min is null, never
// matches).
extension Query where T: _QueryCollection {
    /// Every element lies between `low` and `high` (`high` included when `closed`).
    func everyElement<V: _Persistable>(from low: V, to high: V, closed: Bool) -> Query<Bool> {
        withPath { path in
            var smallest = path
            smallest.aggregate = .min
            var largest = path
            largest.aggregate = .max
            return .and(
                .compare(smallest, .greaterOrEqual, QueryArgument(low), []),
                .compare(largest, closed ? .lessOrEqual : .less, QueryArgument(high), []))
        }
    }
}

extension Query where T: _QueryCollection, T._QueryCollectionElement: _QueryNumeric & Comparable {
    /// Every element lies in the half-open range (`$0.scores.contains(1..<5)`).
    public func contains(_ range: Range<T._QueryCollectionElement>) -> Query<Bool> {
        everyElement(from: range.lowerBound, to: range.upperBound, closed: false)
    }
    /// Every element lies in the closed range (`$0.scores.contains(1...5)`).
    public func contains(_ range: ClosedRange<T._QueryCollectionElement>) -> Query<Bool> {
        everyElement(from: range.lowerBound, to: range.upperBound, closed: true)
    }
}

extension Query where T: _QueryCollection, T._QueryCollectionElement: _QueryOptionalNumeric {
    /// Every element of a collection of optionals lies in the half-open range.
    public func contains(_ range: Range<T._QueryCollectionElement._QueryWrapped>) -> Query<Bool> {
        everyElement(from: range.lowerBound, to: range.upperBound, closed: false)
    }
    /// Every element of a collection of optionals lies in the closed range.
    public func contains(_ range: ClosedRange<T._QueryCollectionElement._QueryWrapped>) -> Query<Bool> {
        everyElement(from: range.lowerBound, to: range.upperBound, closed: true)
    }
}

// Custom-persistable types stored as objects (`struct Address: CustomPersistable` with an
// `EmbeddedObject` as its `PersistedType`): paths go on through the stored object's properties.
extension Query where T: CustomPersistable, T.PersistedType: ObjectBase {
    /// A property of the object the value is stored as (`$0.address.city`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.PersistedType, V>) -> Query<V> {
        extended(KeyPathNames.name(of: keyPath), on: T.PersistedType.self)
    }
}

/// Optional custom-persistable values stored as objects (`CLLocationCoordinate2D?` stored as an
/// embedded `Location`): what their query paths go on through.
public protocol _QueryStoredObjectPath {
    /// The object class the values are stored as.
    associatedtype _QueryStoredObject: ObjectBase
}

extension Optional: _QueryStoredObjectPath where Wrapped: CustomPersistable, Wrapped.PersistedType: ObjectBase {
    /// The object class the values are stored as.
    public typealias _QueryStoredObject = Wrapped.PersistedType
}

extension Query where T: _QueryStoredObjectPath {
    /// A property of the object an optional value is stored as (`$0.location.latitude`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T._QueryStoredObject, V>) -> Query<V> {
        extended(KeyPathNames.name(of: keyPath), on: T._QueryStoredObject.self)
    }
}

extension Query
where
    T: _QueryCollection, T._QueryCollectionElement: CustomPersistable,
    T._QueryCollectionElement.PersistedType: ObjectBase
{
    /// A property of the objects a collection of custom-persistable values is stored as (any
    /// element: `$0.addresses.city == "Oslo"`).
    public subscript<V>(
        dynamicMember keyPath: KeyPath<T._QueryCollectionElement.PersistedType, V>
    ) -> Query<V> {
        extended(KeyPathNames.name(of: keyPath), on: T._QueryCollectionElement.PersistedType.self)
    }
}

/// Numbers and dates in queries (Realm's tag protocol): what ranges and arithmetic comparisons
/// apply to.
public protocol _QueryNumeric: _QueryComparable {}

extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Date: _QueryNumeric {}
extension AnyRealmValue: _QueryNumeric {}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}

/// Types whose values can be ordered in queries and sorts: numbers, strings, dates, ids, bools, and
/// their optionals (`AnyRealmValue` too: values of different kinds never compare).
public protocol _QueryComparable: _Persistable {}

extension Bool: _QueryComparable {}
extension Int: _QueryComparable {}
extension Int8: _QueryComparable {}
extension Int16: _QueryComparable {}
extension Int32: _QueryComparable {}
extension Int64: _QueryComparable {}
extension Float: _QueryComparable {}
extension Double: _QueryComparable {}
extension String: _QueryComparable {}
extension Date: _QueryComparable {}
extension Timestamp: _QueryComparable {}
extension Decimal128: _QueryComparable {}
extension ObjectId: _QueryComparable {}
extension UUID: _QueryComparable {}
extension AnyRealmValue: _QueryComparable {}
extension Optional: _QueryComparable where Wrapped: _QueryComparable {}

/// What a ``Query`` stands for.
enum QueryNode {
    case root
    case path(QueryPath)
    case predicate(QueryPredicate)
    case invalid(String)
}

extension QueryArgument {
    /// A typed query's value.
    init<V: _Persistable>(_ value: V) { self = .given(value) }

    /// The stored value: a literal as written, a given value encoded by `writer` (objects become
    /// links, so they must be managed by then).
    func encode(_ writer: _PorterWriter) throws -> Value {
        switch self {
        case .literal(let value): return value
        case .given(let value):
            guard let value, !(value is NSNull) else { return .null }
            if let optional = value as? _OptionalValue, optional._isNil { return .null }
            if let persistable = value as? _Persistable { return try persistable._porterEncode(writer) }
            if let number = value as? NSNumber { return .double(number.doubleValue) }
            throw PorterError(.invalidValue, "a \(type(of: value)) cannot be a query argument")
        }
    }
}
