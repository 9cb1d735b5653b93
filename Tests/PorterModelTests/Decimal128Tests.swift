import Foundation
import Testing
@testable import PorterModel
import PorterTestSupport

// MARK: - Helpers

/// Bytes of a hex string (even length, either case); `nil` on any non-hex character.
private func bytes(fromHex hex: String) -> [UInt8]? {
    let utf8 = Array(hex.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(utf8.count / 2)
    var i = 0
    while i < utf8.count {
        guard let hi = hexNibble(utf8[i]), let lo = hexNibble(utf8[i + 1]) else { return nil }
        out.append(hi << 4 | lo)
        i += 2
    }
    return out
}

/// The decimal whose 16 BSON bytes (little-endian, as the corpus writes them) are `hex`.
private func decimal(hex: String) -> Decimal128? {
    bytes(fromHex: hex).flatMap { Decimal128(bsonBytes: $0) }
}

/// A canonical test vector: BSON bytes, canonical string, and other spellings that parse to the
/// same bytes.
struct DecimalVector: Sendable, CustomTestStringConvertible {
    let hex: String
    let canonical: String
    let others: [String]
    init(_ hex: String, _ canonical: String, _ others: [String] = []) {
        self.hex = hex
        self.canonical = canonical
        self.others = others
    }
    var testDescription: String { canonical }
}

/// Canonical vectors copied from the BSON corpus (decimal128-1…5.json), so the conversions are
/// tested even where `../shared/bson-corpus` is absent.
private let embeddedVectors: [DecimalVector] = [
    .init("0000000000000000000000000000007C", "NaN", ["nan", "nAn"]),
    .init("00000000000000000000000000000078", "Infinity", ["+infinity", "infiniTY", "inf", "inF"]),
    .init("000000000000000000000000000000F8", "-Infinity", ["-infinity", "-Infinity", "-inf"]),
    .init("00000000000000000000000000004030", "0", ["000000.", "+0.", "0.00E+2", "0.0E+1", "0E+0"]),
    .init("000000000000000000000000000040B0", "-0", ["-00000.", "-0."]),
    .init("00000000000000000000000000003EB0", "-0.0", ["-.0"]),
    .init("00000000000000000000000000004630", "0E+3", ["0.00E+5", "0.0E+4"]),
    .init("00000000000000000000000000007A2B", "0E-611"),
    .init("01000000000000000000000000004630", "1E+3", ["1E3", "1e+3"]),
    .init("01000000000000000000000000003A30", "0.001", [".001", "1E-3", "0.1e-2"]),
    .init("02000000000000000000000000004030", "2"),
    .init("D0070000000000000000000000003A30", "2.000"),
    .init("D2040000000000000000000000003430", "0.001234"),
    .init("64000000000000000000000000002CB0", "-1.00E-8", ["-100E-10"]),
    .init(
        "F2AF967ED05C82DE3297FF6FDE3C4030", "1234567890123456789012345678901234",
        ["+1234567890123456789012345678901234"]),
    .init("FFFFFFFFFFFFFFFFFFFFFFFFFFFF4030", "5192296858534827628530496329220095"),
    // Largest and smallest exponents.
    .init("FFFFFFFF638E8D37C087ADBE09EDFF5F", "9.999999999999999999999999999999999E+6144"),
    .init("FFFFFFFF638E8D37C087ADBE09EDFFDF", "-9.999999999999999999999999999999999E+6144"),
    .init(
        "01000000000000000000000000000000", "1E-6176",
        ["10E-6177", "0.000000000000000000000000000000001E-6143", "1e-6176"]),
    .init("FFFFFFFF638E8D37C087ADBE09ED0100", "9.999999999999999999999999999999999E-6143"),
    .init(
        "FFFFFFFF095BC138938D44C64D310000", "9.99999999999999999999999999999999E-6144",
        ["999999999999999999999999999999999e-6176"]),
    .init("010000000A5BC138938D44C64D310080", "-1.000000000000000000000000000000001E-6143"),
    // Exact clamping: the coefficient is padded with zeros, or a zero's exponent is clamped.
    .init("000000000A5BC138938D44C64D31FE5F", "1.000000000000000000000000000000000E+6144", ["1E+6144"]),
    .init("0A00000000000000000000000000FE5F", "1.0E+6112", ["1E6112", "1E+6112"]),
    .init("0000000000000000000000000000FE5F", "0E+6111", ["0E+2147483647", "0E+6112", "0E+8000"]),
    .init("0000000000000000000000000000FEDF", "-0E+6111", ["-0E+2147483647", "-0E+8000"]),
    .init("00000000000000000000000000000080", "-0E-6176", ["-0E-2147483647", "-0E-8000", "-0E-6177"]),
    // Trailing zeros beyond 34 digits are dropped exactly.
    .init(
        "000000000A5BC138938D44C64D31FC2F", "0.1000000000000000000000000000000000",
        [".100000000000000000000000000000000000000000000000000000000000"]),
    .init(
        "99761CC7B548F377DC80A131C836FE2F", "1.111111111111111111111111111112345",
        ["1.1111111111111111111111111111123450"]),
    .init("79D9E0F9763ADA429D02000000005830", "1.2345689012345789012345E+34", ["12345689012345789012345E+12"]),
    // The plain/scientific boundary: adjusted exponent -6 is plain, -7 is scientific.
    .init("05000000000000000000000000003030", "5E-8", ["0.00000005"]),
    .init("05000000000000000000000000003230", "5E-7", ["0.0000005"]),
    .init("05000000000000000000000000003430", "0.000005", ["5E-6"]),
    .init("F1040000000000000000000000003630", "0.01265", ["0.1265E-1", "12.65E-3", "126.5E-4"]),
    .init("2C000000000000000000000000004030", "44", ["0044", "044"]),
    .init("11000000000000000000000000004030", "17", ["17."]),
    .init("000000800000000000000000000040B0", "-2147483648"),
]

/// Non-canonical encodings and the canonical string they must print as (the corpus "lossy" cases).
private let nonCanonicalVectors: [(hex: String, canonical: String)] = [
    ("000000000000000000000000000000FC", "NaN"),  // negative NaN
    ("0000000000000000000000000000007E", "NaN"),  // signalling NaN
    ("1200000000000000000000000000007E", "NaN"),  // NaN with a payload
    ("0000000000000000000000000000106C", "0"),  // `11` combination form: coefficient ≥ 2^113
    ("DCBA9876543210DEADBEEF00000010EC", "-0"),
    ("FFFFFFFFFFFFFFFFFFFFFFFFFFFF116C", "0E+3"),
]

/// Strings every parser must reject (from decimal128-4/6/7.json, plus `sNaN`, which Porter does not accept).
private let embeddedParseErrors: [String] = [
    "", " 1", "1 ", "1e", "E01", ".", "..3", "1.3.4", "+-32.4", "--32.4", "32.4E+-21",
    "Infi", "NaNq", "-9Inf", ".Infinity", "sNaN", "123,65", "1E\"1", "7e99999a", "7e12356789012x",
    // Would need rounding: overflow, underflow, more than 34 significant digits.
    "7e10000", "-7e10000", "1E-6177",
    "100000000000000000000000000000000000000000000000000000000001",
    "1.11111111111111111111111111111234550", "-1.11111111111111111111111111111234549",
]

/// Checks `text` is rejected with a parse error that quotes it.
private func expectParseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let error = #expect(throws: PorterError.self, "'\(text)' should not parse", sourceLocation: sourceLocation) {
        try Decimal128(string: text)
    }
    #expect(error?.code == .parseError, sourceLocation: sourceLocation)
    #expect(
        error?.message.hasPrefix("invalid decimal128 '\(text)': ") == true, "\(error?.message ?? "")",
        sourceLocation: sourceLocation)
}

