import Foundation
import PorterModel

/// Reading Extended JSON type wrappers (`{"$oid": …}`, `{"$date": …}`, …) out of JSON documents,
/// per the Extended JSON v2 specification (canonical and relaxed), plus the legacy forms that
/// pymongo's `LEGACY_JSON_OPTIONS`, libbson's legacy `bson_as_json` and mongoimport use:
/// `{"$date": <milliseconds>}`, `{"$binary": …, "$type": …}`, `{"$uuid": "<32 hex digits>"}`,
/// int64 values as bare numbers, and `{"$regex": …, "$options": …}` (refused: no Realm type).
///
/// JSON readers build a *raw* tree (objects as documents, numbers as int64/double) and call
/// ``decode(_:)``, which replaces every wrapper by the typed value. Wrappers are strict: a wrapper
/// with a wrong value type or an extra field is an error, as the BSON corpus requires.
package enum ExtendedJSON {
    /// A malformed wrapper: `path` is relative to the value passed to ``decode(_:)``.
    package struct Failure: Error, Sendable {
        /// Field path of the wrapper inside the decoded value (may be empty).
        package var path: [String]
        /// What is wrong.
        package var message: String
    }

    /// Keys that make a document a type wrapper (the DBRef keys are handled separately).
    static let wrapperKeys: Set<String> = [
        "$oid", "$symbol", "$numberInt", "$numberLong", "$numberDouble", "$numberDecimal", "$binary",
        "$uuid", "$code", "$timestamp", "$regularExpression", "$regex", "$dbPointer", "$date",
        "$minKey", "$maxKey", "$undefined",
    ]

    /// Whether a raw document should go through ``decode(_:)`` (it has a `$`-prefixed key).
    package static func mayBeWrapper(_ key: String) -> Bool { key.utf8.first == UInt8(ascii: "$") }

    /// Replaces every Extended JSON wrapper in a raw JSON value by its typed value.
    package static func decode(_ value: DocumentValue) throws(Failure) -> DocumentValue {
        switch value {
        case .document(let doc):
            if let typed = try interpret(doc) { return typed }
            var out = Document()
            out.fields.reserveCapacity(doc.fields.count)
            for field in doc.fields {
                do {
                    out.fields.append((field.key, try decode(field.value)))
                } catch {
                    throw Failure(path: [field.key] + error.path, message: error.message)
                }
            }
            return .document(out)
        case .array(let elements):
            var out: [DocumentValue] = []
            out.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                do {
                    out.append(try decode(element))
                } catch {
                    throw Failure(path: [String(i)] + error.path, message: error.message)
                }
            }
            return .array(out)
        default:
            return value
        }
    }

    /// The typed value of a wrapper document, or nil when the document is an ordinary one.
    static func interpret(_ doc: Document) throws(Failure) -> DocumentValue? {
        guard let first = doc.fields.first,
            mayBeWrapper(first.key) || doc.fields.contains(where: { mayBeWrapper($0.key) })
        else { return nil }
        // The usual wrapper has one field: its value, without the key checks below (which
        // allocate), since one key can neither be a DBRef nor repeat nor have companions.
        if doc.fields.count == 1 {
            switch first.key {
            case "$oid", "$numberInt", "$numberLong", "$numberDouble", "$numberDecimal", "$binary", "$uuid", "$date":
                return try typed(first.key, first.value, doc)
            default:
                break
            }
        }
        let keys = doc.fields.map(\.key)
        if keys.contains("$ref") { return try dbRef(doc) }
        // The legacy binary form has two keys; a lone `$type` is a query operator, not a wrapper.
        if keys.contains("$binary"), keys.contains("$type") { return try legacyBinary(doc) }
        guard let key = keys.first(where: { wrapperKeys.contains($0) }) else { return nil }
        let allowedCompanions: Set<String> = key == "$code" ? ["$scope"] : (key == "$regex" ? ["$options"] : [])
        if let extra = keys.first(where: { $0 != key && !allowedCompanions.contains($0) }) {
            throw fail("invalid Extended JSON \(key): unexpected field '\(extra)'")
        }
        if keys.count != Set(keys).count { throw fail("invalid Extended JSON \(key): duplicate field") }
        return try typed(key, doc[key] ?? .null, doc)
    }

    /// The typed value of the wrapper `key` whose value is `value`.
    private static func typed(_ key: String, _ value: DocumentValue, _ doc: Document) throws(Failure) -> DocumentValue {
        switch key {
        case "$oid":
            guard case .string(let hex) = value, let oid = try? ObjectId(string: hex) else {
                throw fail(
                    "invalid Extended JSON $oid: expected a string of 24 hexadecimal digits, got \(value.shortDescription)"
                )
            }
            return .objectId(oid)
        case "$numberInt":
            guard case .string(let text) = value, isPlainInteger(text), let n = Int32(text) else {
                throw fail(
                    "invalid Extended JSON $numberInt: expected a string holding a 32-bit integer, got \(value.shortDescription)"
                )
            }
            return .int32(n)
        case "$numberLong":
            guard case .string(let text) = value, isPlainInteger(text), let n = Int64(text) else {
                throw fail(
                    "invalid Extended JSON $numberLong: expected a string holding a 64-bit integer, got \(value.shortDescription)"
                )
            }
            return .int64(n)
        case "$numberDouble":
            guard case .string(let text) = value, let d = parseDoubleText(text) else {
                throw fail(
                    "invalid Extended JSON $numberDouble: expected a string holding a decimal number, Infinity, -Infinity or NaN, got \(value.shortDescription)"
                )
            }
            return .double(d)
        case "$numberDecimal":
            guard case .string(let text) = value else {
                throw fail("invalid Extended JSON $numberDecimal: expected a string, got \(value.kindDescription)")
            }
            do { return .decimal128(try Decimal128(string: text)) } catch let error as PorterError {
                throw fail("invalid Extended JSON $numberDecimal: \(error.message)")
            } catch { throw fail("invalid Extended JSON $numberDecimal") }
        case "$binary": return try binary(value)
        case "$uuid":
            // pymongo's legacy JSON writes `uuid.hex`: 32 digits without dashes.
            guard case .string(let text) = value, let uuid = UUIDCodec.parse(text) ?? UUIDCodec.parse(hex32: text)
            else {
                throw fail(
                    "invalid Extended JSON $uuid: expected a UUID string like 00112233-4455-6677-8899-aabbccddeeff, got \(value.shortDescription)"
                )
            }
            return .binary(Data(UUIDCodec.bytes(uuid)), subtype: 4)
        case "$date": return try date(value)
        case "$minKey", "$maxKey":
            guard case .int64(1) = value else { throw fail("invalid Extended JSON \(key): expected the number 1") }
            return .unsupported(key == "$minKey" ? "MinKey" : "MaxKey")
        case "$undefined":
            guard case .bool(true) = value else { throw fail("invalid Extended JSON $undefined: expected true") }
            return .unsupported("undefined")
        default:
            return try unsupportedForm(key, value, doc)
        }
    }

    static func fail(_ message: String) -> Failure { Failure(path: [], message: message) }

    /// `-?[0-9]+`: the only integer spelling canonical Extended JSON uses.
    static func isPlainInteger(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// A decimal floating-point literal, `Infinity`, `-Infinity` or `NaN` (no hex floats, no spaces).
    package static func parseDoubleText(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        var sawDigit = false
        var i = 0
        let bytes = Array(text.utf8)
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1; sawDigit = true }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                i += 1; sawDigit = true
            }
        }
        guard sawDigit else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let start = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            guard i > start else { return nil }
        }
        guard i == bytes.count else { return nil }
        return Double(text)
    }
}
