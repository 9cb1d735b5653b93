import Foundation
import PorterInterchange
@testable import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterTestSupport

/// Documents the native JSON parser reads must come out exactly as json-c reads them, and
/// everything it declines must still get json-c's value or error: both decoders run over the
/// same generated input and are compared document by document.
@Suite struct PlainJSONParserTests {
    /// Every outcome of a decoder over `text`: documents and errors, in order.
    static func outcomes(_ text: String, native: Bool) throws -> [String] {
        let schema = try Schema(
            jsonString: #"{"schemaVersion": 1, "classes": [{"name": "C", "properties": {"a": "int"}}]}"#)
        let decoder = try JSONDocumentDecoder(
            input: ByteInput(data: Data(text.utf8), name: "t.json"),
            context: DecoderContext(schema: schema, className: "C"),
            maxDepth: InterchangeLimits.maxNestingDepth, nativeFastPath: native)
        var out: [String] = []
        while true {
            do {
                guard let document = try decoder.next() else { break }
                out.append("\(document.label) \(render(.document(document.document)))")
            } catch let error as DocumentInputError {
                out.append("error \(error.label) \(error.path) \(error.message)")
                if !error.recoverable { break }
            }
        }
        return out
    }

    /// A rendering that tells apart everything the decoders could disagree on (doubles by bits).
    static func render(_ value: DocumentValue) -> String {
        switch value {
        case .double(let d): return "d\(d.bitPattern)"
        case .int64(let i): return "i\(i)"
        case .int32(let i): return "i32:\(i)"
        case .string(let s): return "s\(Array(s.utf8))"
        case .document(let doc):
            return "{" + doc.fields.map { "\(Array($0.key.utf8)):\(render($0.value))" }.joined(separator: ",") + "}"
        case .array(let elements): return "[" + elements.map(render).joined(separator: ",") + "]"
        default: return "\(value)"
        }
    }

    @Test func fixedCasesMatchJSONC() throws {
        let cases = [
            #"{"a": 1, "b": -0, "c": 0, "d": -9223372036854775808, "e": 9223372036854775807, "f": 9223372036854775808}"#,
            #"{"a": 1.5, "b": -0.0, "c": 1e400, "d": 1e-400, "e": 2.2250738585072014e-308, "f": 4.9e-324, "g": 0e5, "h": 01}"#,
            #"{"a": "\u00e9\ud83d\ude00\n\t\"\\\/", "b": "\ud83d", "c": "\udc00", "d": "x\u0000y", "e": "\u0041"}"#,
            #"{"a": true, "b": false, "c": null, "d": True, "e": nul}"#,
            #"{"a": [1, [2, [3, {}]], []], "b": {"c": {"d": []}}}"#,
            #"{"a": 1, "a": 2}"#, #"{"$oid": "5f1b2c3d4e5f6a7b8c9d0e1f"}"#,
            #"{"a": {"$date": "2020-01-01T00:00:00Z"}}"#,
            #"{"a": 1,}"#, #"{"a" 1}"#, #"{'a': 1}"#, #"{"a": .5}"#, #"{"a": 1.}"#, #"{"a": +1}"#, #"{"a": 1e}"#,
            "{\"a\": \"tab\there\"}", "{\"a\":\u{0B}1}", "{\"é\": \"ü\"}", "{\"a\": 123456789012345678901234567890}",
            #"{"a": NaN, "b": Infinity}"#, #"{"a": -Infinity}"#, "{\"a\": 1}\n{\"b\": [1,2,3]}\n{\"c\": \"x\"}",
        ]
        for text in cases {
            #expect(try Self.outcomes(text, native: true) == Self.outcomes(text, native: false), "\(text)")
        }
    }

    @Test func invalidUTF8MatchesJSONC() throws {
        for bytes: [UInt8] in [
            [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xE2, 0x82],
        ] {
            let text = String(decoding: Array(#"{"a": ""#.utf8) + bytes + Array(#""}"#.utf8), as: UTF8.self)
            #expect(try Self.outcomes(text, native: true) == Self.outcomes(text, native: false))
            // Raw bytes (not repaired by String) go through a file.
            let data = Data(Array(#"{"a": ""#.utf8) + bytes + Array(#""}"#.utf8))
            #expect(try Self.rawOutcomes(data, native: true) == Self.rawOutcomes(data, native: false))
        }
    }

    static func rawOutcomes(_ data: Data, native: Bool) throws -> [String] {
        let schema = try Schema(
            jsonString: #"{"schemaVersion": 1, "classes": [{"name": "C", "properties": {"a": "int"}}]}"#)
        let decoder = try JSONDocumentDecoder(
            input: ByteInput(data: data, name: "t.json"), context: DecoderContext(schema: schema, className: "C"),
            maxDepth: InterchangeLimits.maxNestingDepth, nativeFastPath: native)
        do {
            guard let document = try decoder.next() else { return ["end"] }
            return [render(.document(document.document))]
        } catch let error as DocumentInputError {
            return ["error \(error.path) \(error.message)"]
        }
    }

    @Test func generatedDocumentsMatchJSONC() throws {
        var rng = SeededGenerator(seed: 99)
        var lines: [String] = []
        for _ in 0..<3000 { lines.append(Self.generatedObject(&rng, depth: 0)) }
        let text = lines.joined(separator: "\n")
        let native = try Self.outcomes(text, native: true)
        let jsonc = try Self.outcomes(text, native: false)
        #expect(native.count == jsonc.count)
        for (a, b) in zip(native, jsonc) where a != b {
            Issue.record("native \(a) vs json-c \(b)")
            break
        }
    }

    static func generatedObject(_ rng: inout SeededGenerator, depth: Int) -> String {
        let keys = ["a", "b", "$oid", "é", "k\\n", "k\\u0041", "x y", "a"]
        let count = Int(rng.next() % 6)
        let members = (0..<count).map { i -> String in
            let key = rng.next() % 8 == 0 ? keys[Int(rng.next() % UInt64(keys.count))] : "f\(i)"
            return "\"\(key)\"\(rng.next() % 3 == 0 ? " : " : ":")\(generatedValue(&rng, depth: depth))"
        }
        return "{" + members.joined(separator: rng.next() % 2 == 0 ? "," : ", ") + "}"
    }

    static func generatedValue(_ rng: inout SeededGenerator, depth: Int) -> String {
        let strings = [
            "\"plain\"", "\"\"", "\"\\u00e9\\ud83d\\ude00\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u0000\"",
            "\"é😀\"",
            "\"\\ud800\"", "\"\\uDFFF\"", "\"\\x\"", "\"2020-01-01T00:00:00Z\"",
        ]
        let numbers = [
            "0", "-0", "1", "-1", "123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "1.5", "-0.0", "1e5", "1E-5", "2.5e+10", "1e400", "1e-400", "0.1", "123.456e-7", "00", "1.", ".5", "-",
            "1e",
            "4.9e-324", "1.7976931348623157e308", "12345678901234567890123",
        ]
        switch rng.next() % 10 {
        case 0, 1: return strings[Int(rng.next() % UInt64(strings.count))]
        case 2, 3, 4: return numbers[Int(rng.next() % UInt64(numbers.count))]
        case 5: return ["true", "false", "null", "True", "nul"][Int(rng.next() % 5)]
        case 6: return String(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF))
        case 7 where depth < 3: return generatedObject(&rng, depth: depth + 1)
        case 8 where depth < 3:
            return "["
                + (0..<Int(rng.next() % 4)).map { _ in generatedValue(&rng, depth: depth + 1) }.joined(separator: ",")
                + "]"
        default: return String(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 60))
        }
    }
}
