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

extension List where Element: Object {
    /// The list's objects that match a type-safe query, in list order (Realm's `List.where`).
    public func `where`(_ query: (Query<Element>) -> Query<Bool>) -> Results<Element> { results().where(query) }
    /// The list's objects that match a predicate string, in list order.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        results().filter(predicateFormat, arguments: args)
    }
    /// The list's objects sorted by a property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        results().sorted(byKeyPath: keyPath, ascending: ascending)
    }
    /// The list's objects sorted by several properties.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == Realm.SortDescriptor {
        results().sorted(by: descriptors)
    }
    /// The position of the first object matching a type-safe query, or nil.
    public func index(matching query: (Query<Element>) -> Query<Bool>) -> Int? {
        guard let first = self.where(query).first else { return nil }
        return index(of: first)
    }
    /// The position of the first object matching a predicate string, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        guard let first = results().filter(predicateFormat, arguments: args).first else { return nil }
        return index(of: first)
    }

    /// The list's objects as results (a managed list only: an unmanaged list has no realm to query).
    private func results() -> Results<Element> { storage.objectResults("list") }
}

extension MutableSet where Element: Object {
    /// The set's objects that match a type-safe query (Realm's `MutableSet.where`).
    public func `where`(_ query: (Query<Element>) -> Query<Bool>) -> Results<Element> { results().where(query) }
    /// The set's objects that match a predicate string.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        results().filter(predicateFormat, arguments: args)
    }
    /// The set's objects sorted by a property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        results().sorted(byKeyPath: keyPath, ascending: ascending)
    }
    /// The set's objects sorted by several properties.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == Realm.SortDescriptor {
        results().sorted(by: descriptors)
    }

    /// The set's objects as results (a managed set only).
    private func results() -> Results<Element> { storage.objectResults("set") }
}

extension ElementStorage where Element: Object {
    /// The objects of a managed list or set as results, in stored order (an unmanaged collection
    /// has no realm to query: a programming error, as in Realm).
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

extension LinkingObjects where Element: Object {
    /// The linking objects that match a type-safe query (Realm's `LinkingObjects.where`).
    public func `where`(_ query: (Query<Element>) -> Query<Bool>) -> Results<Element> { results().where(query) }
    /// The linking objects that match a predicate string.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        results().filter(predicateFormat, arguments: args)
    }
    /// The linking objects sorted by a property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        results().sorted(byKeyPath: keyPath, ascending: ascending)
    }

    private func results() -> Results<Element> {
        guard let source else { preconditionFailure("queries need a managed object: add it to a realm first") }
        return Results(
            realm: source.realm, className: Element.className(),
            baseKeys: {
                try source.reader.linkingObjects(source.owner.className, source.owner.key, source.property.name).map(
                    \.key)
            })
    }
}
