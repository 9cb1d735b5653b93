import Foundation

/// A map property with string keys (`@Persisted var ratings: Map<String, Int?>`), as Realm's `Map`.
///
/// Unmanaged, it holds its own entries. Managed, it is a live view: each assignment or removal
/// writes one entry, inside a write transaction; a replaced or removed embedded value is deleted.
/// Iteration and ``keys`` are in key order. Keys may be empty (as in realm-core), contain no `.` and do not start
/// with `$`.
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    enum Storage {
        case unmanaged([Key: Value])
        case managed(_ManagedProperty)
    }

    var storage: Storage

    /// An empty unmanaged map.
    public init() { storage = .unmanaged([:]) }

    /// An unmanaged map of the given entries (a later duplicate key wins).
    public init(dictionaryLiteral elements: (Key, Value)...) {
        storage = .unmanaged(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// An unmanaged map of a dictionary's entries.
    public init(_ entries: [Key: Value]) { storage = .unmanaged(entries) }

    init(managed: _ManagedProperty) { storage = .managed(managed) }

    /// The realm of the object owning the map, or nil while unmanaged.
    public var realm: Realm? { if case .managed(let p) = storage { return p.realm } else { return nil } }

    /// The entries as a dictionary (one read when managed).
    public var dictionary: [Key: Value] {
        switch storage {
        case .unmanaged(let entries): return entries
        case .managed(let p):
            let stored: [String: PorterModel.Value] = p.read(fallback: [:]) {
                if case .map(let entries) = try p.storedValue() { return entries }
                return [:]
            }
            var out: [Key: Value] = [:]
            for (key, value) in stored {
                if let decoded = p.read(fallback: nil, { try Value._porterDecode(value, p.realm) }) {
                    out[Key(_porterKey: key)] = decoded
                }
            }
            return out
        }
    }

    /// The number of entries.
    public var count: Int {
        switch storage {
        case .unmanaged(let entries): return entries.count
        case .managed(let p):
            return p.read(fallback: 0) {
                try p.reader.collectionCount(p.owner.className, p.owner.key, p.property.name)
            }
        }
    }

    /// Whether the map has no entries.
    public var isEmpty: Bool { count == 0 }

    /// The keys, sorted.
    public var keys: [Key] { dictionary.keys.sorted() }

    /// The values, in key order.
    public var values: [Value] { sortedEntries.map(\.value) }

    private var sortedEntries: [(key: Key, value: Value)] {
        dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// Iterates over the entries in key order.
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> { sortedEntries.makeIterator() }

    /// The value under `key`, or nil when there is none. Assigning nil removes the key; to store
    /// a null in a map of optionals use ``updateValue(_:forKey:)``.
    public subscript(key: Key) -> Value? {
        get {
            switch storage {
            case .unmanaged(let entries): return entries[key]
            case .managed(let p):
                return p.read(fallback: nil) {
                    guard
                        let stored = try p.reader.mapValue(
                            p.owner.className, p.owner.key, p.property.name, forKey: key._porterKey)
                    else { return nil }
                    return try Value._porterDecode(stored, p.realm)
                }
            }
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeObject(for: key) }
        }
    }

    /// Stores `value` under `key`.
    public func updateValue(_ value: Value, forKey key: Key) {
        switch storage {
        case .unmanaged(var entries):
            entries[key] = value
            storage = .unmanaged(entries)
        case .managed(let p):
            p.change { writer in
                let encoded = try value._porterEncode(writer)
                let stored = try p.database.mapSet(
                    p.owner.className, p.owner.key, p.property.name, forKey: key._porterKey, encoded)
                try writer.attachEmbedded(value._porterEmbeddedObjects(), stored: stored)
            }
        }
    }

    /// Removes `key` and its value.
    public func removeObject(for key: Key) {
        switch storage {
        case .unmanaged(var entries):
            entries[key] = nil
            storage = .unmanaged(entries)
        case .managed(let p):
            p.change { _ in
                _ = try p.database.mapRemove(p.owner.className, p.owner.key, p.property.name, forKey: key._porterKey)
            }
        }
    }

    /// Removes every entry.
    public func removeAll() {
        switch storage {
        case .unmanaged:
            storage = .unmanaged([:])
        case .managed(let p):
            p.change { _ in try p.database.set(p.owner.className, p.owner.key, p.property.name, .map([:])) }
        }
    }

    /// `[a: 1, b: 2]`.
    public var description: String {
        "Map<\(Key.self), \(Value.self)>[\(sortedEntries.map { "\($0.key): \(describeValue($0.value))" }.joined(separator: ", "))]"
    }
}

extension Map: _Persistable {
    /// The value type's schema shape as a map.
    /// A live view, not a value in the object's row.
    public static var _porterReadsFromRow: Bool { false }
    public static var _porterType: _PorterTypeInfo { Value._porterType.inCollection(.map) }
    /// An empty map.
    public static func _porterDefault() -> Map<Key, Value> { Map() }
    /// An unmanaged map of the stored entries.
    public static func _porterDecode(_ value: PorterModel.Value, _ realm: Realm?) throws -> Map<Key, Value> {
        guard case .map(let entries) = value else { throw mismatch(value, Map<Key, Value>.self) }
        var out: [Key: Value] = [:]
        for (key, stored) in entries { out[Key(_porterKey: key)] = try Value._porterDecode(stored, realm) }
        return Map(out)
    }
    /// The entries' stored values.
    public func _porterEncode(_ writer: _PorterWriter) throws -> PorterModel.Value {
        var out: [String: PorterModel.Value] = [:]
        for (key, value) in dictionary { out[key._porterKey] = try value._porterEncode(writer) }
        return .map(out)
    }
    /// A live view of the managed object's map.
    public static func _porterManaged(_ property: _ManagedProperty) throws -> Map<Key, Value> {
        Map(managed: property)
    }
    /// An unmanaged map of detached values.
    public func _porterDetached(_ copier: _DetachCopier) -> Map<Key, Value> {
        Map(dictionary.mapValues { $0._porterDetached(copier) })
    }
    /// The embedded values with their keys.
    public func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)] {
        sortedEntries.flatMap { entry in
            entry.value._porterEmbeddedObjects().map { (key: entry.key._porterKey, object: $0.object) }
        }
    }
}

/// Keyed collections (Realm's protocol, which ``Map`` conforms to): what code generic over maps
/// can use.
public protocol RealmKeyedCollection: Sequence {
    /// The key type (`String`).
    associatedtype Key: _MapKey
    /// The value type.
    associatedtype Value: RealmCollectionValue
    /// The number of entries.
    var count: Int { get }
    /// Whether there are no entries.
    var isEmpty: Bool { get }
    /// The keys, sorted.
    var keys: [Key] { get }
    /// The values, in key order.
    var values: [Value] { get }
    /// The value under `key`, or nil.
    subscript(key: Key) -> Value? { get set }
    /// Stores `value` under `key`.
    func updateValue(_ value: Value, forKey key: Key)
    /// Removes `key` and its value.
    func removeObject(for key: Key)
    /// Removes every entry.
    func removeAll()
}

extension Map: RealmKeyedCollection {}
