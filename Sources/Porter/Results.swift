import Foundation
import PorterQuery

/// The objects of one class that match a query, in a given order: lazy and live, as Realm's
/// `Results`. Nothing is read until the results are used (`count`, iteration, `first`,
/// `results[i]`), and each use sees the current data (the matching keys are cached while the
/// database is unchanged).
///
/// ```swift
/// let adults = realm.objects(Person.self).where { $0.age >= 18 }.sorted(byKeyPath: "name")
/// for person in adults { print(person.name) }
/// ```
///
/// A query that cannot run (a property that does not exist or cannot be compared) gives empty
/// results and is reported in ``Realm/lastReadError``; ``snapshot()`` throws it instead.
public struct Results<Element: RealmFetchable>: RandomAccessCollection, CustomStringConvertible {
    /// The realm the objects belong to.
    let home: Realm
    /// The realm the objects belong to (optional, as Realm's `Results.realm`; never nil in Porter).
    public var realm: Realm? { home }
    let className: String
    let predicates: [QueryPredicate]
    let filters: [(Element) -> Bool]
    let sortKeys: [Realm.SortDescriptor]
    /// The objects to start from instead of the whole class (a list's or linking objects'
    /// elements, in their order), read when the results are evaluated.
    let baseKeys: (() throws -> [ObjectKey])?
    /// Key paths whose values must be unique in the results (the first object of each is kept).
    let distinctPaths: [String]?
    /// The objects of a frozen snapshot (see `freeze()`), which replace evaluation.
    let frozenElements: [Element]?
    private let cache = LiveCache<[ObjectKey]>()

    init(
        realm: Realm, className: String, predicates: [QueryPredicate] = [], filters: [(Element) -> Bool] = [],
        sortKeys: [Realm.SortDescriptor] = [], baseKeys: (() throws -> [ObjectKey])? = nil,
        distinctPaths: [String]? = nil,
        frozenElements: [Element]? = nil
    ) {
        self.frozenElements = frozenElements
        self.home = realm
        self.className = className
        self.predicates = predicates
        self.filters = filters
        self.sortKeys = sortKeys
        self.baseKeys = baseKeys
        self.distinctPaths = distinctPaths
    }

    /// These results with some parts replaced.
    func refined(
        predicates: [QueryPredicate]? = nil, filters: [(Element) -> Bool]? = nil,
        sortKeys: [Realm.SortDescriptor]? = nil, distinctPaths: [String]? = nil
    ) -> Results<Element> {
        Results(
            realm: home, className: className, predicates: predicates ?? self.predicates,
            filters: filters ?? self.filters,
            sortKeys: sortKeys ?? self.sortKeys, baseKeys: baseKeys, distinctPaths: distinctPaths ?? self.distinctPaths)
    }

    /// The matching keys, in result order, from the cache while the database is unchanged.
    var keys: [ObjectKey] {
        cache.value(home.database) {
            home.read(className, fallback: []) { try evaluateKeys() }
        }
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { frozenElements?.count ?? keys.count }

    /// Whether these are frozen results (see `freeze()`).
    public var isFrozen: Bool { frozenElements != nil || home.isFrozen }

    /// The object at `position`. An index outside `0..<count` stops the program, as for `Array`.
    public subscript(position: Int) -> Element {
        if let frozenElements { return frozenElements[position] }
        let current = keys
        precondition(
            position >= 0 && position < current.count,
            "Results index \(position) is out of range (count \(current.count))")
        return Element._fetched(home, ObjectLink(className, current[position]))
    }

    /// Iterates over the objects matching now.
    public func makeIterator() -> Iterator {
        Iterator(
            realm: home, className: className, keys: frozenElements == nil ? keys : [],
            frozen: frozenElements?.makeIterator())
    }

    /// Walks the keys that matched when iteration began and makes each object only when it is
    /// reached, so iterating over a million objects does not hold a million of them. The stored
    /// values of runs of objects are read in one query each (see `RowPrefetcher`).
    public struct Iterator: IteratorProtocol {
        let realm: Realm
        let className: String
        let keys: [ObjectKey]
        var position = 0
        var frozen: IndexingIterator<[Element]>?
        var prefetcher: RowPrefetcher

        init(realm: Realm, className: String, keys: [ObjectKey], frozen: IndexingIterator<[Element]>?) {
            self.realm = realm
            self.className = className
            self.keys = keys
            self.frozen = frozen
            prefetcher = RowPrefetcher(realm: realm, className: className)
        }

        /// The next object, or nil at the end.
        public mutating func next() -> Element? {
            if frozen != nil { return frozen?.next() }
            guard position < keys.count else { return nil }
            defer { position += 1 }
            let row = prefetcher.row(keys, position)
            return Element._fetched(realm, ObjectLink(className, keys[position]), row: _PrefetchedRow(row: row))
        }
    }

    /// The matching objects now, or the error that keeps the query from running.
    public func snapshot() throws -> [Element] {
        try evaluateKeys().map { Element._fetched(home, ObjectLink(className, $0)) }
    }

    // MARK: - Refining

    /// The results that also match a type-safe query (see ``Query``).
    public func `where`(_ query: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        refined(predicates: predicates + [query(Query(.root)).predicate])
    }

    /// The results that also match a predicate string in Realm Query Language / NSPredicate
    /// format, with `%@` values and `%K` key paths (see `QueryParser`):
    /// `filter("age > %@ AND name BEGINSWITH[c] %@", 3, "r")`. A predicate that does not parse
    /// or names an unknown property makes the results empty and is reported in
    /// ``Realm/lastReadError`` (``snapshot()`` throws it).
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        filter(predicateFormat, arguments: args)
    }

