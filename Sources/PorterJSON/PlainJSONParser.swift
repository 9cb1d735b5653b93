import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PorterDocument

/// A native parser for the JSON that json-c reads the same way, so most documents skip json-c's
/// tree (about 30,000 instructions for an 11-field document, mostly allocations).
///
/// It accepts only strict RFC 8259 text that json-c's strict mode reads unambiguously: objects
/// without duplicate keys, arrays, strings with the standard escapes (surrogates paired, no raw
/// control bytes, valid UTF-8, no NUL in keys), integers that fit in 64 bits (not `-0`), decimal
/// numbers (converted by `strtod`, as json-c does) that stay finite and nonzero when written so,
/// `true`, `false`, `null`. For anything else it returns nil and ``JSONCParser`` hands the
/// document to json-c, so values and error messages are json-c's, exactly as before.
struct PlainJSONParser {
    /// What a successful parse gives: the value, its object members, and whether a key starts
    /// with `$` (an Extended JSON wrapper may be inside).
    struct Result {
        var value: DocumentValue
        var members: Int
        var sawDollarKey: Bool
    }

    // Internal rather than private: the token readers live in another file.
    let base: UnsafePointer<UInt8>
    let end: Int
    var i = 0
    var members = 0
    var sawDollarKey = false
    /// Newlines met (only whitespace can hold them: strings with raw control bytes are declined).
    var newlines = 0
    let maxDepth: Int
    /// Bytes of a string with escapes, reused.
    var scratch: [UInt8] = []
    /// Fingerprints of the keys of the objects being read (innermost last), for duplicates.
    var keyPrints: [UInt64] = []
    /// The fingerprint and first byte of the last key read.
    var lastKeyPrint: UInt64 = 0
    var lastKeyFirstByte: UInt8 = 0

    /// Parses one complete object in `bytes`; nil when json-c must decide.
    static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> Result? {
        guard let (result, length, _) = parse(prefixOf: bytes, maxDepth: maxDepth) else { return nil }
        // Only whitespace may follow (the scanner cut the element at its closing brace).
        var rest = PlainJSONParser(
            base: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), end: bytes.count, maxDepth: maxDepth)
        rest.i = length
        rest.skipWhitespace()
        return rest.i == bytes.count ? result : nil
    }

    /// Parses the object at the start of `bytes` (more may follow it): the result, the object's
    /// length in bytes and the newlines inside it; nil when json-c must decide or the object does
    /// not end within `bytes`.
    static func parse(prefixOf bytes: UnsafeRawBufferPointer, maxDepth: Int) -> (Result, length: Int, newlines: Int)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 1,
            base[0] == UInt8(ascii: "{")
        else { return nil }
        var parser = PlainJSONParser(base: base, end: bytes.count, maxDepth: maxDepth)
        guard let value = parser.value(depth: 0) else { return nil }
        return (
            Result(value: value, members: parser.members, sawDollarKey: parser.sawDollarKey), parser.i, parser.newlines
        )
    }

    private init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            if c == 0x0A { newlines += 1 }
            i += 1
        }
    }

    private mutating func value(depth: Int) -> DocumentValue? {
        skipWhitespace()
        guard i < end else { return nil }
        switch base[i] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""):
            guard let text = string(isKey: false) else { return nil }
            return .string(text)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString, _ result: DocumentValue) -> DocumentValue? {
        let n = word.utf8CodeUnitCount
        guard i + n <= end, memcmp(base + i, word.utf8Start, n) == 0 else { return nil }
        i += n
        return result
    }

    private mutating func object(depth: Int) -> DocumentValue? {
        guard depth <= maxDepth else { return nil }
        i += 1
        var fields: [(key: String, value: DocumentValue)] = []
        // Room for a whole document at the top, for a wrapper (`{"$oid": …}`) below it.
        fields.reserveCapacity(depth == 1 ? 16 : 2)
        skipWhitespace()
        if i < end && base[i] == UInt8(ascii: "}") {
            i += 1
            return .document(Document(fields))
        }
        let firstPrint = keyPrints.count
        defer { keyPrints.removeSubrange(firstPrint...) }
        while true {
            skipWhitespace()
            // Objects with very many keys go to json-c: the duplicate check below is quadratic.
            guard i < end, base[i] == UInt8(ascii: "\""), fields.count < 64, let key = string(isKey: true) else {
                return nil
            }
            if lastKeyFirstByte == UInt8(ascii: "$") { sawDollarKey = true }
            // json-c would merge a repeated key silently: leave such objects to it.
            guard !isDuplicate(key, lastKeyPrint, fields, firstPrint) else { return nil }
            keyPrints.append(lastKeyPrint)
            skipWhitespace()
            guard i < end, base[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            members += 1
            guard let v = value(depth: depth) else { return nil }
            fields.append((key, v))
            skipWhitespace()
            guard i < end else { return nil }
            if base[i] == UInt8(ascii: ",") { i += 1; continue }
            guard base[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            return .document(Document(fields))
        }
    }

    private mutating func array(depth: Int) -> DocumentValue? {
        guard depth <= maxDepth else { return nil }
        i += 1
        var elements: [DocumentValue] = []
        skipWhitespace()
        if i < end && base[i] == UInt8(ascii: "]") {
            i += 1
            return .array(elements)
        }
        while true {
            guard let v = value(depth: depth) else { return nil }
            elements.append(v)
            skipWhitespace()
            guard i < end else { return nil }
            if base[i] == UInt8(ascii: ",") { i += 1; continue }
            guard base[i] == UInt8(ascii: "]") else { return nil }
            i += 1
            return .array(elements)
        }
    }
}

extension PlainJSONParser {
    /// Whether `key` (fingerprint `print`) is already a key of the object whose fingerprints
    /// start at `firstPrint`: fingerprints first, bytes only when they match.
    func isDuplicate(_ key: String, _ print: UInt64, _ fields: [(key: String, value: DocumentValue)], _ firstPrint: Int)
        -> Bool
    {
        var j = firstPrint
        while j < keyPrints.count {
            if keyPrints[j] == print && fields[j - firstPrint].key.utf8.elementsEqual(key.utf8) { return true }
            j += 1
        }
        return false
    }
}
