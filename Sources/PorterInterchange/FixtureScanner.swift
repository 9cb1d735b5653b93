#if canImport(Glibc)
import Glibc
#endif
import PorterDocument

/// Reads the plain JSON a fixture is made of, token by token over its bytes, for the direct
/// fixture load. It yields exactly the values the JSON reader of the general import yields
/// (``PlainJSONParser``'s rules), and nil for anything it leaves to that import: escapes, byte
/// sequences that are not UTF-8, numbers beyond 64 bits, over- or underflowing doubles, `-0`.
struct FixtureScanner {
    let base: UnsafePointer<UInt8>
    let end: Int
    var i = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = buffer.count
    }

    /// The next byte that is not JSON whitespace (not consumed); nil at the end.
    mutating func peek() -> UInt8? {
        while i < end {
            let c = base[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return c }
            i += 1
        }
        return nil
    }

    /// Consumes `byte` when it is the next significant one.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        i += 1
        return true
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool { peek() == nil }

    /// A string's bytes, without escapes or control bytes (the opening quote is next).
    mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while i < end {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return UnsafeBufferPointer(start: base + start, count: i - 1 - start)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// A string, number, boolean or null; nil for arrays, objects and what the general import decides.
    mutating func scalar() -> DocumentValue? {
        guard let c = peek() else { return nil }
        switch c {
        case UInt8(ascii: "\""):
            guard let bytes = rawString() else { return nil }
            // ASCII (most fixture text) is valid as it is; anything else is checked first.
            if FixtureScanner.isASCII(bytes) { return .string(String(decoding: bytes, as: UTF8.self)) }
            return String(validating: bytes, as: UTF8.self).map { .string($0) }
        case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return word("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        while k + 8 <= count {
            if UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            k += 8
        }
        while k < count {
            if base[k] >= 0x80 { return false }
            k += 1
        }
        return true
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count < end, memcmp(base + i, text.utf8Start, count) == 0 else { return false }
        i += count
        return isDelimiter(base[i])
    }

    private func isDelimiter(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == 0x20 || c == 0x0A
            || c == 0x0D || c == 0x09
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as ``PlainJSONParser`` reads it.
    private mutating func number() -> DocumentValue? {
        let start = i
        var negative = false
        if base[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        let digitsStart = i
        var magnitude: UInt64 = 0
        var overflow = false
        var nonzero = false
        while i < end, base[i] >= UInt8(ascii: "0"), base[i] <= UInt8(ascii: "9") {
            let digit = UInt64(base[i] - UInt8(ascii: "0"))
            if digit != 0 { nonzero = true }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            magnitude = sum
            i += 1
        }
        let integerDigits = i - digitsStart
        guard integerDigits > 0, !(integerDigits > 1 && base[digitsStart] == UInt8(ascii: "0")) else { return nil }
        var isDouble = false
        if i < end && base[i] == UInt8(ascii: ".") {
            isDouble = true
            i += 1
            let fractionStart = i
            while i < end, base[i] >= UInt8(ascii: "0"), base[i] <= UInt8(ascii: "9") {
                if base[i] != UInt8(ascii: "0") { nonzero = true }
                i += 1
            }
            guard i > fractionStart else { return nil }
        }
        if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            isDouble = true
            i += 1
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            let exponentStart = i
            while i < end, base[i] >= UInt8(ascii: "0"), base[i] <= UInt8(ascii: "9") { i += 1 }
            guard i > exponentStart else { return nil }
        }
        guard i < end, isDelimiter(base[i]) else { return nil }
        if !isDouble {
            guard !overflow, !(negative && magnitude == 0) else { return nil }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return .int64(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return .int64(Int64(magnitude))
        }
        // strtod stops at the delimiter checked above, so it never reads past the buffer.
        var stop: UnsafeMutablePointer<CChar>?
        let value = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: i - start + 1) {
            strtod($0, &stop)
        }
        let consumed = stop.map { UnsafeRawPointer($0) - UnsafeRawPointer(base + start) } ?? -1
        guard consumed == i - start, value.isFinite, value.isNormal || (value == 0 && !nonzero) else { return nil }
        return .double(value)
    }
}
