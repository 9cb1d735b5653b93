import PorterCJSONC
import Foundation
import PorterDocument
import PorterModel

/// The plain JSON spelling of each value, built as json-c objects.
enum PlainJSONForms {
    /// A plain JSON scalar.
    enum Scalar {
        case null
        case bool(Bool)
        case int(Int64)
        /// A finite number with the text to print (the shortest that reads back exactly).
        case number(Double, String)
        case string(String)
    }

    /// A typed property's value: hex ids, ISO dates, base64 data, strings for what JSON numbers cannot hold.
    static func typedPlain(_ value: Value) -> Scalar {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return f.isFinite ? .number(Double(f), f.description) : .string(special(Double(f)))
        case .double(let d): return d.isFinite ? .number(d, d.description) : .string(special(d))
        case .string(let s): return .string(s)
        case .data(let d): return .string(d.base64EncodedString())
        case .date(let t): return .string(t.iso8601)
        case .decimal128(let d): return .string(d.description)
        case .objectId(let o): return .string(o.stringValue)
        case .uuid(let u): return .string(UUIDCodec.string(u))
        case .link, .list, .set, .map, .object: return .null
        }
    }

    /// A mixed value that plain JSON says without a wrapper: null, bool, int, finite numbers
    /// (a float is widened to double, as in BSON; Swift's shortest text always has a `.` or an
    /// exponent, so it reads back as a double, never an int), and strings.
    static func mixedPlain(_ value: Value) -> Scalar {
        switch value {
        case .float(let f): return .number(Double(f), Double(f).description)
        default: return typedPlain(value)
        }
    }

    /// The one-key Extended JSON wrapper a mixed value needs in plain JSON (data, which needs
    /// the two-level `$binary` form, is written by the encoder itself).
    static func mixedWrapper(_ value: Value) -> (String, Scalar)? {
        switch value {
        case .double(let d) where !d.isFinite: return ("$numberDouble", .string(special(d)))
        case .float(let f) where !f.isFinite: return ("$numberDouble", .string(special(Double(f))))
        case .date(let t): return ("$date", .string(t.iso8601))
        case .decimal128(let d): return ("$numberDecimal", .string(d.description))
        case .objectId(let o): return ("$oid", .string(o.stringValue))
        case .uuid(let u): return ("$uuid", .string(UUIDCodec.string(u)))
        default: return nil
        }
    }

    static func special(_ d: Double) -> String {
        d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity")
    }

    /// A new json-c object for a scalar (nil is json-c's null).
    static func make(_ scalar: Scalar) throws -> OpaquePointer? {
        switch scalar {
        case .null: return nil
        case .bool(let b): return try allocated(json_object_new_boolean(b ? 1 : 0))
        case .int(let i): return try allocated(json_object_new_int64(i))
        case .number(let d, let text): return try allocated(json_object_new_double_s(d, text))
        case .string(var s):
            return try s.withUTF8 { utf8 in
                try utf8.withMemoryRebound(to: CChar.self) { chars in
                    try "".withCString { empty in
                        try allocated(json_object_new_string_len(chars.baseAddress ?? empty, Int32(chars.count)))
                    }
                }
            }
        }
    }

    private static func allocated(_ object: OpaquePointer?) throws -> OpaquePointer {
        guard let object else { throw PorterError(.io, "json-c could not allocate memory") }
        return object
    }
}