    /// ``filter(_:_:)`` with the arguments as an array.
    public func filter(_ predicateFormat: String, arguments args: [Any]) -> Results<Element> {
        let predicate: QueryPredicate
        do {
            predicate = try QueryParser.parse(predicateFormat, args)
        } catch let error as PorterError {
            predicate = .invalid(error.message)
        } catch {
            predicate = .invalid(String(describing: error))
        }
        return refined(predicates: predicates + [predicate])
    }

    /// The results for which a Swift closure returns true (evaluated lazily, on managed objects).
    public func filter(_ isIncluded: @escaping (Element) -> Bool) -> Results<Element> {
        refined(filters: filters + [isIncluded])
    }

    /// The results sorted by a property (null first when ascending); ties keep key order.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [Realm.SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == Realm.SortDescriptor {
        refined(sortKeys: Array(descriptors))
    }

    /// The results keeping only the first object for each distinct combination of values of
    /// `keyPaths` (in the current order).
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        refined(distinctPaths: (distinctPaths ?? []) + Array(keyPaths))
    }

    /// `Results<Dog>(3 objects)`.
    public var description: String { "Results<\(Element.self)>(\(count) objects)" }
}

extension Results where Element: ObjectBase {
    /// The results sorted by the property a key path names.
    public func sorted<V: _QueryComparable>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element>
    {
        let name = KeyPathNames.name(of: keyPath) ?? "\(keyPath)"
        return sorted(byKeyPath: name, ascending: ascending)
    }
}

/// What `Realm/objects(_:)` can return: model objects, and class projections of them. Each is a
/// ``RealmCollectionValue`` too, as in Realm, so code generic over results' elements can make a
/// `List<Element>` of them (`extension Results { func toList() -> List<Element> }`).
public protocol RealmFetchable: RealmCollectionValue {
    /// The stored class the results read.
    static func _fetchedClassName() -> String
    /// The value for one stored object.
    static func _fetched(_ realm: Realm, _ link: ObjectLink) -> Self
    /// The value for one stored object whose stored values were read already.
    static func _fetched(_ realm: Realm, _ link: ObjectLink, row: _PrefetchedRow) -> Self
}

extension RealmFetchable {
    /// The value for one stored object (the prefetched values are not used).
    public static func _fetched(_ realm: Realm, _ link: ObjectLink, row: _PrefetchedRow) -> Self {
        _fetched(realm, link)
    }
}

/// The stored values of one object, read ahead while iterating results.
public struct _PrefetchedRow {
    let row: ManagedRow?
}

extension Object: RealmFetchable {
    /// The model class's name.
    public static func _fetchedClassName() -> String { className() }
    /// The managed object.
    public static func _fetched(_ realm: Realm, _ link: ObjectLink) -> Self { realm.managedObject(self, link) }
    /// The managed object, with its stored values.
    public static func _fetched(_ realm: Realm, _ link: ObjectLink, row: _PrefetchedRow) -> Self {
        let object = realm.managedObject(self, link)
        object._row = row.row
        return object
    }
}

extension Realm {
    /// Porter's earlier name for ``SortDescriptor``.
    public typealias SortDescriptor = Porter.SortDescriptor
}

/// One sort key of ``Results``: a property name (or key path through to-one links) and a
/// direction, as Realm's `SortDescriptor`.
public struct SortDescriptor: Sendable, Hashable {
    /// The property to sort by.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort key.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// The same key in the other direction.
    public func reversed() -> SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}

extension SortDescriptor: CustomStringConvertible {
    /// `SortDescriptor(keyPath: age, direction: descending)`, as Realm describes one.
    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))"
    }
}
