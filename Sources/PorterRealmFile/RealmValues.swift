import PorterModel

/// Conversions between a Realm file's values and Porter's, in both directions (the one place
/// they are made: export, import, migration and the writer's sources all use them).
public enum RealmValues {
    /// A scalar (or null); links and collections are the caller's.
    /// - Throws: `PorterError` (`notADatabase`) for a link or collection, naming `location`.
    public static func scalar(_ stored: RealmValue, location: String) throws -> Value {
        guard let value = scalarValue(stored) else {
            throw PorterError(
                .notADatabase, "unexpected \(kind(stored)) where a single value is stored", location: location)
        }
        return value
    }

    /// A stored value as the typed API keeps it in a row: scalars as ``scalarValue(_:)``, a link
    /// or an embedded object as a `.link` to it (the typed API makes its object), collections
    /// element by element.
    package static func rowValue(_ stored: RealmValue) -> Value {
        if let scalar = scalarValue(stored) { return scalar }
        switch stored {
        case .link(let className, let key), .embedded(let className, let key, _):
            return .link(ObjectLink(className, ObjectKey(key)))
        case .list(let elements): return .list(elements.map(rowValue))
        case .set(let elements): return .set(elements.map(rowValue))
        case .dictionary(let entries):
            return .map(Dictionary(entries.map { ($0.key, rowValue($0.value)) }, uniquingKeysWith: { _, last in last }))
        default: return .null  // A scalar: converted above.
        }
    }

    /// A scalar (or null) as ``scalar(_:location:)`` converts it; nil for a link or collection.
    /// Inlinable and not throwing: the typed API converts every value of every row it reads
    /// (through `scalar`, a conversion cost about 130 instructions).
    @inlinable package static func scalarValue(_ stored: RealmValue) -> Value? {
        switch stored {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .binary(let d): return .data(d)
        case .timestamp(let seconds, let nanoseconds):
            return .date(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case .decimal128(let d): return .decimal128(d)
        case .objectId(let o): return .objectId(o)
        case .uuid(let u): return .uuid(u)
        case .link, .embedded, .list, .set, .dictionary: return nil
        }
    }

    /// A `mixed` value: a scalar, a link to any class, or a list or dictionary nested in it.
    package static func mixed(_ stored: RealmValue, location: String) throws -> Value {
        switch stored {
        case .link(let className, let key): return .link(ObjectLink(className, ObjectKey(key)))
        case .list(let elements): return .list(try elements.map { try mixed($0, location: location) })
        case .dictionary(let entries):
            var map: [String: Value] = [:]
            map.reserveCapacity(entries.count)
            for entry in entries { map[entry.key] = try mixed(entry.value, location: location) }
            return .map(map)
        default: return try scalar(stored, location: location)
        }
    }

    /// What a stored value is, for messages.
    package static func kind(_ stored: RealmValue) -> String {
        switch stored {
        case .link: return "link"
        case .embedded: return "embedded object"
        case .list: return "list"
        case .set: return "set"
        case .dictionary: return "dictionary"
        default: return "value"
        }
    }
}

extension RealmValues {
    /// A Porter value (a scalar, a link, or a collection nested in a mixed) as a Realm file holds it.
    /// - Throws: `PorterError` for a value a Realm file cannot hold, naming `location`.
    public static func realm(_ value: Value, location: String) throws -> RealmValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .binary(d)
        case .date(let t): return .timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds)
        case .decimal128(let d): return .decimal128(d)
        case .objectId(let o): return .objectId(o)
        case .uuid(let u): return .uuid(u)
        case .link(let link): return .link(className: link.className, key: link.key.rawValue)
        case .list(let elements): return .list(try elements.map { try realm($0, location: location) })
        case .set(let elements): return .set(try elements.map { try realm($0, location: location) })
        case .map(let entries):
            return .dictionary(
                try entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
                    RealmDictionaryEntry(key: $0, value: try realm(entries[$0] ?? .null, location: location))
                })
        case .object:
            throw PorterError(.notADatabase, "an embedded object where a value is stored", location: location)
        }
    }
}
