import Foundation

/// Accessors the writer's encoders use on values already checked against their column.
extension RealmValue {
    /// The integer, or nil.
    var writerInt: Int64? {
        if case .int(let v) = self { return v }
        return nil
    }

    /// The bytes of a string or binary, or nil for null.
    var writerBytes: [UInt8]? {
        switch self {
        case .string(let s): return Array(s.utf8)
        case .binary(let d): return [UInt8](d)
        default: return nil
        }
    }
}

extension RealmValue {
    /// The kind of value, for messages.
    var writerKind: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .binary: return "data"
        case .timestamp: return "date"
        case .decimal128: return "decimal128"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .link(let c, _): return "link to \(c)"
        case .embedded(let c, _, _): return "embedded \(c)"
        case .list: return "list"
        case .set: return "set"
        case .dictionary: return "dictionary"
        }
    }
}
