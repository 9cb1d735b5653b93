import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// A problem with one field of one document; `path` is the dotted field path.
struct FieldError: Error {
    var path: String
    var message: String
}

/// Reads decoded values as property types, accepting every form the issue lists for each type:
/// Extended JSON (already typed by the reader), the plain JSON forms, and exact numeric widenings.
/// Nothing is converted silently when it would lose information.
enum ScalarReader {
    /// Reads a non-null value as a scalar of `type` (not `mixed`, not a link).
    static func read(_ value: DocumentValue, as type: PropertyType) throws(FieldErrorMessage) -> Value {
        switch type {
        case .bool:
            if case .bool(let b) = value { return .bool(b) }
        case .int:
            switch value {
            case .int32(let i): return .int(Int64(i))
            case .int64(let i): return .int(i)
            case .double(let d):
                // -2^63 is excluded: it is also what an out-of-range JSON integer literal such as
                // -9223372036854775809 rounds to, and Int64.min itself is written as an integer.
                guard let i = Int64(exactly: d), d != -0x1p63 else {
                    throw FieldErrorMessage(
                        "expected an integer but got a double \(d) that is not an integer in the 64-bit range")
                }
                return .int(i)
            case .decimal128(let d):
                guard let i = d.exactInt64 else {
                    throw FieldErrorMessage(
                        "expected an integer but got a decimal128 \(d) that is not an integer in the 64-bit range")
                }
                return .int(i)
            default: break
            }
        case .float:
            switch value {
            case .double(let d):
                let f = Float(d)
                if f.isInfinite && d.isFinite {
                    throw FieldErrorMessage("double \(d) is outside the range of a float")
                }
                return .float(f)
            case .int32(let i): return .float(Float(i))
            case .int64(let i): return .float(Float(i))
            case .string(let s):
                if let d = specialDouble(s) { return .float(Float(d)) }
            default: break
            }
        case .double:
            switch value {
            case .double(let d): return .double(d)
            case .int32(let i): return .double(Double(i))
            case .int64(let i):
                guard let d = Double(exactly: i) else {
                    throw FieldErrorMessage("integer \(i) cannot be represented exactly as a double")
                }
                return .double(d)
            case .string(let s):
                if let d = specialDouble(s) { return .double(d) }
            default: break
            }
        case .string:
            if case .string(let s) = value {
                try checkSize(s.utf8.count, "string")
                return .string(s)
            }
        case .data:
            switch value {
            case .binary(let d, 0), .binary(let d, 2):
                try checkSize(d.count, "data")
                return .data(d)
            case .binary(_, let subtype):
                throw FieldErrorMessage("expected binary data (subtype 0) but got binary subtype 0x\(hexByte(subtype))")
            case .string(let s):
                guard let d = Data(base64Encoded: s) else {
                    throw FieldErrorMessage(
                        "expected base64 data but got a string that is not valid base64 ('\(abbreviated(s))')")
                }
                try checkSize(d.count, "data")
                return .data(d)
            default: break
            }
        case .date:
            switch value {
            case .dateTime(let t): return .date(t)
            case .string(let s):
                do { return .date(try Timestamp(iso8601: s)) } catch let error as PorterError {
                    throw FieldErrorMessage(error.message)
                } catch { break }
            default: break
            }
        case .decimal128:
            switch value {
            case .decimal128(let d): return .decimal128(d)
            case .int32(let i): return .decimal128(Decimal128(Int64(i)))
            case .int64(let i): return .decimal128(Decimal128(i))
            case .double(let d):
                return try decimal(
                    d.isNaN ? "NaN" : (d.isInfinite ? (d < 0 ? "-Infinity" : "Infinity") : d.description))
            case .string(let s): return try decimal(s)
            default: break
            }
        case .objectId:
            switch value {
            case .objectId(let o): return .objectId(o)
            case .string(let s):
                do { return .objectId(try ObjectId(string: s)) } catch let error as PorterError {
                    throw FieldErrorMessage(error.message)
                } catch { break }
            default: break
            }
        case .uuid:
            switch value {
            case .binary(let d, 4):
                guard let u = UUIDCodec.uuid(bytes: d) else {
                    throw FieldErrorMessage("binary subtype 0x04 (UUID) must hold 16 bytes, not \(d.count)")
                }
                return .uuid(u)
            case .binary(_, 3):
                throw FieldErrorMessage(
                    "binary subtype 0x03 is a legacy UUID whose byte order depends on the driver that wrote it; convert it to subtype 0x04"
                )
            case .string(let s):
                guard let u = UUIDCodec.parse(s) else {
                    throw FieldErrorMessage("invalid UUID '\(abbreviated(s))': expected 8-4-4-4-12 hexadecimal digits")
                }
                return .uuid(u)
            default: break
            }
        case .mixed, .object, .linkingObjects:
            break
        }
        throw FieldErrorMessage("expected \(expectation(type)) but got \(value.shortDescription)")
    }

    /// How a type may be written, for messages.
    static func expectation(_ type: PropertyType) -> String {
        switch type {
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .float: return "a number (float)"
        case .double: return "a number (double)"
        case .string: return "a string"
        case .data: return "binary data (subtype 0) or a base64 string"
        case .date: return "a date ($date or an ISO 8601 string)"
        case .decimal128: return "a decimal128 ($numberDecimal, a decimal string or a number)"
        case .objectId: return "an ObjectId ($oid or 24 hexadecimal digits)"
        case .uuid: return "a UUID (binary subtype 4, $uuid or a UUID string)"
        case .mixed: return "a mixed value"
        case .object: return "a link"
        case .linkingObjects: return "nothing (linkingObjects are computed)"
        }
    }

    /// `NaN`, `Infinity`, `-Infinity`: how plain JSON writes the doubles JSON numbers cannot hold.
    static func specialDouble(_ s: String) -> Double? {
        switch s {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    private static func decimal(_ text: String) throws(FieldErrorMessage) -> Value {
        do { return .decimal128(try Decimal128(string: text)) } catch let error as PorterError {
            throw FieldErrorMessage(error.message)
        } catch { throw FieldErrorMessage("invalid decimal128 '\(text)'") }
    }

    /// Strings and data are limited to 16 MB, as in the store (checked here to name the field).
    static func checkSize(_ count: Int, _ what: String) throws(FieldErrorMessage) {
        if count > Database.maxBinarySize {
            throw FieldErrorMessage("\(what) of \(count) bytes exceeds the 16 MB limit")
        }
    }
}

/// A message about a value, before the reader knows the field path.
struct FieldErrorMessage: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
