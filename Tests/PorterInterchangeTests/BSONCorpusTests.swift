import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import PorterTestSupport
import Testing
import PorterDocument
import PorterModel
import PorterStore

/// Conformance against the BSON corpus (`../shared/bson-corpus`, when present) and a few vectors
/// of our own: every valid case of a type Porter stores imports into a `mixed` property and
/// exports back to the same canonical BSON and Extended JSON; every decode and parse error case
/// is rejected with a clear error.
@Suite struct BSONCorpusTests {
    /// BSON types Porter stores: double, string, binary (subtypes 0 and 4), ObjectId, bool,
    /// datetime, null, int64, decimal128. (int32 is read, and stored as int64.)
    static let storedTypes: Set<String> = ["0x01", "0x02", "0x05", "0x07", "0x08", "0x09", "0x0A", "0x12", "0x13"]

    struct CorpusFile {
        var name: String
        var json: JSONValue
        var type: String { json["bson_type"]?.stringValue ?? "" }
        var testKey: String { json["test_key"]?.stringValue ?? "a" }
        var valid: [JSONValue] { json["valid"]?.arrayValue ?? [] }
        var decodeErrors: [JSONValue] { json["decodeErrors"]?.arrayValue ?? [] }
        var parseErrors: [JSONValue] { json["parseErrors"]?.arrayValue ?? [] }
    }

    /// The corpus files (`../shared/bson-corpus`; their tests are skipped where it is absent).
    static func corpus() throws -> [CorpusFile] {
        try SharedBSONCorpus.files().compactMap { name in
            let json = try JSONValue.parse(try Data(contentsOf: SharedBSONCorpus.folder.appendingPathComponent(name)))
            return json["bson_type"] == nil ? nil : CorpusFile(name: name, json: json)
        }
    }

