import Foundation

// Realm's remaining collection spellings: lookups, bulk inserts, and queries on lists and
// linking objects (which give `Results`, as in Realm).

extension List {
    /// The position of the first element equal to `object`, or nil.
    public func index(of object: Element) -> Int? { elements.firstIndex(of: object) }

    /// Inserts the elements of a sequence at `index`, in order.
    public func insert<S: Sequence>(contentsOf elements: S, at index: Int) where S.Element == Element {
        for (offset, element) in elements.enumerated() { insert(element, at: index + offset) }
    }
}

extension MutableSet {
    /// Adds every element of a sequence (Realm's name).
    public func insert<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for element in elements { insert(element) }
    }
}

extension Map where Key == String {
    /// Stores a value under `key` from a loosely typed one (nil removes the key), as Realm's
    /// `setValue(_:forKey:)`. A value of the wrong type stops the program, as in Realm.
    public func setValue(_ value: Any?, forKey key: String) {
        guard let value, !(value is NSNull) || Value._porterFromAny(NSNull()) != nil else {
            removeObject(for: key)
            return
        }
        guard let typed = Value._porterFromAny(value) else {
            preconditionFailure("Map<String, \(Value.self)>: \(describeValue(value)) is not a \(Value.self)")
        }
        updateValue(typed, forKey: key)
    }

    /// The value under `key`, or nil (Realm's `value(forKey:)`).
    public func value(forKey key: String) -> Value? { self[key] }
}

extension Map {
    /// The entries as `(key, value)` pairs, in key order.
    public func asKeyValueSequence() -> [(key: Key, value: Value)] { Array(self) }

    /// Whether the map has a value under `key`.
    public func contains(key: Key) -> Bool { self[key] != nil }
}

/// Lists, sets and linking objects of objects, queried as results (Realm's `where`, `filter` and
/// `sorted` on them), in the collection's order.
public protocol _ObjectCollectionQueries {
    /// The object class.
    associatedtype _QueriedObject: Object
    /// The collection's objects as results (a managed collection only: an unmanaged one has no
    /// realm to query, a programming error as in Realm).
    func _queriedResults() -> Results<_QueriedObject>
}

extension _ObjectCollectionQueries {
    /// The objects that match a type-safe query.
    public func `where`(_ query: (Query<_QueriedObject>) -> Query<Bool>) -> Results<_QueriedObject> {
        _queriedResults().where(query)
    }
    /// The objects that match a predicate string.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<_QueriedObject> {
        _queriedResults().filter(predicateFormat, arguments: args)
    }
    /// The objects sorted by a property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<_QueriedObject> {
        _queriedResults().sorted(byKeyPath: keyPath, ascending: ascending)
    }
    /// The objects sorted by several properties.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<_QueriedObject>
    where S.Element == Realm.SortDescriptor {
        _queriedResults().sorted(by: descriptors)
    }
}

extension List: _ObjectCollectionQueries where Element: Object {
    /// The list's objects as results.
    public func _queriedResults() -> Results<Element> { storage.objectResults("list") }

    /// The position of the first object matching a type-safe query, or nil.
    public func index(matching query: (Query<Element>) -> Query<Bool>) -> Int? {
        guard let first = self.where(query).first else { return nil }
        return index(of: first)
    }
    /// The position of the first object matching a predicate string, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        guard let first = _queriedResults().filter(predicateFormat, arguments: args).first else { return nil }
        return index(of: first)
    }
}

extension MutableSet: _ObjectCollectionQueries where Element: Object {
    /// The set's objects as results.
    public func _queriedResults() -> Results<Element> { storage.objectResults("set") }
}

extension ElementStorage where Element: Object {
    /// The objects of a managed list or set as results, in stored order.
    func objectResults(_ kind: String) -> Results<Element> {
        guard case .managed(let p) = self else {
            preconditionFailure("queries need a managed \(kind): add its object to a realm first")
        }
        return Results(
            realm: p.realm, className: Element.className(),
            baseKeys: {
                p.storedElements().compactMap { if case .link(let link) = $0 { return link.key } else { return nil } }
            })
    }
}

extension LinkingObjects: _ObjectCollectionQueries where Element: Object {
    /// The linking objects as results.
    public func _queriedResults() -> Results<Element> {
        guard let source else { preconditionFailure("queries need a managed object: add it to a realm first") }
        return Results(
            realm: source.realm, className: Element.className(),
            baseKeys: {
                try source.reader.linkingObjects(source.owner.className, source.owner.key, source.property.name).map(
                    \.key)
            })
    }
}

// A map of links (`Map<String, Dog?>`) is queried as Realm queries it: the linked objects of its
// values, in key order, null values left out.
extension Map: _ObjectCollectionQueries where Value: _QueryObjectPath, Value._QueryElement: Object {
    /// The linked objects of the map's values as results.
    public func _queriedResults() -> Results<Value._QueryElement> {
        guard case .managed(let p) = storage else {
            preconditionFailure("queries need a managed map: add its object to a realm first")
        }
        return Results(
            realm: p.realm, className: Value._QueryElement.className(),
            baseKeys: {
                guard case .map(let entries) = try p.storedValue() else { return [] }
                return entries.sorted { $0.key < $1.key }.compactMap {
                    if case .link(let link) = $0.value { return link.key } else { return nil }
                }
            })
    }
}