// MARK: - Embedded vectors

@Suite("Decimal128 text conversion")
struct Decimal128Tests {
    @Test("Canonical vectors: bytes ⇄ string", arguments: embeddedVectors)
    func canonicalVector(_ vector: DecimalVector) throws {
        let value = try #require(decimal(hex: vector.hex))
        #expect(value.description == vector.canonical)
        #expect(try Decimal128(string: vector.canonical) == value)
        for other in vector.others {
            #expect(try Decimal128(string: other) == value, "'\(other)'")
        }
    }

    @Test("Non-canonical encodings print canonically")
    func nonCanonicalEncodings() throws {
        for (hex, canonical) in nonCanonicalVectors {
            #expect(try #require(decimal(hex: hex)).description == canonical, "\(hex)")
        }
        // A coefficient of 10^34 or more in the normal form is non-canonical and reads as zero.
        let tenTo34 = Decimal128(high: 0x3040_0000_0000_0000 | 0x0001_ED09_BEAD_87C0, low: 0x378D_8E64_0000_0000)
        #expect(tenTo34.description == "0")
        let below = Decimal128(high: tenTo34.high, low: tenTo34.low - 1)
        #expect(below.description == "9999999999999999999999999999999999")
        let maxBits = Decimal128(high: 0xB043_FFFF_FFFF_FFFF, low: .max)
        #expect(maxBits.description == "-0E+1")
    }

