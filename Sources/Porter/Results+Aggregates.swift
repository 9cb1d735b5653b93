import Foundation
import PorterQuery

/// Realm's aggregates and lookups on query results.
extension Results {
    /// The aggregate of a property over the objects, as a stored value (null when there is none).
    func aggregateValue(_ aggregate: QueryAggregate, _ property: String) -> Value {
        home.read("\(className).\(property)", fallback: .null) {
            guard let schema = home.database.schema[className] else { return .null }
            var evaluator = QueryEvaluator(database: home.database, schema: schema, realm: home)
            let current = keys
            let column = try evaluator.sortColumn(property, current)
            return try QueryValues.aggregate(
                aggregate, current.map { column[$0] ?? .null }, path: QueryPath([property]), className: schema.name)
        }
    }

    /// Converts an aggregate to `T`; nil for null or a value that does not fit `T`.
    private func converted<T: _Persistable>(_ value: Value, _ type: T.Type) -> T? {
        if value.isNull { return nil }
        if let exact = try? T._porterDecode(value, home) { return exact }
        switch value {
        case .int(let i): return T._porterFromAny(Int(i))
        case .double(let d): return T._porterFromAny(d)
        default: return nil
        }
    }

    /// The smallest value of a property among the objects, or nil when there are none.
    public func min<T: _Persistable>(ofProperty property: String) -> T? {
        converted(aggregateValue(.min, property), T.self)
    }
    /// The largest value of a property among the objects, or nil when there are none.
    public func max<T: _Persistable>(ofProperty property: String) -> T? {
        converted(aggregateValue(.max, property), T.self)
    }
    /// The sum of a numeric property (zero when there are no objects).
    public func sum<T: _Persistable>(ofProperty property: String) -> T {
        converted(aggregateValue(.sum, property), T.self) ?? T._porterFromAny(0) ?? T._porterDefault()
    }
    /// The average of a numeric property, or nil when there are no objects.
    public func average<T: _Persistable>(ofProperty property: String) -> T? {
        converted(aggregateValue(.avg, property), T.self)
    }

}

extension Results where Element: ObjectBase {
    /// The smallest value of the property a key path names.
    public func min<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? { min(ofProperty: Self.name(keyPath)) }
    /// The largest value of the property a key path names.
    public func max<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? { max(ofProperty: Self.name(keyPath)) }
    /// The sum of the property a key path names.
    public func sum<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T { sum(ofProperty: Self.name(keyPath)) }
    /// The average of the property a key path names.
    public func average<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? {
        average(ofProperty: Self.name(keyPath))
    }

    private static func name<T>(_ keyPath: KeyPath<Element, T>) -> String {
        KeyPathNames.name(of: keyPath) ?? "\(keyPath)"
    }

    /// The position of `object` in the results, or nil.
    public func index(of object: Element) -> Int? {
        guard let managed = object._managed, managed.realm.database === home.database, managed.className == className
        else { return nil }
        return keys.firstIndex(of: managed.key)
    }

    /// The position of the first object matching a type-safe query, or nil.
    public func index(matching query: (Query<Element>) -> Query<Bool>) -> Int? {
        guard let first = self.where(query).first else { return nil }
        return index(of: first)
    }

    /// The position of the first object matching a predicate string, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        guard let first = filter(predicateFormat, arguments: args).first else { return nil }
        return index(of: first)
    }

    /// The objects at the given positions.
    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    /// Always false: results stay valid while their realm is open.
    public var isInvalidated: Bool { false }

    /// The value of a property for every object, in order (Realm's `value(forKey:)`).
    public func value(forKey key: String) -> [Any?] { map { $0.value(forKey: key) } }
}

/// Types whose smallest and largest values results and collections can report (Realm's tag
/// protocol; Porter's `min(ofProperty:)`/`max(ofProperty:)` take any stored type, so code generic
/// over `T: MinMaxType` calls them unchanged).
public protocol MinMaxType: _Persistable {}
/// Types that results and collections can sum and average (Realm's tag protocol).
public protocol AddableType: _Persistable {}
/// Types that results can be sorted by (Realm's tag protocol).
public protocol SortableType: _Persistable {}

extension Int: MinMaxType, AddableType, SortableType {}
extension Int8: MinMaxType, AddableType, SortableType {}
extension Int16: MinMaxType, AddableType, SortableType {}
extension Int32: MinMaxType, AddableType, SortableType {}
extension Int64: MinMaxType, AddableType, SortableType {}
extension Float: MinMaxType, AddableType, SortableType {}
extension Double: MinMaxType, AddableType, SortableType {}
extension Decimal128: MinMaxType, AddableType, SortableType {}
extension AnyRealmValue: MinMaxType, AddableType, SortableType {}
extension Date: MinMaxType, SortableType {}
extension String: SortableType {}
extension Bool: SortableType {}
extension ObjectId: SortableType {}
extension UUID: SortableType {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}
extension Optional: AddableType where Wrapped: AddableType {}
extension Optional: SortableType where Wrapped: SortableType {}
