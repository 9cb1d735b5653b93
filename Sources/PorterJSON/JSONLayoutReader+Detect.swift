import Foundation
import PorterModel

extension JSONLayoutReader {
    /// Decides between an array, a fixture object and line-delimited documents from the first
    /// byte and, for an object, its first key: `schemaVersion`, or (when the source names no
    /// class) a class name holding an array or `schema` holding an object, makes it a fixture.
    func detectLayout() throws {
        skipByteOrderMark()
        guard let c = try peekSignificant() else {
            layout = .lines
            state = .done
            return
        }
        switch c {
        case UInt8(ascii: "["):
            consume()
            layout = .array
            state = .array(first: true)
        case UInt8(ascii: "{"):
            var isFixture = false
            if let (key, next) = try peekFirstKey() {
                if key == "schemaVersion" {
                    isFixture = true
                } else if context.className == nil, let cls = context.schema[key], !cls.isEmbedded,
                    next == UInt8(ascii: "[")
                {
                    isFixture = true
                } else if context.className == nil, key == "schema", next == UInt8(ascii: "{") {
                    isFixture = true
                }
            }
            if isFixture {
                consume()
                layout = .fixture
                state = .fixtureKeys(first: true)
            } else {
                layout = .lines
                state = .lines
            }
        default:
            throw fatal(
                "expected JSON documents (an object per line, an array of objects, or a fixture object) but found '\(printable(c))'"
            )
        }
    }

    private func skipByteOrderMark() {
        var i = buffer.start
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for b in bom {
            guard (try? buffer.byte(at: &i)) == b else { return }
            i += 1
        }
        buffer.start = i
    }

    /// The first key of the object at the current position and the first byte of its value,
    /// without consuming anything.
    private func peekFirstKey() throws -> (String, UInt8)? {
        var i = buffer.start + 1
        func skipSpace() throws -> UInt8? {
            while let c = try buffer.byte(at: &i) {
                if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { i += 1 } else { return c }
            }
            return nil
        }
        guard try skipSpace() == UInt8(ascii: "\"") else { return nil }
        let keyOffset = i - buffer.start
        guard let endOffset = try stringEnd(from: &i) else { return nil }
        let key = decodeKey(buffer.start + keyOffset, buffer.start + endOffset)
        i += 1
        guard try skipSpace() == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let next = try skipSpace(), let key else { return nil }
        return (key, next)
    }

    /// Moves `i` (at an opening quote) to the closing quote; returns its offset from `buffer.start`.
    private func stringEnd(from i: inout Int) throws -> Int? {
        i += 1
        var escape = false
        while let c = try buffer.byte(at: &i) {
            if escape {
                escape = false
            } else if c == UInt8(ascii: "\\") {
                escape = true
            } else if c == UInt8(ascii: "\"") {
                return i - buffer.start
            }
            i += 1
        }
        return nil
    }

    /// The text of the quoted string between two buffer indexes (quotes included).
    private func decodeKey(_ from: Int, _ to: Int) -> String? {
        let quoted = buffer.slice(from..<(to + 1))[...]
        if quoted.contains(UInt8(ascii: "\\")) {
            return (try? JSONValue.parse(Array(quoted)))?.stringValue
        }
        return String(validating: quoted.dropFirst().dropLast(), as: UTF8.self)
    }

    /// Reads a fixture key and moves into its array (or records `schemaVersion` or `schema`).
    func readFixtureKey(first: Bool) throws {
        guard var c = try peekSignificant() else { throw fatal("unexpected end of input inside the fixture object") }
        if c == UInt8(ascii: "}") {
            consume()
            return try expectEnd()
        }
        if !first {
            guard c == UInt8(ascii: ",") else {
                throw fatal("expected ',' or '}' between fixture keys but found '\(printable(c))'")
            }
            consume()
            guard let next = try peekSignificant() else {
                throw fatal("unexpected end of input inside the fixture object")
            }
            c = next
        }
        guard c == UInt8(ascii: "\"") else {
            throw fatal("expected a class name in quotes but found '\(printable(c))'")
        }
        var i = buffer.start
        guard let endOffset = try stringEnd(from: &i) else {
            throw fatal("unexpected end of input inside a fixture key")
        }
        guard let key = decodeKey(buffer.start, buffer.start + endOffset) else { throw fatal("invalid fixture key") }
        buffer.start += endOffset + 1
        guard try peekSignificant() == UInt8(ascii: ":") else { throw fatal("expected ':' after fixture key '\(key)'") }
        consume()
        guard let value = try peekSignificant() else {
            throw fatal("unexpected end of input after fixture key '\(key)'")
        }
        if key == "schemaVersion" {
            let version = try readVersion()
            try checkSchemaMemberVersion(fixture: version, member: schemaMemberVersion)
            fixtureVersion = version
            state = .fixtureKeys(first: false)
            return
        }
        // An object under `schema` is the fixture's schema; an array is a class named `schema`.
        if key == "schema", value != UInt8(ascii: "[") {
            guard value == UInt8(ascii: "{") else {
                throw fatal(
                    "fixture key 'schema' must hold the schema the fixture was written with (an object, as in a schema file)"
                )
            }
            try readSchemaMember()
            state = .fixtureKeys(first: false)
            return
        }
        guard value == UInt8(ascii: "[") else {
            throw fatal("fixture key '\(key)' must hold an array of \(key) documents")
        }
        consume()
        state = .fixtureArray(className: key, first: true)
    }

    /// A non-negative integer literal.
    private func readVersion() throws -> UInt64 {
        var i = buffer.start
        var digits: [UInt8] = []
        while let c = try buffer.byte(at: &i), c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9"), digits.count < 21 {
            digits.append(c)
            i += 1
        }
        buffer.start = i
        guard let version = UInt64(String(decoding: digits, as: UTF8.self)) else {
            throw fatal("schemaVersion must be a non-negative integer")
        }
        if let c = try peekSignificant(), c != UInt8(ascii: ","), c != UInt8(ascii: "}") {
            throw fatal("schemaVersion must be a non-negative integer")
        }
        return version
    }
}