    /// Vectors of our own, in the corpus format, so the checks run without the corpus too.
    static let builtIn: [CorpusFile] = {
        let text = #"""
            {"bson_type": "0x01", "test_key": "d", "valid": [
              {"description": "-0.0", "canonical_bson": "10000000016400000000000000008000", "canonical_extjson": "{\"d\" : {\"$numberDouble\": \"-0.0\"}}", "relaxed_extjson": "{\"d\" : -0.0}"},
              {"description": "-Inf", "canonical_bson": "10000000016400000000000000F0FF00", "canonical_extjson": "{\"d\": {\"$numberDouble\": \"-Infinity\"}}"}],
             "decodeErrors": [{"description": "double truncated", "bson": "0B0000000164000000F03F00"}]}
            """#
        let more = [
            #"{"bson_type": "0x02", "test_key": "a", "valid": [{"description": "NUL", "canonical_bson": "190000000261000D0000006162006261620062616261620000", "canonical_extjson": "{\"a\" : \"ab\\u0000bab\\u0000babab\"}"}], "decodeErrors": [{"description": "invalid UTF-8", "bson": "0E00000002610002000000E90000"}]}"#,
            #"{"bson_type": "0x09", "test_key": "a", "valid": [{"description": "Y10K", "canonical_bson": "1000000009610000DC1FD277E6000000", "relaxed_extjson": "{\"a\":{\"$date\":{\"$numberLong\":\"253402300800000\"}}}", "canonical_extjson": "{\"a\":{\"$date\":{\"$numberLong\":\"253402300800000\"}}}"}]}"#,
            #"{"bson_type": "0x12", "test_key": "a", "valid": [{"description": "min", "canonical_bson": "10000000126100000000000000008000", "canonical_extjson": "{\"a\" : {\"$numberLong\" : \"-9223372036854775808\"}}", "relaxed_extjson": "{\"a\" : -9223372036854775808}"}]}"#,
            #"{"bson_type": "0x05", "test_key": "x", "valid": [{"description": "uuid", "canonical_bson": "1D000000057800100000000473FFD26444B34C6990E8E7D1DFC035D400", "canonical_extjson": "{\"x\" : { \"$binary\" : {\"base64\" : \"c//SZESzTGmQ6OfR38A11A==\", \"subType\" : \"04\"}}}", "degenerate_extjson": "{\"x\" : { \"$uuid\" : \"73ffd264-44b3-4c69-90e8-e7d1dfc035d4\"}}"}], "parseErrors": [{"description": "$uuid too short", "string": "{\"x\" : { \"$uuid\" : \"73ffd264-44b3-90e8-e7d1dfc035d4\"}}"}]}"#,
            #"{"bson_type": "0x13", "test_key": "d", "valid": [{"description": "max", "canonical_bson": "18000000136400FFFFFFFF638E8D37C087ADBE09EDFF5F00", "canonical_extjson": "{\"d\" : {\"$numberDecimal\" : \"9.999999999999999999999999999999999E+6144\"}}"}], "parseErrors": [{"description": "junk", "string": "E02"}]}"#,
            #"{"bson_type": "0x08", "test_key": "b", "valid": [{"description": "true", "canonical_bson": "090000000862000100", "canonical_extjson": "{\"b\" : true}"}], "decodeErrors": [{"description": "bool 2", "bson": "090000000862000200"}]}"#,
            #"{"bson_type": "0x00", "parseErrors": [{"description": "bad $numberLong", "string": "{\"a\" : {\"$numberLong\" : 42}}"}, {"description": "bad $date", "string": "{\"a\" : {\"$date\" : 4.5}}"}]}"#,
        ]
        return ([text] + more).enumerated().map {
            CorpusFile(name: "builtin-\($0.offset)", json: try! JSONValue.parse($0.element))
        }
    }()

    /// A database with class `C` holding one mixed property per name.
    static func database(_ keys: [String]) throws -> Database {
        let names = Set(
            keys.filter {
                !$0.isEmpty
                    && $0.utf8.allSatisfy {
                        $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                            || (0x61...0x7A).contains($0)
                    }
            })
        let properties = (names.isEmpty ? ["a"] : names.sorted()).map { "\"\($0)\": \"mixed\"" }.joined(separator: ",")
        return try memoryDatabase(
            try schema(#"{"classes":[{"name":"C","properties":{"# + properties + "}}]}"), "corpus")
    }

    /// The exported BSON without its leading `_key` element.
    static func strippingKey(_ bytes: [UInt8]) -> [UInt8] {
        let keyElement = 1 + 5 + 8  // type, "_key\0", int64
        let rest = Array(bytes[(4 + keyElement)...])
        let length = UInt32(rest.count + 4)
        return (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * UInt32($0))) } + rest
    }

    /// Whether the case is of a type and subtype Porter stores exactly.
    static func isStored(_ file: CorpusFile, _ bson: [UInt8]) -> Bool {
        guard storedTypes.contains(file.type) else { return false }
        if file.type == "0x05" {
            // Binary: only subtypes 0 (data) and 4 with 16 bytes (uuid) are kept as they are.
            guard let doc = try? BSONCodec.decode(bson), case .binary(let data, let subtype)? = doc.fields.first?.value
            else { return false }
            return subtype == 0 || (subtype == 4 && data.count == 16)
        }
        return true
    }

    @Test func validCasesRoundTripThroughMixed() throws { try Self.expectValidCasesRoundTripThroughMixed(Self.builtIn) }

    @Test(.enabled(if: SharedBSONCorpus.available, "\(SharedBSONCorpus.missing)"))
    func corpusValidCasesRoundTripThroughMixed() throws {
        try Self.expectValidCasesRoundTripThroughMixed(try Self.corpus())
    }

    static func expectValidCasesRoundTripThroughMixed(_ files: [CorpusFile]) throws {
        var checked = 0
        for file in files {
            for valid in file.valid {
                guard let hexText = valid["canonical_bson"]?.stringValue else { continue }
                let canonical = hexBytes(hexText)
                let description = "\(file.name): \(valid["description"]?.stringValue ?? "")"
                let db = try Self.database([file.testKey])
                let lines = importLines(db, Data(canonical), name: "C.bson")
                guard Self.isStored(file, canonical) else {
                    guard file.json["test_key"] != nil else { continue }
                    // Other types are either rejected with a reason, or (int32, binary subtype 2) converted;
                    // documents and arrays become nested dictionaries and lists, whose keys follow the map-key rules.
                    let keys = (try? BSONCodec.decode(canonical))?.fields.map(\.key) ?? []
                    if !lines.isEmpty && keys == [file.testKey] {
                        #expect(
                            lines.allSatisfy { $0.contains("cannot") || $0.contains("invalid map key") },
                            "\(description): \(lines)")
                    }
                    continue
                }
                #expect(lines.isEmpty, "\(description): \(lines)")
                guard lines.isEmpty else { continue }
                checked += 1
                #expect(
                    hex(Self.strippingKey(Array(try exportClass(db, "C", format: "bson")))) == hexText.uppercased(),
                    "\(description)")
                try expectExtendedJSON(db, canonical: true, valid["canonical_extjson"], description)
                try expectExtendedJSON(db, canonical: false, valid["relaxed_extjson"], description)
                // Reading the Extended JSON forms gives the canonical BSON back.
                let lossy = valid["lossy"]?.boolValue == true
                for key in ["canonical_extjson", "relaxed_extjson", "degenerate_extjson"] where !lossy {
                    guard let text = valid[key]?.stringValue else { continue }
                    let fromJSON = try Self.database([file.testKey])
                    #expect(importLines(fromJSON, text, name: "C.json").isEmpty, "\(description) \(key)")
                    #expect(
                        hex(Self.strippingKey(Array(try exportClass(fromJSON, "C", format: "bson"))))
                            == hexText.uppercased(), "\(description) \(key)")
                }
                if let degenerate = valid["degenerate_bson"]?.stringValue {
                    let fromDegenerate = try Self.database([file.testKey])
                    #expect(importLines(fromDegenerate, Data(hexBytes(degenerate)), name: "C.bson").isEmpty)
                    #expect(
                        hex(Self.strippingKey(Array(try exportClass(fromDegenerate, "C", format: "bson"))))
                            == hexText.uppercased(), "\(description) degenerate")
                }
            }
        }
        #expect(checked >= 6)
        print("BSON corpus: \(checked) valid cases of stored types round-tripped")
    }

    static func expectExtendedJSON(_ db: Database, canonical: Bool, _ expected: JSONValue?, _ description: String)
        throws
    {
        guard let expectedText = expected?.stringValue else { return }
        let exported = String(
            decoding: try exportClass(db, "C", format: canonical ? "ejson-canonical" : "ejson"), as: UTF8.self)
        let actual = try JSONValue.parse(exported)
        guard case .object(let members) = actual else { Issue.record("\(description): not an object"); return }
        let withoutKey = JSONValue.object(members.filter { $0.key != "_key" })
        #expect(
            Self.equivalent(withoutKey, try JSONValue.parse(expectedText)),
            "\(description) \(canonical ? "canonical" : "relaxed"): \(exported)")
    }

    /// Extended JSON equality with doubles compared by value, as the corpus asks.
    static func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return zip(x, y).allSatisfy { m, n in
                guard m.key == n.key else { return false }
                if m.key == "$numberDouble", let s = m.value.stringValue, let t = n.value.stringValue {
                    let (d, e) = (ExtendedJSON.parseDoubleText(s), ExtendedJSON.parseDoubleText(t))
                    return d == e || (d?.isNaN == true && e?.isNaN == true)
                }
                return equivalent(m.value, n.value)
            }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        case (.number(let x), .number(let y)):
            return x == y
                || (Double(x) == Double(y)
                    && x.contains(where: { ".eE".contains($0) }) == y.contains(where: { ".eE".contains($0) }))
        default:
            return a == b
        }
    }

    @Test func decodeErrorsAreRejected() throws { try Self.expectDecodeErrorsAreRejected(Self.builtIn) }

    @Test(.enabled(if: SharedBSONCorpus.available, "\(SharedBSONCorpus.missing)"))
    func corpusDecodeErrorsAreRejected() throws { try Self.expectDecodeErrorsAreRejected(try Self.corpus()) }

    static func expectDecodeErrorsAreRejected(_ files: [CorpusFile]) throws {
        var checked = 0
        for file in files {
            for bad in file.decodeErrors {
                guard let hexText = bad["bson"]?.stringValue else { continue }
                let db = try Self.database([file.testKey])
                // Unknown fields are skipped: only a decoding error may reject the input.
                let lines = importLines(
                    db, Data(hexBytes(hexText)), name: "C.bson", options: ImportOptions(ignoreUnknown: true))
                let description = "\(file.name): \(bad["description"]?.stringValue ?? "")"
                #expect(!lines.isEmpty, "\(description) was accepted")
                #expect(try db.count("C") == 0)
                checked += 1
            }
        }
        #expect(checked > 0)
        print("BSON corpus: \(checked) decode errors rejected")
    }

    @Test func parseErrorsAreRejected() throws { try Self.expectParseErrorsAreRejected(Self.builtIn) }

    @Test(.enabled(if: SharedBSONCorpus.available, "\(SharedBSONCorpus.missing)"))
    func corpusParseErrorsAreRejected() throws { try Self.expectParseErrorsAreRejected(try Self.corpus()) }

    static func expectParseErrorsAreRejected(_ files: [CorpusFile]) throws {
        var checked = 0
        for file in files {
            for bad in file.parseErrors {
                guard var text = bad["string"]?.stringValue else { continue }
                // The one Extended JSON v2 parse error that is legacy Extended JSON, which Porter
                // reads on purpose (pymongo's LEGACY_JSON_OPTIONS, libbson's legacy bson_as_json):
                // `{"$date": 42}` is 42 ms after the epoch (LegacyExtendedJSONTests checks it).
                if bad["description"]?.stringValue == "Bad $date (number, not string or hash)" { continue }
                if file.type == "0x13" {
                    // Decimal128 parse errors are bare strings.
                    let escaped = JSONValue.string(text).serialized(pretty: false)
                    text = #"{"d": {"$numberDecimal": "# + escaped + "}}"
                }
                let keys = (try? JSONValue.parse(text))?.objectMembers?.map(\.key) ?? [file.testKey]
                let db = try Self.database(keys)
                let lines = importLines(db, text, name: "C.json")
                #expect(!lines.isEmpty, "\(file.name): \(bad["description"]?.stringValue ?? "") was accepted: \(text)")
                #expect(try db.count("C") == 0)
                checked += 1
            }
        }
        #expect(checked > 0)
        print("BSON corpus: \(checked) parse errors rejected")
    }
}
