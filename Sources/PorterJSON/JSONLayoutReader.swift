import Foundation
import PorterDocument
import PorterModel

/// Walks the top level of a JSON source and hands out one document at a time, whatever its
/// layout: one document per line (or any whitespace), a JSON array of documents, or a fixture
/// object `{ "schemaVersion": 1, "Person": [ … ], … }` whose keys name classes (and whose optional
/// `schema` member holds the schema the fixture was written with).
final class JSONLayoutReader {
    enum Layout: Equatable {
        case lines
        case array
        case fixture
    }

    enum State {
        case start
        case lines
        case array(first: Bool)
        case fixtureKeys(first: Bool)
        case fixtureArray(className: String, first: Bool)
        case done
    }

    let buffer: JSONInputBuffer
    let scanner: JSONScanner
    let context: DecoderContext
    var layout: Layout?
    var fixtureVersion: UInt64?
    /// The schema a fixture carries in its `schema` member (the one it was written with).
    var fixtureSchema: Schema?
    /// The `schemaVersion` the `schema` member declares itself, checked against the fixture's.
    var schemaMemberVersion: UInt64?
    // Unchecked exclusivity: updated for every document, never reentrantly.
    @exclusivity(unchecked) var state = State.start
    @exclusivity(unchecked) var line = 1
    @exclusivity(unchecked) private var documentNumber = 0
    @exclusivity(unchecked) private var classCounts: [String: Int] = [:]
    /// Whether documents are first tried with ``PlainJSONParser`` (tests turn it off).
    var nativeFastPath = true

    init(input: ByteInput, context: DecoderContext, maxDepth: Int) {
        buffer = JSONInputBuffer(input: input)
        scanner = JSONScanner(maxDepth: maxDepth)
        self.context = context
    }

    func fatal(_ message: String) -> DocumentInputError {
        state = .done
        return DocumentInputError(label: "", message: "\(message) (line \(line))", recoverable: false)
    }

    /// The next non-whitespace byte (not consumed), or nil at the end.
    func peekSignificant() throws -> UInt8? {
        var i = buffer.start
        while let c = try buffer.byte(at: &i) {
            switch c {
            case 0x20, 0x09, 0x0D:
                i += 1
            case 0x0A:
                line += 1
                i += 1
            default:
                buffer.start = i
                return c
            }
            // Consumed whitespace need not stay buffered.
            buffer.start = i
        }
        buffer.start = i
        return nil
    }

    func consume() { buffer.start += 1 }

    /// The next document (with its class in a fixture, its label and line), or nil at the end.
    func next() throws -> (className: String?, label: String, element: JSONElement)? {
        while true {
            switch state {
            case .done:
                return nil
            case .start:
                try detectLayout()
            case .lines:
                guard let c = try peekSignificant() else { state = .done; return nil }
                guard c == UInt8(ascii: "{") else {
                    throw fatal("expected a document ('{') but found '\(printable(c))'")
                }
                return try element(className: nil)
            case .array(let first):
                guard let c = try peekSignificant() else {
                    throw fatal("unexpected end of input inside the top-level array")
                }
                if c == UInt8(ascii: "]") {
                    consume()
                    try expectEnd()
                    return nil
                }
                if !first {
                    guard c == UInt8(ascii: ",") else {
                        throw fatal("expected ',' or ']' between documents but found '\(printable(c))'")
                    }
                    consume()
                    guard try peekSignificant() == UInt8(ascii: "{") else {
                        throw fatal("expected a document ('{') after ','")
                    }
                } else if c != UInt8(ascii: "{") {
                    throw fatal("array elements must be documents ('{') but found '\(printable(c))'")
                }
                state = .array(first: false)
                return try element(className: nil)
            case .fixtureKeys(let first):
                try readFixtureKey(first: first)
            case .fixtureArray(let className, let first):
                guard let c = try peekSignificant() else {
                    throw fatal("unexpected end of input inside the '\(className)' array")
                }
                if c == UInt8(ascii: "]") {
                    consume()
                    state = .fixtureKeys(first: false)
                    continue
                }
                if !first {
                    guard c == UInt8(ascii: ",") else {
                        throw fatal("expected ',' or ']' between \(className) documents but found '\(printable(c))'")
                    }
                    consume()
                    guard try peekSignificant() == UInt8(ascii: "{") else {
                        throw fatal("expected a \(className) document ('{') after ','")
                    }
                } else if c != UInt8(ascii: "{") {
                    throw fatal("the '\(className)' array must hold documents ('{') but found '\(printable(c))'")
                }
                state = .fixtureArray(className: className, first: false)
                return try element(className: className)
            }
        }
    }

    /// Scans one document at the current position.
    private func element(className: String?) throws -> (className: String?, label: String, element: JSONElement) {
        let label: String
        if let className {
            let n = classCounts[className, default: 0] + 1
            classCounts[className] = n
            label = "\(className)#\(n)"
        } else {
            documentNumber += 1
            label = String(documentNumber)
        }
        let element =
            try (nativeFastPath ? parsedElement() : nil) ?? scanner.scanElement(buffer, line: &line, label: label)
        buffer.start = element.range.upperBound
        return (className, label, element)
    }

    /// The document at the current position read by ``PlainJSONParser`` straight from the
    /// buffer, when it is all there and is text json-c reads the same way: the scanner's pass
    /// (boundaries, member count, problems) would find nothing it does not already know.
    private func parsedElement() -> JSONElement? {
        let start = buffer.start
        let available = buffer.storage.bytes(start..<buffer.end)
        guard let (result, length, newlines) = PlainJSONParser.parse(prefixOf: available, maxDepth: scanner.maxDepth),
            length <= InterchangeLimits.maxDocumentBytes
        else { return nil }
        let element = JSONElement(
            range: start..<(start + length), line: line, memberCount: result.members,
            bigIntegers: [], problem: nil, parsed: result)
        line += newlines
        return element
    }

    /// Only whitespace may follow the top-level value.
    func expectEnd() throws {
        if let c = try peekSignificant() {
            throw fatal("unexpected '\(printable(c))' after the end of the top-level value")
        }
        state = .done
    }

    func printable(_ c: UInt8) -> String {
        c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "\\x" + String(c, radix: 16)
    }
}
