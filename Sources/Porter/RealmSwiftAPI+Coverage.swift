import Foundation
import PorterModel
import PorterQuery

// Declarations of realm-swift 10.54 found missing by the API coverage test
// (Tests/RealmSwiftCompatTests/RealmSwiftAPICoverage+Rest.swift).

extension Realm {
    /// Realm's error type (`Realm.Error`): every error Porter's typed API throws is a
    /// `PorterError`, so `catch let error as Realm.Error` catches them; its `PorterError/code`
    /// values are Porter's, not `RLMError.Code`'s.
    public typealias Error = PorterError

    /// Opens a realm from asynchronous code (Realm's `Realm.open(configuration:)`, without sync's
    /// `downloadBeforeOpen:`): the realm `try await Realm(configuration:)` opens on the caller's
    /// isolation.
    /// - Throws: what ``init(configuration:)`` throws.
    public static func open(
        configuration: Configuration = .defaultConfiguration,
        _isolation isolation: isolated (any Actor)? = #isolation
    ) async throws -> Realm {
        try Realm(configuration: configuration, sharing: true)
    }
}

extension PorterError {
    /// The file the error is about, when its location is a file (Realm's `Realm.Error.fileURL`).
    public var fileURL: URL? {
        guard let location, location.hasPrefix("/") else { return nil }
        let path = location.split(separator: ":", maxSplits: 1).first.map(String.init) ?? location
        return URL(fileURLWithPath: path)
    }
}

extension ObjectBase {
    /// Whether objects of this class are embedded (Realm's `isEmbedded()`): true for
    /// `EmbeddedObject` subclasses.
    public class func isEmbedded() -> Bool { self is EmbeddedObject.Type }
}

extension _ManagedProperty {
    /// Whether the owning object no longer exists (deleted, or its write was rolled back).
    var ownerIsGone: Bool { !((try? realm.reader.exists(owner.className, owner.key)) ?? false) }
}

extension List {
    /// Whether the list's object was deleted (Realm's `isInvalidated`); false while unmanaged.
    public var isInvalidated: Bool { storage.isInvalidated }
}

extension MutableSet {
    /// Whether the set's object was deleted (Realm's `isInvalidated`); false while unmanaged.
    public var isInvalidated: Bool { storage.isInvalidated }
}

extension Map {
    /// Whether the map's object was deleted (Realm's `isInvalidated`); false while unmanaged.
    public var isInvalidated: Bool {
        if case .managed(let property) = storage { return property.ownerIsGone }
        return false
    }
}

extension LinkingObjects {
    /// Whether the object the links point to was deleted (Realm's `isInvalidated`); false while
    /// unmanaged.
    public var isInvalidated: Bool { source?.ownerIsGone ?? false }
}

extension ElementStorage {
    /// Whether the owning object no longer exists; false while unmanaged.
    var isInvalidated: Bool {
        if case .managed(let property) = self { return property.ownerIsGone }
        return false
    }
}

extension SectionedResults {
    /// Whether the results the sections come from are invalidated (Realm's `isInvalidated`).
    public var isInvalidated: Bool { base.isInvalidated }
}

extension Projection {
    /// The class name of the projected root class (Realm's `Projection.className()`).
    public static func className() -> String { Root.className() }
}

/// Maps in typed queries (Realm's `Query` on a `Map`): their keys, their values, and the value
/// under one key.
public protocol _QueryMap: _QueryCollection {}

extension Map: _QueryMap {}

extension Query where T: _QueryMap {
    /// The map's keys (`@keys`): `$0.ratings.keys.contains("vet")`, `$0.ratings.keys == "vet"`.
    public var keys: Query<String> { mapPath { $0.operation = .keys } }

    /// The map's values (`@values`): `$0.ratings.values > 3` (any value).
    public var values: Query<T._QueryCollectionElement> { mapPath { $0.operation = .values } }

    /// The value under `member` (`ratings['vet']`): null when the key is absent.
    public subscript(member: String) -> Query<T._QueryCollectionElement> {
        mapPath { $0.subscripts[$0.components.count - 1, default: []].append(.key(member)) }
    }

    private func mapPath<V>(_ change: (inout QueryPath) -> Void) -> Query<V> {
        guard case .path(var path) = node else { return Query<V>(node) }
        change(&path)
        return Query<V>(.path(path))
    }
}

extension SortDescriptor: ExpressibleByStringLiteral {
    /// An ascending sort by the property a string literal names (`let byName: SortDescriptor = "name"`).
    public init(stringLiteral value: String) { self.init(keyPath: value) }
}
