import PorterModel

/// String escaping exactly as libbson's `bson_utf8_escape_for_json`: `"` and `\` get a
/// backslash; backspace, form feed, newline, carriage return and tab their short escapes; other
/// bytes below 0x20 (NUL included) `\u00xx` in lowercase hex; everything else, DEL and non-ASCII
/// included, is copied.
enum JSONEscaping {
    /// Appends the escaped bytes; false for invalid UTF-8 (libbson then refuses the document).
    static func append(_ p: UnsafePointer<UInt8>, _ length: Int, to out: TextBuffer) -> Bool {
        var start = 0
        var i = 0
        var sawNonASCII = false
        while i < length {
            // Eight bytes at a time while none needs escaping (SWAR: a flagged word may be a
            // false alarm, never a miss; it then goes byte by byte).
            while i + 8 <= length {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let high = word & 0x8080_8080_8080_8080
                let quote = word ^ 0x2222_2222_2222_2222
                let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let special =
                    ((word &- 0x2020_2020_2020_2020) | (quote &- 0x0101_0101_0101_0101)
                        | (backslash &- 0x0101_0101_0101_0101))
                    & ~word & ~quote & ~backslash & 0x8080_8080_8080_8080
                if special != 0 { break }
                if high != 0 { sawNonASCII = true }
                i += 8
            }
            guard i < length else { break }
            let c = p[i]
            if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                if c >= 0x80 { sawNonASCII = true }
                i += 1
                continue
            }
            out.append(p + start, i - start)
            out.reserve(6)
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.put(UInt8(ascii: "\\"))
                out.put(c)
            case 0x08: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "b"))
            case 0x0C: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "f"))
            case 0x0A: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "n"))
            case 0x0D: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "r"))
            case 0x09: out.put(UInt8(ascii: "\\")); out.put(UInt8(ascii: "t"))
            default:
                out.append("\\u00")
                NumberText.appendHexByte(c, to: out)
            }
            i += 1
            start = i
        }
        out.append(p + start, length - start)
        return !sawNonASCII || isValidUTF8(UnsafeBufferPointer(start: p, count: length))
    }
}

/// Numbers, dates and bytes in libbson's Extended JSON spelling.
enum NumberText {
    /// A double: `%.20g` with `.0` added when that looks like an integer; in relaxed mode plain
    /// when finite, else (and always in canonical mode) `{ "$numberDouble" : "…" }`.
    static func appendDouble(_ value: Double, canonical: Bool, to out: TextBuffer) {
        let wrapped = canonical || !value.isFinite
        if wrapped { out.append("{ \"$numberDouble\" : \"") }
        if value.isNaN {
            out.append("NaN")
        } else if value.isInfinite {
            out.append(value > 0 ? "Infinity" : "-Infinity")
        } else {
            let start = out.count
            PrintfDouble.append(value, to: out)
            // libbson: `strspn(text, "0123456789-") == length` means no point or exponent.
            var integral = true
            for i in start..<out.count
            where
                !(out.base[i] == UInt8(ascii: "-")
                || (out.base[i] >= UInt8(ascii: "0") && out.base[i] <= UInt8(ascii: "9")))
            {
                integral = false
                break
            }
            if integral { out.append(".0") }
        }
        if wrapped { out.append("\" }") }
    }

    /// A datetime: canonical, and relaxed before 1970, as `{ "$date" : { "$numberLong" : "…" } }`;
    /// otherwise `{ "$date" : "YYYY-MM-DDTHH:MM:SS[.mmm]Z" }` (libbson's `strftime` form; Porter
    /// writes dates after 9999 as `$numberLong` documents before they get here).
    static func appendDate(_ ms: Int64, canonical: Bool, to out: TextBuffer) {
        if canonical || ms < 0 {
            out.append("{ \"$date\" : { \"$numberLong\" : \"")
            appendInteger(ms, to: out)
            out.append("\" } }")
            return
        }
        out.append("{ \"$date\" : \"")
        let days = ms / 86_400_000
        let msOfDay = ms % 86_400_000
        let (year, month, day) = civilFromDays(days)
        out.reserve(24)
        putDigits(year, 4, out)
        out.put(UInt8(ascii: "-"))
        putDigits(month, 2, out)
        out.put(UInt8(ascii: "-"))
        putDigits(day, 2, out)
        out.put(UInt8(ascii: "T"))
        putDigits(msOfDay / 3_600_000, 2, out)
        out.put(UInt8(ascii: ":"))
        putDigits(msOfDay / 60_000 % 60, 2, out)
        out.put(UInt8(ascii: ":"))
        putDigits(msOfDay / 1000 % 60, 2, out)
        if ms % 1000 != 0 {
            out.put(UInt8(ascii: "."))
            putDigits(ms % 1000, 3, out)
        }
        out.put(UInt8(ascii: "Z"))
        out.append("\" }")
    }

    /// `width` decimal digits of a non-negative value, zero-padded (room reserved by the caller).
    @inline(__always)
    private static func putDigits(_ value: Int64, _ width: Int, _ out: TextBuffer) {
        var v = value
        for i in stride(from: width - 1, through: 0, by: -1) {
            out.base[out.count + i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        out.count += width
    }

    /// Decimal digits of an integer (`%lld`).
    static func appendInteger(_ value: Int64, to out: TextBuffer) {
        out.reserve(20)
        var magnitude = value.magnitude
        if value < 0 { out.put(UInt8(ascii: "-")) }
        var digits = 1
        var probe = magnitude / 10
        while probe > 0 { digits += 1; probe /= 10 }
        for i in stride(from: digits - 1, through: 0, by: -1) {
            out.base[out.count + i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
        out.count += digits
    }

    /// Two lowercase hex digits (`%02x`).
    @inline(__always)
    static func appendHexByte(_ byte: UInt8, to out: TextBuffer) {
        out.reserve(2)
        out.put(hexDigit(byte >> 4))
        out.put(hexDigit(byte & 0xF))
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Standard base64 with padding (libbson's `b64_ntop`).
enum Base64Text {
    static func append(_ p: UnsafePointer<UInt8>, _ length: Int, to out: TextBuffer) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        let table = alphabet.utf8Start
        out.reserve((length + 2) / 3 * 4)
        var i = 0
        while i + 3 <= length {
            let n = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
            out.put(table[Int(n >> 18)])
            out.put(table[Int(n >> 12 & 63)])
            out.put(table[Int(n >> 6 & 63)])
            out.put(table[Int(n & 63)])
            i += 3
        }
        let rest = length - i
        if rest > 0 {
            let n = UInt32(p[i]) << 16 | (rest == 2 ? UInt32(p[i + 1]) << 8 : 0)
            out.put(table[Int(n >> 18)])
            out.put(table[Int(n >> 12 & 63)])
            out.put(rest == 2 ? table[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.put(UInt8(ascii: "="))
        }
    }
}
