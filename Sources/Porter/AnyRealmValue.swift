import Foundation

/// A value of any supported scalar type, null, or a link to a top-level object: Realm's
/// `AnyRealmValue`, stored as `mixed`. A `@Persisted var extra: AnyRealmValue` starts as `.none`.
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
    /// A date (microsecond precision when stored).
    case date(Date)
    /// A link to a top-level object (embedded objects cannot be held here).
    case object(Object)
    /// An ObjectId.
    case objectId(ObjectId)
    /// A 128-bit decimal.
    case decimal128(Decimal128)
    /// A UUID.
    case uuid(UUID)

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
    /// The object held, if it is a `T`.
    @available(*, deprecated, renamed: "objectValue(_:)")
    public func object<T: Object>(_ type: T.Type) -> T? { if case .object(let o) = self { return o as? T } else { return nil } }

    /// Stored as `mixed` (always nullable).
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.mixed) }
    /// `.none`.
    public static func _porterDefault() -> AnyRealmValue { .none }

    /// The value a stored `mixed` holds; a link becomes the managed object.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> AnyRealmValue {
        switch value {
        case .null: return .none
        case .int(let i):
            guard let v = Int(exactly: i) else { throw PorterError(.invalidValue, "stored value \(i) is out of range for Int") }
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
        case .list, .set, .map, .object:
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
        }
    }

    /// A held object is copied; everything else is a value already.
    public func _porterDetached(_ copier: _DetachCopier) -> AnyRealmValue {
        if case .object(let o) = self { return .object(copier.detached(o)) }
        return self
    }
}
