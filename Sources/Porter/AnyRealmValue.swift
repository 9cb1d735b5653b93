import Foundation

/// A value of any supported scalar type, null, a link to a top-level object, or a list or
/// dictionary of such values nested to any depth: Realm's `AnyRealmValue` (10.51+), stored as
/// `mixed`. A `@Persisted var extra: AnyRealmValue` starts as `.none`.
///
/// Nested collections are value snapshots, not live views: reading the property gives an
/// unmanaged `List`/`Map` of what is stored, and changing one changes the database only when the
/// property is assigned again (`obj.extra = .list(list)`).
public enum AnyRealmValue: RealmCollectionValue {
    /// Null.
    case none
    /// An integer.
    case int(Int)
    /// A boolean.
    case bool(Bool)
    /// A 32-bit float.
    case float(Float)
    /// A 64-bit double.
    case double(Double)
    /// A string.
    case string(String)
    /// Binary data.
    case data(Data)
    /// A date (stored to the nanosecond; a `Date` itself holds less far from 1970).
    case date(Date)
    /// A link to a top-level object (embedded objects cannot be held here).
    case object(Object)
    /// An ObjectId.
    case objectId(ObjectId)
    /// A 128-bit decimal.
    case decimal128(Decimal128)
    /// A UUID.
    case uuid(UUID)
    /// A list of mixed values (a snapshot: assign the property again to store changes).
    case list(List<AnyRealmValue>)
    /// A dictionary of mixed values (a snapshot: assign the property again to store changes).
    case dictionary(Map<String, AnyRealmValue>)

    /// The integer held, if any.
    public var intValue: Int? { if case .int(let v) = self { return v } else { return nil } }
    /// The string held, if any.
    public var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The boolean held, if any.
    public var boolValue: Bool? { if case .bool(let v) = self { return v } else { return nil } }
    /// The double held, if any.
    public var doubleValue: Double? { if case .double(let v) = self { return v } else { return nil } }
    /// The date held, if any.
    public var dateValue: Date? { if case .date(let v) = self { return v } else { return nil } }
    /// The list held, if any.
    public var listValue: List<AnyRealmValue>? { if case .list(let v) = self { return v } else { return nil } }
    /// The dictionary held, if any.
    public var dictionaryValue: Map<String, AnyRealmValue>? {
        if case .dictionary(let v) = self { return v } else { return nil }
    }
    /// The object held, if it is a `T`.
    @available(*, deprecated, renamed: "objectValue(_:)")
    public func object<T: Object>(_ type: T.Type) -> T? {
        if case .object(let o) = self { return o as? T } else { return nil }
    }

    /// Stored as `mixed` (always nullable).
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.mixed) }
    /// `.none`.
    public static func _porterDefault() -> AnyRealmValue { .none }

    /// The value a stored `mixed` holds; a link becomes the managed object.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> AnyRealmValue {
        switch value {
        case .null: return .none
        case .int(let i):
            guard let v = Int(exactly: i) else {
                throw PorterError(.invalidValue, "stored value \(i) is out of range for Int")
            }
            return .int(v)
        case .bool(let b): return .bool(b)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data(d)
        case .date(let t): return .date(t.date)
        case .objectId(let o): return .objectId(o)
        case .decimal128(let d): return .decimal128(d)
        case .uuid(let u): return .uuid(u)
        case .link(let link):
            guard let realm else { throw PorterError(.usage, "a link can only be read through a realm") }
            guard let object = try realm.managedObject(for: link) as? Object else {
                throw PorterError(.invalidValue, "a mixed value cannot hold the embedded object \(link)")
            }
            return .object(object)
        case .list(let items):
            return .list(List(try items.map { try _porterDecode($0, realm) }))
        case .map(let entries):
            return .dictionary(Map(try entries.mapValues { try _porterDecode($0, realm) }))
        case .set, .object:
            throw mismatch(value, AnyRealmValue.self)
        }
    }

    /// The stored `mixed` value; an unmanaged object is added to the realm first.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        switch self {
        case .none: return .null
        case .int(let v): return .int(Int64(v))
        case .bool(let v): return .bool(v)
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .data(let v): return .data(v)
        case .date(let v): return .date(Timestamp(v))
        case .object(let o): return try writer.link(to: o)
        case .objectId(let v): return .objectId(v)
        case .decimal128(let v): return .decimal128(v)
        case .uuid(let v): return .uuid(v)
        case .list(let l): return .list(try l.elements.map { try $0._porterEncode(writer) })
        case .dictionary(let m): return .map(try m.dictionary.mapValues { try $0._porterEncode(writer) })
        }
    }

    /// A held object is copied; everything else is a value already.
    public func _porterDetached(_ copier: _DetachCopier) -> AnyRealmValue {
        switch self {
        case .object(let o): return .object(copier.detached(o))
        case .list(let l): return .list(l._porterDetached(copier))
        case .dictionary(let m): return .dictionary(m._porterDetached(copier))
        default: return self
        }
    }
}

extension AnyRealmValue: Hashable {
    /// Equal kinds with equal contents; nested collections compare their elements.
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): return true
        case (.int(let a), .int(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        case (.objectId(let a), .objectId(let b)): return a == b
        case (.decimal128(let a), .decimal128(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.list(let a), .list(let b)): return a.elements == b.elements
        case (.dictionary(let a), .dictionary(let b)): return a.dictionary == b.dictionary
        default: return false
        }
    }

    /// Hashes the kind and contents.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(0)
        case .int(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .float(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .data(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v)
        case .object(let v): hasher.combine(v)
        case .objectId(let v): hasher.combine(v)
        case .decimal128(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .list(let l): hasher.combine(l.elements)
        case .dictionary(let m): hasher.combine(m.dictionary)
        }
    }
}
