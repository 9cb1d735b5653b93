import Testing
@testable import PorterModel

/// The message of the parse error `text` causes, or nil when it parses.
private func parseError(_ text: String, maxDepth: Int = 512) -> String? {
    parseError(bytes: Array(text.utf8), maxDepth: maxDepth)
}

private func parseError(bytes: [UInt8], maxDepth: Int = 512) -> String? {
    do {
        _ = try JSONValue.parse(bytes, maxDepth: maxDepth)
        return nil
    } catch let error as PorterError {
        #expect(error.code == .parseError)
        return error.message
    } catch {
        return "unexpected \(error)"
    }
}

@Suite struct JSONValueTests {
    @Test func parsesScalarsAndKeepsNumberText() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse(" true ") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse("\"hi\"") == .string("hi"))
        for literal in ["0", "-0", "12", "-12", "1.50", "6.02e23", "1E-7", "1e+2", "12345678901234567890123"] {
            #expect(try JSONValue.parse(literal) == .number(literal))
        }
    }

    @Test func keepsObjectKeyOrderAndDuplicates() throws {
        let value = try JSONValue.parse(#"{"b": 1, "a": [true, null], "b": {}}"#)
        #expect(value.objectMembers?.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == .number("1"))
        #expect(value["a"]?[1] == .null)
        #expect(value.duplicateKeys == ["b"])
    }

    @Test func rejectsMalformedDocuments() {
        #expect(parseError("") == "expected a value but found end of input at line 1, column 1")
        #expect(parseError("[1,]") == "expected a value but found ']' at line 1, column 4")
        #expect(parseError("{\"a\" 1}") == "expected ':' but found '1' at line 1, column 6")
        #expect(parseError("{\"a\":1,}") == "expected a string key but found '}' at line 1, column 8")
        #expect(parseError("[1 2]") == "expected ',' or ']' but found '2' at line 1, column 4")
        #expect(parseError("{'a':1}") == "expected a string key but found ''' at line 1, column 2")
        #expect(parseError("[1]\n x") == "unexpected 'x' after the JSON value at line 2, column 2")
        #expect(parseError("tru") == "invalid literal, expected 'true' at line 1, column 1")
        #expect(parseError("NaN") == "expected a value but found 'N' at line 1, column 1")
        #expect(parseError("[1, 2") == "expected ',' or ']' but found end of input at line 1, column 6")
        #expect(parseError("// c\n1") == "expected a value but found '/' at line 1, column 1")
    }

    @Test func rejectsMalformedNumbers() {
        #expect(parseError("01") == "leading zeros are not allowed in numbers at line 1, column 2")
        #expect(parseError("-") == "expected a digit but found end of input at line 1, column 2")
        #expect(parseError("1.") == "expected a digit after '.' but found end of input at line 1, column 3")
        #expect(parseError("1e") == "expected a digit in the exponent but found end of input at line 1, column 3")
        #expect(parseError("+1") == "expected a value but found '+' at line 1, column 1")
        #expect(parseError(".5") == "expected a value but found '.' at line 1, column 1")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\té中😀"))
        #expect(try JSONValue.parse("\"\\u0000\"") == .string("\u{0}"))
        #expect(try JSONValue.parse("\"é中😀\"") == .string("é中😀"))
    }

    @Test func rejectsBadEscapesAndLoneSurrogates() {
        #expect(parseError(#""\q""#) == "invalid escape character 'q' after '\\' at line 1, column 2")
        #expect(parseError(#""\u12G4""#) == "expected 4 hexadecimal digits after \\u but found 'G' at line 1, column 6")
        #expect(
            parseError(#""\ud800""#)
                == "lone high surrogate \\uD800 is not followed by a low surrogate at line 1, column 2")
        #expect(
            parseError(#""\ud800\u0041""#)
                == "high surrogate \\uD800 is followed by \\u0041, not a low surrogate at line 1, column 2")
        #expect(parseError(#""x\udc00""#) == "lone low surrogate \\uDC00 at line 1, column 3")
        #expect(parseError("\"a\tb\"") == "control character U+0009 must be escaped in strings at line 1, column 3")
        #expect(parseError("\"abc") == "unterminated string starting at line 1, column 1")
    }

    @Test func rejectsInvalidUTF8() {
        let quote = UInt8(ascii: "\"")
        #expect(parseError(bytes: [quote, 0xFF, quote]) == "invalid UTF-8 byte 0xFF at line 1, column 2")
        // overlong '/'
        #expect(parseError(bytes: [quote, 0xC0, 0xAF, quote]) == "invalid UTF-8 byte 0xC0 at line 1, column 2")
        #expect(
            parseError(bytes: [quote, 0xE0, 0x80, 0xAF, quote])
                == "invalid UTF-8 sequence starting with byte 0xE0 at line 1, column 2")
        #expect(
            parseError(bytes: [quote, 0xED, 0xA0, 0x80, quote])
                == "invalid UTF-8 sequence starting with byte 0xED at line 1, column 2")  // UTF-8 surrogate
        #expect(
            parseError(bytes: [quote, 0xF4, 0x90, 0x80, 0x80, quote])
                == "invalid UTF-8 sequence starting with byte 0xF4 at line 1, column 2")  // > U+10FFFF
        #expect(
            parseError(bytes: [quote, 0xC3, quote])
                == "invalid UTF-8 sequence starting with byte 0xC3 at line 1, column 2")
        #expect(parseError(bytes: [0xC3, 0xA9]) == "expected a value but found byte 0xC3 at line 1, column 1")
        #expect(
            parseError(bytes: [quote, 0xC3, 0xA9, quote, 0xFF])
                == "unexpected byte 0xFF after the JSON value at line 1, column 4")
    }

    @Test func skipsLeadingByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
    }

    @Test func rejectsDeepNestingWithoutCrashing() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(parseError(deep) == "nesting deeper than 512 levels at line 1, column 513")
        let deepObjects = String(repeating: "{\"a\":", count: 100_000)
        #expect(parseError(deepObjects)?.hasPrefix("nesting deeper than 512 levels") == true)
        // Exactly at the limit is fine, one more is not.
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue.parse(atLimit).arrayValue?.count == 1)
        #expect(parseError("[[[1]]]", maxDepth: 2) == "nesting deeper than 2 levels at line 1, column 3")
        // A deep document under a generous limit parses without recursion.
        let deepAllowed = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(try JSONValue.parse(deepAllowed, maxDepth: 5000) != .null)
    }

    @Test func reportsLinesAndColumnsInScalars() {
        #expect(parseError("{\n  \"é\": tru\n}") == "invalid literal, expected 'true' at line 2, column 8")
    }

    @Test func numberAccessorsAreExact() {
        #expect(JSONValue.number("9223372036854775807").int64Value == Int64.max)
        #expect(JSONValue.number("-9223372036854775808").int64Value == Int64.min)
        #expect(JSONValue.number("9223372036854775808").int64Value == nil)
        #expect(JSONValue.number("9223372036854775808").uint64Value == 9_223_372_036_854_775_808)
        #expect(JSONValue.number("3.0").int64Value == 3)
        #expect(JSONValue.number("1.5e1").int64Value == 15)
        #expect(JSONValue.number("1500e-2").int64Value == 15)
        #expect(JSONValue.number("1.5").int64Value == nil)
        #expect(JSONValue.number("0.0e99999999999999999999").int64Value == 0)
        #expect(JSONValue.number("1e99999999999999999999").int64Value == nil)
        #expect(JSONValue.number("-1").uint64Value == nil)
        #expect(JSONValue.number("0.1").doubleValue == 0.1)
        #expect(JSONValue.string("1").int64Value == nil)
    }

    @Test func numberHelpersWriteShortestText() {
        #expect(JSONValue.number(Int64(-5)) == .number("-5"))
        #expect(JSONValue.number(UInt64.max) == .number("18446744073709551615"))
        #expect(JSONValue.number(0.1) == .number("0.1"))
        #expect(JSONValue.number(1.0) == .number("1.0"))
        #expect(JSONValue.number(1e300) == .number("1e+300"))
        #expect(JSONValue.number(Double.nan) == .null)
        #expect(JSONValue.number(-Double.infinity) == .null)
        #expect(JSONValue.number(Float(0.1)) == .number("0.1"))
    }

    @Test func serializesCompactAndPretty() throws {
        let value = JSONValue.object([
            "name": .string("Dög \"1\"\n\u{1}"), "list": .array([.number(1), .bool(false), .null]),
            "empty": .array([]), "obj": .object([]),
        ])
        #expect(
            value.serialized(pretty: false)
                == #"{"name":"Dög \"1\"\n\u0001","list":[1,false,null],"empty":[],"obj":{}}"#)
        #expect(
            value.serialized(pretty: true) == """
                {
                  "name": "Dög \\"1\\"\\n\\u0001",
                  "list": [
                    1,
                    false,
                    null
                  ],
                  "empty": [],
                  "obj": {}
                }
                """)
        #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
        #expect(try JSONValue.parse(value.serialized(pretty: false)) == value)
    }

    @Test func roundTripsEveryControlCharacterAndAstralScalar() throws {
        let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\u{7F}\u{10FFFF}😀"
        let written = JSONValue.string(text).serialized(pretty: false)
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 })
        #expect(try JSONValue.parse(written) == .string(text))
    }
}
