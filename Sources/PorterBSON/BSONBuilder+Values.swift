import PorterCBSON
import Foundation
import PorterDocument
import PorterModel

extension BSONBuilder {
    /// The last millisecond libbson may print as an ISO date in relaxed mode (9999-12-31T23:59:59.999Z).
    static let lastRelaxedISODate: Int64 = 253_402_300_799_999

    /// Appends one scalar by the document mapping: int → int64, float → double (exact widening),
    /// data → binary subtype 0, uuid → binary subtype 4, date → UTC datetime in milliseconds
    /// (finer digits floored and counted).
    func append(_ key: String?, _ value: Value) throws {
        let doc = current
        let ok: Bool
        switch value {
        case .null:
            ok = try withKey(key) { bson_append_null(doc, $0, $1) }
        case .bool(let b):
            ok = try withKey(key) { bson_append_bool(doc, $0, $1, b) }
        case .int(let i):
            ok = try withKey(key) { bson_append_int64(doc, $0, $1, i) }
        case .float(let f):
            ok = try withKey(key) { bson_append_double(doc, $0, $1, Double(f)) }
        case .double(let d):
            ok = try withKey(key) { bson_append_double(doc, $0, $1, d) }
        case .string(var s):
            ok = try s.withUTF8 { utf8 in
                try utf8.withMemoryRebound(to: CChar.self) { chars in
                    try withKey(key) { k, n in
                        // libbson needs a non-nil pointer even for "".
                        "".withCString { empty in
                            bson_append_utf8(doc, k, n, chars.baseAddress ?? empty, Int32(chars.count))
                        }
                    }
                }
            }
        case .data(let d):
            ok = try appendBinary(doc, key, subtype: BSON_SUBTYPE_BINARY, bytes: d)
        case .uuid(let u):
            ok = try appendBinary(doc, key, subtype: BSON_SUBTYPE_UUID, bytes: Data(UUIDCodec.bytes(u)))
        case .date(let t):
            guard let ms = t.milliseconds else {
                throw PorterError(
                    .invalidValue,
                    "date \(t.iso8601) at field '\(key ?? "?")' is beyond what BSON dates hold (int64 milliseconds, about ±292 million years); use --format json to keep it"
                )
            }
            if t.hasSubMillisecondPrecision { flooredDates += 1 }
            if dateStyle == .relaxedExtendedJSON && (ms < 0 || ms > BSONBuilder.lastRelaxedISODate) {
                try open(key, array: false)
                try open("$date", array: false)
                try append("$numberLong", .string(String(ms)))
                try close()
                try close()
                return
            }
            ok = try withKey(key) { bson_append_date_time(doc, $0, $1, ms) }
        case .decimal128(let d):
            var dec = bson_decimal128_t(low: d.low, high: d.high)
            ok = try withKey(key) { bson_append_decimal128(doc, $0, $1, &dec) }
        case .objectId(let o):
            var oid = bson_oid_t()
            withUnsafeMutableBytes(of: &oid.bytes) { o.copyBytes(to: $0.baseAddress!) }
            ok = try withKey(key) { bson_append_oid(doc, $0, $1, &oid) }
        case .link, .list, .set, .map, .object:
            throw PorterError(.invalidValue, "internal error: \(value.kindName) passed to the BSON encoder as a scalar")
        }
        guard ok else {
            throw PorterError(.invalidValue, "the document is too large for BSON (at field '\(key ?? "?")')")
        }
    }

    private func appendBinary(_ doc: OpaquePointer, _ key: String?, subtype: bson_subtype_t, bytes: Data) throws -> Bool
    {
        try bytes.withUnsafeBytes { raw in
            let empty: [UInt8] = [0]
            return try empty.withUnsafeBufferPointer { fallback in
                let pointer = raw.bindMemory(to: UInt8.self).baseAddress ?? fallback.baseAddress!
                return try withKey(key) { bson_append_binary(doc, $0, $1, subtype, pointer, UInt32(raw.count)) }
            }
        }
    }
}
