import Foundation
import PorterModel

extension ExtendedJSON {
    /// `{"$binary": {"base64": …, "subType": …}}` (keys in any order).
    static func binary(_ value: DocumentValue) throws(Failure) -> DocumentValue {
        guard case .document(let inner) = value else {
            throw fail(
                "invalid Extended JSON $binary: expected a document with 'base64' and 'subType' (or the legacy form with '$type'), got \(value.kindDescription)"
            )
        }
        let keys = inner.fields.map(\.key)
        guard keys.count == 2, Set(keys) == ["base64", "subType"] else {
            throw fail(
                "invalid Extended JSON $binary: expected exactly the fields 'base64' and 'subType', got \(keys.map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        return try binaryValue(base64: inner["base64"] ?? .null, subtype: inner["subType"] ?? .null, wrapper: "$binary")
    }

    /// The legacy `{"$binary": "<base64>", "$type": "<hex>"}` form.
    static func legacyBinary(_ doc: Document) throws(Failure) -> DocumentValue {
        let keys = doc.fields.map(\.key)
        guard keys.count == 2 else {
            throw fail("invalid Extended JSON $binary (legacy form): expected exactly '$binary' and '$type'")
        }
        return try binaryValue(base64: doc["$binary"] ?? .null, subtype: doc["$type"] ?? .null, wrapper: "$binary")
    }

    private static func binaryValue(base64: DocumentValue, subtype: DocumentValue, wrapper: String) throws(Failure)
        -> DocumentValue
    {
        guard case .string(let text) = base64 else {
            throw fail("invalid Extended JSON \(wrapper): 'base64' must be a string, got \(base64.kindDescription)")
        }
        guard case .string(let hex) = subtype, (1...2).contains(hex.utf8.count), let type = UInt8(hex, radix: 16),
            hex.utf8.allSatisfy({ hexNibbleValue($0) != nil })
        else {
            throw fail(
                "invalid Extended JSON \(wrapper): 'subType' must be a string of one or two hexadecimal digits, got \(subtype.shortDescription)"
            )
        }
        guard let data = Data(base64Encoded: text) else {
            throw fail("invalid Extended JSON \(wrapper): '\(abbreviated(text))' is not valid base64")
        }
        return .binary(data, subtype: type)
    }

    /// `{"$date": {"$numberLong": "…"}}` (canonical), `{"$date": "ISO-8601"}` (relaxed) or
    /// `{"$date": 1356351330500}` (legacy: milliseconds as a bare number).
    static func date(_ value: DocumentValue) throws(Failure) -> DocumentValue {
        switch value {
        case .int64, .int32, .double:
            let ms: Int64?
            switch value {
            case .int64(let n): ms = n
            case .int32(let n): ms = Int64(n)
            case .double(let d): ms = Int64(exactly: d)
            default: ms = nil
            }
            guard let ms else {
                throw fail(
                    "invalid Extended JSON $date: \(value.shortDescription) is not a whole number of milliseconds")
            }
            return .dateTime(Timestamp(milliseconds: ms))
        case .string(let text):
            do { return .dateTime(try Timestamp(iso8601: text)) } catch let error as PorterError {
                throw fail("invalid Extended JSON $date: \(error.message)")
            } catch { throw fail("invalid Extended JSON $date") }
        case .document(let inner):
            guard inner.fields.count == 1, let only = inner.fields.first, only.key == "$numberLong",
                case .string(let text) = only.value, isPlainInteger(text), let ms = Int64(text)
            else {
                throw fail(
                    "invalid Extended JSON $date: expected {\"$numberLong\": \"<milliseconds>\"} or an ISO-8601 string")
            }
            return .dateTime(Timestamp(milliseconds: ms))
        default:
            throw fail(
                "invalid Extended JSON $date: expected {\"$numberLong\": \"<milliseconds>\"} or an ISO-8601 string, got \(value.kindDescription)"
            )
        }
    }

    /// `{"$ref": "Class", "$id": …}` with an optional `$db`: how a mixed value names a link.
    static func dbRef(_ doc: Document) throws(Failure) -> DocumentValue? {
        let keys = doc.fields.map(\.key)
        // A DBRef may carry extra fields by its spec; Porter cannot keep them, so such a document
        // stays an ordinary document (and a mixed property rejects it with a clear message).
        guard Set(keys).isSubset(of: ["$ref", "$id", "$db"]), keys.count == Set(keys).count else { return nil }
        guard case .string(let className)? = doc["$ref"] else {
            throw fail("invalid DBRef: '$ref' must be a class name string")
        }
        guard let id = doc["$id"] else { throw fail("invalid DBRef: missing '$id'") }
        do {
            return .dbRef(className: className, id: try decode(id))
        } catch {
            throw Failure(path: ["$id"] + error.path, message: error.message)
        }
    }

    /// Wrappers of BSON types Porter does not store: checked for shape, then reported by name.
    static func unsupportedForm(_ key: String, _ value: DocumentValue, _ doc: Document) throws(Failure) -> DocumentValue
    {
        switch key {
        case "$symbol":
            guard case .string = value else { throw fail("invalid Extended JSON $symbol: expected a string") }
            return .unsupported("symbol")
        case "$code":
            guard case .string = value else { throw fail("invalid Extended JSON $code: expected a string") }
            if let scope = doc["$scope"] {
                guard case .document = scope else {
                    throw fail("invalid Extended JSON $code: '$scope' must be a document")
                }
                return .unsupported("JavaScript code with scope")
            }
            return .unsupported("JavaScript code")
        case "$timestamp":
            guard case .document(let inner) = value, inner.fields.count == 2,
                Set(inner.fields.map(\.key)) == ["t", "i"],
                case .int64 = inner["t"] ?? .null, case .int64 = inner["i"] ?? .null
            else {
                throw fail("invalid Extended JSON $timestamp: expected {\"t\": <uint32>, \"i\": <uint32>}")
            }
            return .unsupported("timestamp")
        case "$regularExpression":
            guard case .document(let inner) = value, inner.fields.count == 2,
                Set(inner.fields.map(\.key)) == ["pattern", "options"],
                case .string = inner["pattern"] ?? .null, case .string = inner["options"] ?? .null
            else {
                throw fail(
                    "invalid Extended JSON $regularExpression: expected {\"pattern\": <string>, \"options\": <string>}")
            }
            return .unsupported("regular expression")
        case "$regex":
            guard case .string = value, case .string = doc["$options"] ?? .string("") else {
                throw fail("invalid Extended JSON $regex: expected {\"$regex\": <string>, \"$options\": <string>}")
            }
            return .unsupported("regular expression")
        case "$dbPointer":
            guard case .document(let inner) = value, inner.fields.count == 2,
                Set(inner.fields.map(\.key)) == ["$ref", "$id"],
                case .string = inner["$ref"] ?? .null, case .document = inner["$id"] ?? .null
            else {
                throw fail("invalid Extended JSON $dbPointer: expected {\"$ref\": <string>, \"$id\": {\"$oid\": …}}")
            }
            return .unsupported("DBPointer")
        default:
            return .unsupported(key)
        }
    }
}

/// The value of one ASCII hex digit.
package func hexNibbleValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// UUID conversions shared by the readers and writers of every format.
package enum UUIDCodec {
    /// Parses exactly `8-4-4-4-12` hexadecimal digits (either case).
    package static func parse(_ text: String) -> UUID? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(16)
        var i = 0
        while i < 36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard bytes[i] == UInt8(ascii: "-") else { return nil }
                i += 1
                continue
            }
            guard let hi = hexNibbleValue(bytes[i]), let lo = hexNibbleValue(bytes[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return uuid(bytes: out)
    }

    /// Parses exactly 32 hexadecimal digits without dashes (Python's `uuid.hex`).
    package static func parse(hex32 text: String) -> UUID? {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(16)
        for i in stride(from: 0, to: 32, by: 2) {
            guard let hi = hexNibbleValue(bytes[i]), let lo = hexNibbleValue(bytes[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return uuid(bytes: out)
    }

    /// The 16 bytes of a UUID in canonical (network) order, as BSON subtype 4 stores them.
    package static func bytes(_ u: UUID) -> [UInt8] {
        withUnsafeBytes(of: u.uuid) { Array($0) }
    }

    /// A UUID from exactly 16 bytes in canonical order.
    package static func uuid<C: Collection>(bytes: C) -> UUID? where C.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }

    /// The canonical lowercase string.
    package static func string(_ u: UUID) -> String { u.uuidString.lowercased() }
}
