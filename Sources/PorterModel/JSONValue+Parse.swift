extension JSONValue {
    /// Parses one JSON text (RFC 8259, strictly): no comments, trailing commas, single quotes,
    /// `NaN`, leading zeros, unescaped control characters, invalid UTF-8 or lone surrogates.
    /// A leading UTF-8 byte order mark is skipped, as RFC 8259 §8.1 allows.
    ///
    /// The parser keeps its own stack instead of recursing, so hostile input such as 100,000 `[`
    /// fails with an error at `maxDepth` instead of overflowing the thread's stack.
    /// - Throws: ``PorterError/Code/parseError`` with `… at line L, column C` (1-based; columns
    ///   count Unicode scalars).
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 512) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses JSON text given as a string; see ``parse(_:maxDepth:)``.
    public static func parse(_ text: String, maxDepth: Int = 512) throws -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// The parse state: the input, a cursor and the stack of open containers.
struct JSONParser {
    /// An array or object being filled; objects remember the key awaiting its value.
    ///
    /// A class, so that appending happens in place: an enum payload taken out of the stack and
    /// put back would be copied at every element, making a container of n values cost O(n²)
    /// (a 20,000-class schema file took seconds to read).
    private final class Frame {
        let isArray: Bool
        var elements: [JSONValue] = []
        var members: [JSONMember] = []
        var key = ""

        init(isArray: Bool, key: String = "") {
            self.isArray = isArray
            self.key = key
        }
    }

    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0
    private var stack: [Frame] = []

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected \(describeCurrent()) after the JSON value") }
        return value
    }

    /// Parses one value, descending into containers iteratively.
    private mutating func parseValue() throws -> JSONValue {
        while true {
            skipWhitespace()
            var value: JSONValue
            switch peek {
            case UInt8(ascii: "["):
                try open()
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isArray: true))
                    continue
                }
            case UInt8(ascii: "{"):
                try open()
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    position += 1
                    value = .object([])
                } else {
                    stack.append(Frame(isArray: false, key: try parseKey()))
                    continue
                }
            default:
                value = try parseScalar()
            }
            // Close every container this value completes; stop when another value must follow.
            while let frame = stack.last {
                skipWhitespace()
                if frame.isArray {
                    frame.elements.append(value)
                    if eat(UInt8(ascii: ",")) {
                        break
                    } else if eat(UInt8(ascii: "]")) {
                        value = .array(frame.elements)
                        stack.removeLast()
                        continue
                    } else {
                        throw error("expected ',' or ']' but found \(describeCurrent())")
                    }
                } else {
                    frame.members.append(JSONMember(frame.key, value))
                    if eat(UInt8(ascii: ",")) {
                        skipWhitespace()
                        frame.key = try parseKey()
                        break
                    } else if eat(UInt8(ascii: "}")) {
                        value = .object(frame.members)
                        stack.removeLast()
                        continue
                    } else {
                        throw error("expected ',' or '}' but found \(describeCurrent())")
                    }
                }
            }
            if stack.isEmpty { return value }
        }
    }

    /// Consumes `[` or `{`, enforcing the depth limit.
    private mutating func open() throws {
        guard stack.count < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
    }

    /// Parses `"key"` and the `:` after it.
    private mutating func parseKey() throws -> String {
        guard peek == UInt8(ascii: "\"") else { throw error("expected a string key but found \(describeCurrent())") }
        let key = try parseString()
        skipWhitespace()
        guard eat(UInt8(ascii: ":")) else { throw error("expected ':' but found \(describeCurrent())") }
        return key
    }

    private mutating func parseScalar() throws -> JSONValue {
        guard let c = peek else { throw error("expected a value but found end of input") }
        switch c {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a value but found \(describeCurrent())")
        }
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count,
            bytes[position..<position + expected.count].elementsEqual(expected)
        else {
            throw error("invalid literal, expected '\(word)'")
        }
        position += expected.count
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as its text.
    private mutating func parseNumber() throws -> String {
        let start = position
        _ = eat(UInt8(ascii: "-"))
        if eat(UInt8(ascii: "0")) {
            if isDigit(peek) { throw error("leading zeros are not allowed in numbers") }
        } else if !eatDigits() {
            throw error("expected a digit but found \(describeCurrent())")
        }
        if eat(UInt8(ascii: ".")), !eatDigits() {
            throw error("expected a digit after '.' but found \(describeCurrent())")
        }
        if eat(UInt8(ascii: "e")) || eat(UInt8(ascii: "E")) {
            if !eat(UInt8(ascii: "+")) { _ = eat(UInt8(ascii: "-")) }
            if !eatDigits() { throw error("expected a digit in the exponent but found \(describeCurrent())") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func eatDigits() -> Bool {
        let start = position
        while isDigit(peek) { position += 1 }
        return position > start
    }

    private func isDigit(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        return c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func eat(_ c: UInt8) -> Bool {
        guard peek == c else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let c = peek, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { position += 1 }
    }

    /// The current byte for a message: `end of input`, `'x'`, or `byte 0xFF`.
    func describeCurrent() -> String {
        guard let c = peek else { return "end of input" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        let digits = Array("0123456789ABCDEF".utf8)
        return "byte 0x" + String(decoding: [digits[Int(c >> 4)], digits[Int(c & 0xF)]], as: UTF8.self)
    }

    /// A parse error at `offset` (default: the cursor), with its line and column.
    func error(_ what: String, at offset: Int? = nil) -> PorterError {
        let end = min(offset ?? position, bytes.count)
        var line = 1
        var column = 1
        for c in bytes[..<end] {
            if c == 0x0A {
                line += 1
                column = 1
            } else if c & 0xC0 != 0x80 {
                column += 1
            }
        }
        return PorterError(.parseError, "\(what) at line \(line), column \(column)")
    }
}
