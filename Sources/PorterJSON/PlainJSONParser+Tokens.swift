import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PorterModel
import PorterDocument

extension PlainJSONParser {
    /// The string at `i` (on its opening quote); nil when json-c must decide.
    mutating func string(isKey: Bool) -> String? {
        i += 1
        let start = i
        var nonASCII = false
        // Most strings have no escapes: find the closing quote and take the bytes as they are.
        while i < end {
            // Eight plain ASCII bytes at a time (no quote, backslash, control or non-ASCII
            // byte; SWAR: a flagged word may be a false alarm and goes byte by byte).
            while i + 8 <= end {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let quote = word ^ 0x2222_2222_2222_2222
                let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let flagged =
                    ((word &- 0x2020_2020_2020_2020) & ~word) | ((quote &- 0x0101_0101_0101_0101) & ~quote)
                    | ((backslash &- 0x0101_0101_0101_0101) & ~backslash) | word
                if flagged & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            guard i < end else { break }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: base + start, count: i - start)
                i += 1
                guard !nonASCII || isValidUTF8(bytes) else { return nil }
                if isKey { noteKey(bytes) }
                return String(decoding: bytes, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { return nil }
            if c >= 0x80 { nonASCII = true }
            i += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
        while i < end {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard !nonASCII || scratch.withUnsafeBufferPointer({ isValidUTF8($0) }) else { return nil }
                if isKey { scratch.withUnsafeBufferPointer { noteKey($0) } }
                return String(decoding: scratch, as: UTF8.self)
            }
            if c < 0x20 { return nil }
            if c >= 0x80 { nonASCII = true }
            guard c == UInt8(ascii: "\\") else {
                scratch.append(c)
                i += 1
                continue
            }
            guard i + 1 < end else { return nil }
            let escaped = base[i + 1]
            i += 2
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(scalar) {
                    // Only a properly paired surrogate: json-c's handling of the others varies.
                    guard i + 1 < end, base[i] == UInt8(ascii: "\\"), base[i + 1] == UInt8(ascii: "u") else {
                        return nil
                    }
                    i += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return nil
                }
                // json-c's keys are C strings: a NUL would cut them (the scanner rejects it first).
                if scalar == 0 && isKey { return nil }
                appendUTF8(scalar)
            default:
                return nil
            }
        }
        return nil
    }

    /// Remembers a key's first byte and fingerprint (FNV-1a of its bytes).
    private mutating func noteKey(_ bytes: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        lastKeyPrint = hash
        lastKeyFirstByte = bytes.first ?? 0
    }

    /// Four hex digits at `i`.
    private mutating func hex4() -> UInt32? {
        guard i + 4 <= end else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = base[i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            i += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The number at `i`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func number() -> DocumentValue? {
        let start = i
        var negative = false
        if i < end && base[i] == UInt8(ascii: "-") { negative = true; i += 1 }
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
        // The byte after a number is a delimiter json-c also stops at.
        guard i < end else { return nil }
        if !isDouble {
            // `-0` and values beyond 64 bits: json-c's own rules (and the scanner's rewrite) apply.
            guard !overflow, !(negative && magnitude == 0) else { return nil }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return .int64(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return .int64(Int64(magnitude))
        }
        // json-c converts with `strtod` too; results that over- or underflow are left to it.
        var stop: UnsafeMutablePointer<CChar>?
        let value = UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: i - start + 1) {
            strtod($0, &stop)
        }
        let consumed = stop.map { UnsafeRawPointer($0) - UnsafeRawPointer(base + start) } ?? -1
        guard consumed == i - start, value.isFinite,
            value.isNormal || (value == 0 && !nonzero)
        else { return nil }
        return .double(value)
    }
}
