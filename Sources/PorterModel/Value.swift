import Foundation

/// One value of the object engine: what a property holds, what the dynamic API reads and writes,
/// and what the interchange formats encode. The same type is used by every module.
///
/// Scalars map one-to-one onto the property types. Collections are `.list`, `.set` and `.map`;
/// `.object` carries the fields of an embedded object (or of an object to create inline), and
/// `.link` refers to an existing top-level object. A `mixed` value may itself be a `.list` or a
/// `.map` of mixed values, nested to any depth (Realm's nested collections in `AnyRealmValue`).
public enum Value: Sendable, Hashable {
    /// No value (an optional property that is unset, or a `mixed` holding null).
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit integer.
    case int(Int64)
    /// A 32-bit float.
    case float(Float)
    /// A 64-bit double.
    case double(Double)
    /// A UTF-8 string.
    case string(String)
    /// Binary data.
    case data(Data)
    /// A point in time (nanosecond precision, any int64 of seconds).
    case date(Timestamp)
    /// A 128-bit decimal.
    case decimal128(Decimal128)
    /// A 12-byte ObjectId.
    case objectId(ObjectId)
    /// A UUID.
    case uuid(UUID)
    /// A link to an existing object.
    case link(ObjectLink)
    /// An ordered list (duplicates allowed); in a `mixed`, a nested list of mixed values.
    case list([Value])
    /// A set (unique elements; order carries no meaning).
    case set([Value])
    /// A map with string keys; in a `mixed`, a nested dictionary of mixed values.
    case map([String: Value])
    /// The fields of an embedded object, or of an object to create with its parent.
    case object([String: Value])

    /// Whether this is `.null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A short name of the value's kind, as used in error messages (`int`, `string`, `list`, …).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .decimal128: return "decimal128"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .link(let l): return "link to \(l.className)"
        case .list: return "list"
        case .set: return "set"
        case .map: return "map"
        case .object: return "object"
        }
    }

    /// The base property type a scalar value has, or nil for null, links and collections.
    public var scalarType: PropertyType? {
        switch self {
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .data
        case .date: return .date
        case .decimal128: return .decimal128
        case .objectId: return .objectId
        case .uuid: return .uuid
        default: return nil
        }
    }
}