    @Test("Long digit strings: exact when the extra digits are zeros")
    func longStrings() throws {
        let thousandDigits = "1" + String(repeating: "0", count: 999)
        let big = try Decimal128(string: thousandDigits)
        #expect(big == decimal(hex: "000000000A5BC138938D44C64D31CC37"))
        #expect(big.description == "1.000000000000000000000000000000000E+999")

        let tiny = try Decimal128(string: "." + String(repeating: "0", count: 998) + "1")
        #expect(tiny == decimal(hex: "01000000000000000000000000007228"))
        #expect(tiny.description == "1E-999")

        let longZero = try Decimal128(string: "0." + String(repeating: "0", count: 5000))
        #expect(longZero.description == "0E-5000")

        expectParseError(String(repeating: "1", count: 35))
        expectParseError("1" + String(repeating: "0", count: 6144 + 34))  // 35 digits even after clamping
    }

    @Test("Parse errors quote the input", arguments: embeddedParseErrors)
    func parseError(_ text: String) {
        expectParseError(text)
    }

    @Test("Int64 values are exact")
    func int64() throws {
        #expect(Decimal128(0) == decimal(hex: "00000000000000000000000000004030"))
        #expect(Decimal128(-2_147_483_648) == decimal(hex: "000000800000000000000000000040B0"))
        for value: Int64 in [0, 1, -1, 42, -750, 1_000_000, .max, .min, .max - 1, .min + 1] {
            let d = Decimal128(value)
            #expect(d.description == String(value))
            #expect(d.exactInt64 == value)
            #expect(try Decimal128(string: String(value)) == d)
        }
    }

    @Test("exactInt64 only for integers in range")
    func exactInt64() throws {
        let cases: [(String, Int64?)] = [
            ("1.000", 1), ("12E+2", 1200), ("100E-2", 1), ("-0", 0), ("0E-6176", 0), ("0E+6111", 0),
            ("1E+18", 1_000_000_000_000_000_000), ("9.223372036854775807E+18", .max),
            ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil), ("1E+19", nil),
            ("1.5", nil), ("-0.001", nil), ("1E-6176", nil), ("NaN", nil), ("Infinity", nil), ("-Infinity", nil),
            ("1.000000000000000000000000000000000E+6144", nil),
            ("92233720368547758070000000000000000E-16", .max),
        ]
        for (text, expected) in cases {
            #expect(try Decimal128(string: text).exactInt64 == expected, "\(text)")
        }
    }

    @Test("doubleValue is the nearest double")
    func doubleValue() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("1E+3", 1000), ("-1.00E-8", -1e-8), ("123.456", 123.456),
            ("1234567890123456789012345678901234", 1.2345678901234568e33),
            ("2.2250738585072014E-308", .leastNormalMagnitude), ("5E-324", .leastNonzeroMagnitude),
            ("1.7976931348623157E+308", .greatestFiniteMagnitude),
            ("9.999999999999999999999999999999999E+6144", .infinity), ("-1E+400", -.infinity),
            ("1E-6176", 0), ("Infinity", .infinity), ("-Infinity", -.infinity),
        ]
        for (text, expected) in cases {
            #expect(try Decimal128(string: text).doubleValue == expected, "\(text)")
        }
        let negativeZero = try Decimal128(string: "-0").doubleValue
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(try Decimal128(string: "NaN").doubleValue.isNaN)
    }

    @Test("isNaN, isInfinite, isNegative")
    func predicates() throws {
        for hex in [
            "0000000000000000000000000000007C", "000000000000000000000000000000FC", "0000000000000000000000000000007E",
        ] {
            let d = try #require(decimal(hex: hex))
            #expect(d.isNaN && !d.isInfinite && !d.isNegative, "\(hex)")
        }
        let inf = try Decimal128(string: "inf"), negInf = try Decimal128(string: "-inf")
        #expect(inf.isInfinite && !inf.isNaN && !inf.isNegative)
        #expect(negInf.isInfinite && negInf.isNegative)
        #expect(try Decimal128(string: "-0").isNegative)
        #expect(try !Decimal128(string: "0").isNegative)
        #expect(try Decimal128(string: "-1E-6176").isNegative)
        #expect(try !Decimal128(string: "1.5").isNaN)
    }
}

