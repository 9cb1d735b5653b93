/// The base type of a property (without optionality or collection kind).
public enum PropertyType: String, Sendable, Hashable, CaseIterable {
    /// Boolean.
    case bool
    /// 64-bit integer.
    case int
    /// 32-bit float.
    case float
    /// 64-bit double.
    case double
    /// UTF-8 string.
    case string
    /// Binary data.
    case data
    /// Date with nanosecond precision (seconds + nanoseconds, as realm-core).
    case date
    /// IEEE 754-2008 128-bit decimal.
    case decimal128
    /// 12-byte ObjectId.
    case objectId
    /// UUID.
    case uuid
    /// AnyRealmValue: null, any primitive or a link to any top-level object.
    case mixed
    /// A link to an object of the class named by `Property.objectType`.
    case object
    /// The computed inverse of a link property (`Property.objectType` + `Property.linkOriginProperty`).
    case linkingObjects

    /// The names used in schema files for the primitive types.
    public static let primitiveNames: [String: PropertyType] = [
        "bool": .bool, "int": .int, "float": .float, "double": .double, "string": .string,
        "data": .data, "date": .date, "decimal128": .decimal128, "objectId": .objectId,
        "uuid": .uuid, "mixed": .mixed,
    ]

    /// Whether values of this type are stored (everything but `linkingObjects`).
    public var isPersisted: Bool { self != .linkingObjects }

    /// The name Realm uses in messages (`object id`, `decimal`, …) where it differs from ours.
    public var realmName: String {
        switch self {
        case .objectId: return "object id"
        case .decimal128: return "decimal"
        case .linkingObjects: return "linking objects"
        default: return rawValue
        }
    }
}

/// Whether a property holds one value or a collection of values.
public enum CollectionKind: String, Sendable, Hashable, CaseIterable {
    /// A single value.
    case none
    /// An ordered list (`T[]`), duplicates allowed.
    case list
    /// A set of unique values (`T<>`).
    case set
    /// A map from non-empty string keys to values (`T{}`).
    case map
}
