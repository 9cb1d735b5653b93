import Foundation
import PorterModel

/// One value of a decoded input document, before it is read against the schema.
///
/// Readers of every format (BSON, Extended JSON, plain JSON) produce this representation; the
/// import engine then reads it by the schema, accepting the lenient forms each property type
/// allows. It keeps what the input said (an int32 stays an int32, a UUID stays binary subtype 4)
/// so error messages can name exactly what was found. Only `dbRef` is indirect: boxing every
/// value would cost one allocation per field.
package enum DocumentValue: Sendable, Equatable {
    /// `null`.
    case null
    /// A boolean.
    case bool(Bool)
    /// A 32-bit integer (BSON int32, `{"$numberInt": …}`).
    case int32(Int32)
    /// A 64-bit integer (BSON int64, `{"$numberLong": …}`, a JSON integer).
    case int64(Int64)
    /// A double (BSON double, `{"$numberDouble": …}`, a JSON number with a fraction or exponent).
    case double(Double)
    /// A string.
    case string(String)
    /// Binary data with its BSON subtype.
    case binary(Data, subtype: UInt8)
    /// An ObjectId.
    case objectId(ObjectId)
    /// A UTC datetime (BSON datetime in milliseconds, or `{"$date": …}` with up to nanoseconds).
    case dateTime(Timestamp)
    /// A decimal128.
    case decimal128(Decimal128)
    /// An embedded document.
    case document(Document)
    /// An array.
    case array([DocumentValue])
    /// A DBRef `{ "$ref": class, "$id": value }`: how a `mixed` property holds a link.
    indirect case dbRef(className: String, id: DocumentValue)
    /// A BSON type Porter cannot store (regular expression, timestamp, code, …), by name.
    case unsupported(String)

    /// What the value is, for error messages: `a string`, `an int32`, `binary subtype 0x04`, ….
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int32: return "an int32"
        case .int64: return "an int64"
        case .double: return "a double"
        case .string: return "a string"
        case .binary(_, let subtype): return "binary subtype 0x\(hexByte(subtype))"
        case .objectId: return "an ObjectId"
        case .dateTime: return "a date"
        case .decimal128: return "a decimal128"
        case .document: return "a document"
        case .array: return "an array"
        case .dbRef: return "a DBRef"
        case .unsupported(let name): return "a BSON \(name)"
        }
    }

    /// The kind with a short rendering of the value, for messages (`a string 'abc'`, `an int64 7`).
    package var shortDescription: String {
        switch self {
        case .bool(let b): return "\(kindDescription) \(b)"
        case .int32(let i): return "\(kindDescription) \(i)"
        case .int64(let i): return "\(kindDescription) \(i)"
        case .double(let d): return "\(kindDescription) \(d)"
        case .string(let s): return "\(kindDescription) '\(abbreviated(s))'"
        case .objectId(let o): return "\(kindDescription) \(o.stringValue)"
        case .dateTime(let t): return "\(kindDescription) \(t.iso8601)"
        case .decimal128(let d): return "\(kindDescription) \(d)"
        default: return kindDescription
        }
    }
}

/// An ordered document: fields in input order, duplicates kept so the reader can report them.
package struct Document: Sendable, Equatable {
    /// The fields in input order.
    package var fields: [(key: String, value: DocumentValue)]

    /// Creates a document from fields in order.
    package init(_ fields: [(key: String, value: DocumentValue)] = []) {
        self.fields = fields
    }

    /// The value of the first field named `key`.
    package subscript(key: String) -> DocumentValue? {
        fields.first { $0.key == key }?.value
    }

    /// Compares fields in order (tuples are not `Equatable`, so this is spelled out).
    package static func == (lhs: Document, rhs: Document) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// Two lowercase hex digits.
package func hexByte(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}

/// A string cut to 60 characters for messages, with control characters escaped so a message
/// stays on one line.
package func abbreviated(_ s: String) -> String {
    var out = ""
    var count = 0
    for scalar in s.unicodeScalars {
        if count == 60 { return out + "…" }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return out
}