// MARK: - BSON corpus conformance

/// The `$numberDecimal` string of an Extended JSON document `{"d": {"$numberDecimal": "…"}}`.
private func numberDecimal(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    let d = try #require((object as? [String: Any])?["d"] as? [String: Any])
    return try #require(d["$numberDecimal"] as? String)
}

@Suite("Decimal128 BSON corpus")
struct Decimal128CorpusTests {
    @Test(
        "Every decimal128 valid case and parse error of the BSON corpus",
        .enabled(if: SharedBSONCorpus.available, "\(SharedBSONCorpus.missing)")
    )
    func corpus() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: SharedBSONCorpus.folder.path)
            .filter { $0.hasPrefix("decimal128-") && $0.hasSuffix(".json") }
            .sorted()
        #expect(!files.isEmpty)
        var validCount = 0, degenerateCount = 0, parseErrorCount = 0
        for file in files {
            let data = try Data(contentsOf: SharedBSONCorpus.folder.appendingPathComponent(file))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file)")
            for case let test as [String: Any] in root["valid"] as? [Any] ?? [] {
                let name = "\(file): \(test["description"] as? String ?? "?")"
                let documentHex = try #require(test["canonical_bson"] as? String, "\(name)")
                let document = try #require(bytes(fromHex: documentHex), "\(name)")
                // {"d": decimal}: int32 length 24, type 0x13, "d\0", 16 bytes, terminating 0.
                try #require(
                    document.count == 24 && document[4] == 0x13 && document[5] == 0x64 && document[6] == 0, "\(name)")
                let value = try #require(Decimal128(bsonBytes: document[7..<23]), "\(name)")
                #expect(value.bsonBytes == Array(document[7..<23]), "\(name)")
                let canonical = try numberDecimal(try #require(test["canonical_extjson"] as? String, "\(name)"))
                let lossy = test["lossy"] as? Bool ?? false

                // bson → canonical string
                #expect(value.description == canonical, "\(name)")
                // canonical string → bson (lossy cases, e.g. NaN payloads, cannot round-trip)
                let parsed = try Decimal128(string: canonical)
                if !lossy { #expect(parsed == value, "\(name)") }
                #expect(parsed.description == canonical, "\(name)")

                for key in ["degenerate_extjson", "converted_extjson"] {
                    guard let json = test[key] as? String else { continue }
                    let text = try numberDecimal(json)
                    let other = try Decimal128(string: text)
                    #expect(other.description == canonical, "\(name) \(key)")
                    if !lossy && key == "degenerate_extjson" { #expect(other == value, "\(name) \(key)") }
                    degenerateCount += 1
                }
                validCount += 1
            }
            for case let test as [String: Any] in root["parseErrors"] as? [Any] ?? [] {
                let text = try #require(test["string"] as? String, "\(file)")
                expectParseError(text)
                parseErrorCount += 1
            }
        }
        #expect(validCount > 0 && parseErrorCount > 0)
        print(
            "bson-corpus decimal128: \(validCount) valid, \(degenerateCount) degenerate, \(parseErrorCount) parse errors"
        )
    }
}
