import PorterCBSON
import Foundation
import PorterModel

/// Extended JSON text of a BSON document, byte for byte what libbson 1.x's
/// `bson_as_relaxed_extended_json` / `bson_as_canonical_extended_json` return, written natively.
///
/// libbson's conversion goes through a visitor, a `printf` per number and an allocation per
/// string, about 50,000 instructions for an 11-field document; this walks the bytes once. It
/// covers the BSON types Porter writes (double, string, document, array, binary, ObjectId, bool,
/// datetime, null, int32, int64, decimal128) in libbson's exact layout (`{ "k" : v, … }`,
/// `{ }` for an empty top-level document, `{  }` and `[  ]` for empty nested ones, `%.20g`
/// doubles). Anything else — another type, nesting deeper than Porter's limit, a malformed
/// element, invalid UTF-8 — makes ``append(document:canonical:to:)`` return false, and the caller
/// asks libbson, so the output never differs. The tests compare both on every document they
/// export and on the BSON corpus.
enum ExtendedJSONText {
    /// Nesting this writer handles; libbson prints `{ ... }` beyond its own, deeper limit.
    static let maxDepth = 100

    /// Appends the text of the document in `bytes` (length prefix included); false, with `out`
    /// unchanged, when libbson must do it.
    static func append(document bytes: UnsafeRawBufferPointer, canonical: Bool, to out: TextBuffer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 5,
            readInt32(base) == bytes.count, base[bytes.count - 1] == 0
        else { return false }
        if bytes.count == 5 {
            out.append("{ }")
            return true
        }
        let start = out.count
        let writer = Walker(base: base, canonical: canonical, out: out)
        out.append("{ ")
        guard writer.elements(from: 4, to: bytes.count - 1, isArray: false, depth: 0) else {
            out.count = start
            return false
        }
        out.append(" }")
        return true
    }

    /// A little-endian int32 at `p`.
    @inline(__always)
    static func readInt32(_ p: UnsafePointer<UInt8>) -> Int {
        Int(Int32(bitPattern: UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24))
    }

    /// A little-endian 64-bit word at `p`.
    @inline(__always)
    static func readUInt64(_ p: UnsafePointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<8).reversed() { value = value << 8 | UInt64(p[i]) }
        return value
    }
}

/// One walk over a document's elements (see ``ExtendedJSONText``).
private struct Walker {
    let base: UnsafePointer<UInt8>
    let canonical: Bool
    let out: TextBuffer

    /// Writes the elements in `offset..<end` (`end` is the document's terminating 0x00).
    func elements(from offset: Int, to end: Int, isArray: Bool, depth: Int) -> Bool {
        var i = offset
        var first = true
        while i < end {
            let type = base[i]
            i += 1
            let keyStart = i
            while i < end && base[i] != 0 { i += 1 }
            guard i < end else { return false }
            let keyLength = i - keyStart
            i += 1
            if first { first = false } else { out.append(", ") }
            if !isArray {
                out.append(UInt8(ascii: "\""))
                guard JSONEscaping.append(base + keyStart, keyLength, to: out) else { return false }
                out.append("\" : ")
            }
            guard let next = value(type, at: i, end: end, depth: depth) else { return false }
            i = next
        }
        return i == end
    }

    /// Writes the value of type `type` at `i`; returns the offset after it, nil when libbson must
    /// do the document.
    private func value(_ type: UInt8, at i: Int, end: Int, depth: Int) -> Int? {
        let p = base + i
        func need(_ n: Int) -> Bool { n >= 0 && i + n <= end }
        switch type {
        case 0x01:  // double
            guard need(8) else { return nil }
            NumberText.appendDouble(Double(bitPattern: ExtendedJSONText.readUInt64(p)), canonical: canonical, to: out)
            return i + 8
        case 0x02:  // string: int32 length (with the NUL), bytes, NUL
            guard need(4) else { return nil }
            let length = ExtendedJSONText.readInt32(p)
            guard length >= 1, need(4 + length), p[3 + length] == 0 else { return nil }
            out.append(UInt8(ascii: "\""))
            guard JSONEscaping.append(p + 4, length - 1, to: out) else { return nil }
            out.append(UInt8(ascii: "\""))
            return i + 4 + length
        case 0x03, 0x04:  // document, array
            guard need(5), depth + 1 < ExtendedJSONText.maxDepth else { return nil }
            let length = ExtendedJSONText.readInt32(p)
            guard length >= 5, need(length), p[length - 1] == 0 else { return nil }
            let isArray = type == 0x04
            out.append(isArray ? "[ " : "{ ")
            guard elements(from: i + 4, to: i + length - 1, isArray: isArray, depth: depth + 1) else { return nil }
            out.append(isArray ? " ]" : " }")
            return i + length
        case 0x05:  // binary: int32 length, subtype, bytes
            guard need(5) else { return nil }
            let length = ExtendedJSONText.readInt32(p)
            // Subtype 2 has an inner length that libbson checks; Porter never writes it.
            guard length >= 0, need(5 + length), p[4] != 0x02 else { return nil }
            out.append("{ \"$binary\" : { \"base64\" : \"")
            Base64Text.append(p + 5, length, to: out)
            out.append("\", \"subType\" : \"")
            NumberText.appendHexByte(p[4], to: out)
            out.append("\" } }")
            return i + 5 + length
        case 0x07:  // ObjectId
            guard need(12) else { return nil }
            out.append("{ \"$oid\" : \"")
            for j in 0..<12 { NumberText.appendHexByte(p[j], to: out) }
            out.append("\" }")
            return i + 12
        case 0x08:  // bool
            guard need(1), p[0] <= 1 else { return nil }
            out.append(p[0] == 1 ? "true" : "false")
            return i + 1
        case 0x09:  // UTC datetime
            guard need(8) else { return nil }
            let ms = Int64(bitPattern: ExtendedJSONText.readUInt64(p))
            // libbson prints years after 9999 through `strftime`; Porter never asks it to.
            guard canonical || ms <= BSONBuilder.lastRelaxedISODate else { return nil }
            NumberText.appendDate(ms, canonical: canonical, to: out)
            return i + 8
        case 0x0A:  // null
            out.append("null")
            return i
        case 0x10:  // int32
            guard need(4) else { return nil }
            let v = Int64(ExtendedJSONText.readInt32(p))
            if canonical { out.append("{ \"$numberInt\" : \"") }
            NumberText.appendInteger(v, to: out)
            if canonical { out.append("\" }") }
            return i + 4
        case 0x12:  // int64
            guard need(8) else { return nil }
            let v = Int64(bitPattern: ExtendedJSONText.readUInt64(p))
            if canonical { out.append("{ \"$numberLong\" : \"") }
            NumberText.appendInteger(v, to: out)
            if canonical { out.append("\" }") }
            return i + 8
        case 0x13:  // decimal128: libbson's own text
            guard need(16) else { return nil }
            var decimal = bson_decimal128_t(
                low: ExtendedJSONText.readUInt64(p), high: ExtendedJSONText.readUInt64(p + 8))
            out.append("{ \"$numberDecimal\" : \"")
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(BSON_DECIMAL128_STRING)) { text in
                bson_decimal128_to_string(&decimal, text.baseAddress)
                text.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: Int(BSON_DECIMAL128_STRING)) {
                    out.append($0, strlen(text.baseAddress!))
                }
            }
            out.append("\" }")
            return i + 16
        default:
            return nil
        }
    }
}
