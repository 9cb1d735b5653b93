import Foundation

/// A type-safe query on a model's properties, as in Realm's `where { }`:
///
/// ```swift
/// realm.objects(Dog.self).where { $0.name == "Rex" }
/// realm.objects(Dog.self).where { $0.age >= 2 && !$0.isAdopted }
/// realm.objects(Dog.self).where { $0.breed.in(["Beagle", "Pug"]) || $0.name.starts(with: "R") }
/// ```
///
/// `$0.property` names a `@Persisted` single-value property; comparisons take a value of the
/// property's type. Equality uses the property's index when it has one. Paths through links
/// (`$0.owner.name`) and conditions on collections are not supported.
@dynamicMemberLookup
public struct Query<T> {
    let node: QueryNode

    init(_ node: QueryNode) { self.node = node }

    /// The property a key path names (`$0.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        guard let name = KeyPathNames.name(of: keyPath) else {
            return Query<V>(.invalid("the key path does not name one @Persisted property of \(T.self)"))
        }
        return Query<V>(.property(name))
    }

    /// This query as a condition: a `Bool` property means "is true".
    var predicate: QueryPredicate {
        switch node {
        case .predicate(let predicate): return predicate
        case .property(let name): return .compare(name, .equal, QueryArgument(true))
        case .invalid(let message): return .invalid(message)
        case .root: return .invalid("a query must compare a property")
        }
    }

    func compare(_ op: QueryOperator, _ value: T) -> Query<Bool> where T: _Persistable {
        guard case .property(let name) = node else { return Query<Bool>(.predicate(predicate(invalidFrom: node))) }
        return Query<Bool>(.predicate(.compare(name, op, QueryArgument(value))))
    }

    func stringMatch(_ op: StringOperator, _ text: String, _ caseInsensitive: Bool) -> Query<Bool> {
        guard case .property(let name) = node else { return Query<Bool>(.predicate(predicate(invalidFrom: node))) }
        return Query<Bool>(.predicate(.string(name, op, text, caseInsensitive: caseInsensitive)))
    }

    private func predicate(invalidFrom node: QueryNode) -> QueryPredicate {
        if case .invalid(let message) = node { return .invalid(message) }
        return .invalid("only a property can be compared with a value")
    }
}

extension Query where T: _Persistable {
    /// The property equals `rhs` (uses the index when there is one).
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.equal, rhs) }
    /// The property differs from `rhs` (null differs from every value).
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.notEqual, rhs) }

    /// The property equals one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        guard case .property(let name) = node else { return Query<Bool>(.predicate(predicate)) }
        return Query<Bool>(.predicate(.any(name, values.map { QueryArgument($0) })))
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
}

extension Query where T == Bool {
    /// Both conditions hold.
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> { Query(.predicate(.and(lhs.predicate, rhs.predicate))) }
    /// Either condition holds.
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> { Query(.predicate(.or(lhs.predicate, rhs.predicate))) }
    /// The condition does not hold.
    public static prefix func ! (operand: Query<Bool>) -> Query<Bool> { Query(.predicate(.not(operand.predicate))) }
}

extension Query where T == String {
    /// The string contains `text`.
    public func contains(_ text: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.contains, text, caseInsensitive) }
    /// The string starts with `prefix`.
    public func starts(with prefix: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.startsWith, prefix, caseInsensitive) }
    /// The string ends with `suffix`.
    public func ends(with suffix: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.endsWith, suffix, caseInsensitive) }
}

extension Query where T == String? {
    /// The string is set and contains `text`.
    public func contains(_ text: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.contains, text, caseInsensitive) }
    /// The string is set and starts with `prefix`.
    public func starts(with prefix: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.startsWith, prefix, caseInsensitive) }
    /// The string is set and ends with `suffix`.
    public func ends(with suffix: String, caseInsensitive: Bool = false) -> Query<Bool> { stringMatch(.endsWith, suffix, caseInsensitive) }
}

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
    case property(String)
    case predicate(QueryPredicate)
    case invalid(String)
}

/// A condition on stored properties.
indirect enum QueryPredicate {
    case compare(String, QueryOperator, QueryArgument)
    case string(String, StringOperator, String, caseInsensitive: Bool)
    case any(String, [QueryArgument])
    case and(QueryPredicate, QueryPredicate)
    case or(QueryPredicate, QueryPredicate)
    case not(QueryPredicate)
    case invalid(String)
}

/// Comparison operators.
enum QueryOperator {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
}

/// String operators.
enum StringOperator {
    case contains, startsWith, endsWith
}

/// A query value, encoded when the query runs (objects must be managed by then).
struct QueryArgument {
    let encode: (_PorterWriter) throws -> Value

    init<V: _Persistable>(_ value: V) { encode = { try value._porterEncode($0) } }
}
