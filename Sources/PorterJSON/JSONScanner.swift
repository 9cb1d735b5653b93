import Foundation
import PorterDocument

/// One document's bytes as found by the splitter, with what the scan learned about it.
struct JSONElement {
    /// Byte range in the buffer (valid until the splitter reads on).
    var range: Range<Int>
    /// The line the document starts on (1-based).
    var line: Int
    /// Object members counted outside strings (compared with the parsed members to find
    /// duplicate keys, which json-c would otherwise merge silently).
    var memberCount: Int
    /// Integer literals outside the 64-bit range (offsets from the element start), which json-c
    /// would saturate silently: they are re-read as doubles.
    var bigIntegers: [Range<Int>]
    /// The first problem the scan found inside the document (bad escape, too deep, …).
    var problem: String?
    /// The document, when the native parser read it instead of the scanner (see
    /// ``JSONLayoutReader``); nil when the scanner found it and a parser still has to read it.
    var parsed: PlainJSONParser.Result? = nil
}

/// Finds document boundaries in JSON text without building it: strings and escapes are tracked,
/// nesting is counted (never recursed), so hostile input can neither overflow the stack nor
/// make the reader hold more than one document. json-c then parses each document on its own.
struct JSONScanner {
    let maxDepth: Int

    /// Scans the object or array starting at `buffer.start` to its matching close.
    /// - Throws: ``DocumentInputError`` (not recoverable) when the input ends inside it.
    func scanElement(_ buffer: JSONInputBuffer, line: inout Int, label: String) throws -> JSONElement {
        let startLine = line
        var i = buffer.start
        var depth = 0
        var inString = false
        var escape = false
        var unicodeDigits = -1
        var unicodeValue: UInt32 = 0
        var pendingHigh = false
        var stringHasNUL = false
        var lastStringHadNUL = false
        var members = 0
        var problem: String?
        var bigIntegers: [Range<Int>] = []
        func note(_ message: String) { if problem == nil { problem = message } }
        while true {
            if inString && !escape && unicodeDigits < 0 && !pendingHigh {
                // Fast path through ordinary string bytes (most of a document's size).
                let bytes = buffer.storage.base
                let limit = buffer.end
                while i < limit {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c == 0x0A { break }
                    i += 1
                }
            }
            guard let c = try buffer.byte(at: &i) else {
                throw DocumentInputError(
                    label: label,
                    message: "unexpected end of input inside the document that starts on line \(startLine)",
                    recoverable: false)
            }
            if c == 0x0A { line += 1 }
            if inString {
                if unicodeDigits >= 0 {
                    if let v = hexValue(c) {
                        unicodeValue = unicodeValue << 4 | UInt32(v)
                        unicodeDigits += 1
                        if unicodeDigits == 4 {
                            unicodeDigits = -1
                            if unicodeValue == 0 { stringHasNUL = true }
                            if (0xD800...0xDBFF).contains(unicodeValue) {
                                if pendingHigh { note("invalid \\u escape: unpaired UTF-16 surrogate") }
                                pendingHigh = true
                            } else if (0xDC00...0xDFFF).contains(unicodeValue) {
                                if !pendingHigh { note("invalid \\u escape: unpaired UTF-16 surrogate") }
                                pendingHigh = false
                            } else if pendingHigh {
                                note("invalid \\u escape: unpaired UTF-16 surrogate")
                                pendingHigh = false
                            }
                        }
                    } else {
                        unicodeDigits = -1  // json-c reports the malformed escape
                    }
                } else if escape {
                    escape = false
                    if c == UInt8(ascii: "u") {
                        unicodeDigits = 0
                        unicodeValue = 0
                    } else if pendingHigh {
                        note("invalid \\u escape: unpaired UTF-16 surrogate")
                        pendingHigh = false
                    }
                } else if c == UInt8(ascii: "\\") {
                    escape = true
                } else {
                    if pendingHigh {
                        note("invalid \\u escape: unpaired UTF-16 surrogate")
                        pendingHigh = false
                    }
                    if c == UInt8(ascii: "\"") {
                        inString = false
                        lastStringHadNUL = stringHasNUL
                    }
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inString = true
                stringHasNUL = false
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maxDepth { note("documents and arrays are nested deeper than \(maxDepth) levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    let range = buffer.start..<(i + 1)
                    if range.count > InterchangeLimits.maxDocumentBytes {
                        note(
                            "document of \(range.count) bytes exceeds the \(InterchangeLimits.maxDocumentBytes >> 20) MB limit"
                        )
                    }
                    return JSONElement(
                        range: range, line: startLine, memberCount: members,
                        bigIntegers: bigIntegers,
                        problem: problem)
                }
            case UInt8(ascii: ":"):
                members += 1
                if lastStringHadNUL { note("field names must not contain NUL (\\u0000)") }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Offsets from the element start survive the buffer moving its bytes down.
                let tokenOffset = i - buffer.start
                var digits = 0
                var integral = true
                var j = i
                while let d = try buffer.byte(at: &j) {
                    if d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") {
                        digits += 1
                    } else if d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E")
                        || d == UInt8(ascii: "+")
                    {
                        integral = false
                    } else if d != UInt8(ascii: "-") {
                        break
                    }
                    j += 1
                }
                let begin = buffer.start + tokenOffset
                if integral && digits >= 19 && Int64(String(decoding: buffer.slice(begin..<j), as: UTF8.self)) == nil {
                    bigIntegers.append(tokenOffset..<(j - buffer.start))
                }
                i = j
                continue
            default:
                break
            }
            i += 1
        }
    }

    private func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
