/// String parsing: escapes, surrogate pairs and UTF-8 validation.
extension JSONParser {
    /// Parses a string starting at its opening quote, validating UTF-8 byte by byte.
    mutating func parseString() throws -> String {
        let quote = position
        position += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("unterminated string starting", at: quote) }
            switch c {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0..<0x20:
                throw error("control character U+00\(describeCurrent().suffix(2)) must be escaped in strings")
            case 0x20..<0x80:
                out.append(c)
                position += 1
            default:
                try copyUTF8Sequence(into: &out)
            }
        }
    }

    /// Copies one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and values
    /// above U+10FFFF (the Unicode Standard's table 3-7 of well-formed sequences).
    private mutating func copyUTF8Sequence(into out: inout [UInt8]) throws {
        let lead = bytes[position]
        let count: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; secondRange = 0x80...0x9F
        case 0xF0: count = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8 \(describeCurrent())")
        }
        for i in 1..<count {
            let index = position + i
            guard index < bytes.count, (i == 1 ? secondRange : 0x80...0xBF).contains(bytes[index]) else {
                throw error("invalid UTF-8 sequence starting with \(describeCurrent())")
            }
        }
        out.append(contentsOf: bytes[position..<position + count])
        position += count
    }

    /// Parses one escape sequence after a backslash; `\uD83D\uDE00` pairs become one scalar.
    private mutating func parseEscape(into out: inout [UInt8]) throws {
        let start = position
        position += 1
        guard let c = peek else { throw error("unterminated string") }
        position += 1
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = c
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            position -= 1
            throw error("invalid escape character \(describeCurrent()) after '\\'", at: start)
        }
        if let simple {
            out.append(simple)
            return
        }
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard eat(UInt8(ascii: "\\")), eat(UInt8(ascii: "u")) else {
                throw error("lone high surrogate \\u\(hexText(scalar)) is not followed by a low surrogate", at: start)
            }
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(
                    "high surrogate \\u\(hexText(scalar)) is followed by \\u\(hexText(low)), not a low surrogate",
                    at: start)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("lone low surrogate \\u\(hexText(scalar))", at: start)
        }
        // Every value left is a valid scalar: surrogates were handled above.
        out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
    }

    private mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek, let nibble = hexNibble(c) else {
                throw error("expected 4 hexadecimal digits after \\u but found \(describeCurrent())")
            }
            value = value << 4 | UInt32(nibble)
            position += 1
        }
        return value
    }

    private func hexText(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
