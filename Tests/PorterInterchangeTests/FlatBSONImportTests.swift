import Foundation
import PorterBSON
import PorterDocument
@testable import PorterInterchange
import PorterModel
import PorterStore
import PorterTestSupport
import Testing

/// The fast path of flat BSON class files (``FlatBSONReader`` + ``BulkInserter/insert(row:)``)
/// against the general path (``BSONValueDecoder`` + ``ObjectReader`` + ``BulkInserter/insert(fields:)``):
/// the same documents imported both ways must give the same rows, byte for byte, or the same errors.
@Suite struct FlatBSONImportTests {
    static let schemaText = """
        {"schemaVersion": 1, "classes": [
          {"name": "Item", "primaryKey": "_id", "properties": {
            "_id": "objectId", "flag": "bool", "count": "int", "ratio": "float", "price": "double",
            "name": "string", "blob": "data", "created": "date", "amount": "decimal128", "uid": "uuid",
            "note": "string?", "maybe": "int?", "level": {"type": "int", "default": 7}}},
          {"name": "Tag", "properties": {"label": "string", "weight": "double?"}},
          {"name": "Order", "primaryKey": "_id", "properties": {"_id": "int", "item": "Item?"}},
          {"name": "Code", "primaryKey": "code", "properties": {"code": "string", "n": "int"}}
        ]}
        """

    /// One field of a generated document: its key and how it is written.
    typealias Field = (key: String, write: (inout BSONBytes) -> Void)

    /// The fields of a valid `Item` in the forms Porter's exports write (what the fast path takes).
    static func canonicalItem(_ i: Int, _ rng: inout SeededGenerator) -> [Field] {
        let oid = itemId(i)
        let uid = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let count = Int64.random(in: -1_000_000...1_000_000, using: &rng)
        let price = [0.5, -0.0, .nan, .infinity, 1e300, Double(i) / 7][Int.random(in: 0..<6, using: &rng)]
        let ratio = [0.25, -0.0, .nan, -1e30, 3.1][Int.random(in: 0..<5, using: &rng)]
        let name = ["", "plain \(i)", "with\u{0}nul", String(repeating: "x", count: 40)][i % 4]
        let blob = i % 3 == 0 ? [] : (0..<(i % 20)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let ms = Int64.random(in: -10_000_000_000_000...10_000_000_000_000, using: &rng)
        var fields: [Field] = [
            ("_id", { $0.objectId("_id", oid) }),
            ("flag", { $0.bool("flag", i % 2 == 0) }),
            ("count", { i % 5 == 0 ? $0.int32("count", Int32(truncatingIfNeeded: count)) : $0.int64("count", count) }),
            ("ratio", { $0.double("ratio", ratio) }),
            ("price", { i % 7 == 0 ? $0.int32("price", Int32(i)) : $0.double("price", price) }),
            ("name", { $0.string("name", name) }),
            ("blob", { $0.binary("blob", 0, blob) }),
            ("created", { $0.dateTime("created", ms) }),
            ("amount", { $0.decimal128("amount", low: UInt64(i), high: 0x3040_0000_0000_0000) }),
            ("uid", { $0.binary("uid", 4, uid) }),
        ]
        if i % 3 != 1 { fields.append(("note", { i % 2 == 0 ? $0.null("note") : $0.string("note", "n\(i)") })) }
        if i % 4 != 1 { fields.append(("maybe", { i % 2 == 0 ? $0.null("maybe") : $0.int64("maybe", Int64(i)) })) }
        if i % 2 == 0 { fields.append(("level", { $0.int32("level", Int32(i)) })) }
        return fields
    }

    /// The ObjectId of the `i`th generated item.
    static func itemId(_ i: Int) -> [UInt8] { [0x65, 0xA1, 0xB2, 0xC3, 0, 0, 0, 0] + bigEndian(UInt32(i)) }

    static func document(_ fields: [Field]) -> [UInt8] {
        BSONBytes.document { d in for field in fields { field.write(&d) } }
    }

    /// `fields` with the one named `key` written by `write` instead (or removed when nil).
    static func replacing(_ fields: [Field], _ key: String, _ write: ((inout BSONBytes) -> Void)?) -> [Field] {
        var out = fields.filter { $0.key != key }
        if let write { out.append((key, write)) }
        return out
    }

    /// Imports `bytes` as `Item.bson` (or `file`) into a fresh database, by the fast path or not:
    /// the error lines and every row of every table.
    static func run(_ bytes: [UInt8], file: String = "Item.bson", fast: Bool, options: ImportOptions = ImportOptions())
        throws -> (errors: [String], rows: [String], fastDocuments: Int)
    {
        let db = try memoryDatabase(try schema(schemaText), "flat-\(fast)")
        return try run(bytes, file: file, into: db, fast: fast, options: options)
    }

    static func run(
        _ bytes: [UInt8], file: String = "Item.bson", into db: Database, fast: Bool,
        options: ImportOptions = ImportOptions()
    ) throws -> (errors: [String], rows: [String], fastDocuments: Int) {
        let importer = Importer(database: db, formats: InterchangeFormats.input, options: options)
        importer.readsFlatBSONDirectly = fast
        var errors: [String] = []
        defer { if !fast { #expect(importer.flatBSONDocuments == 0) } }
        do {
            try importer.run(data: Data(bytes), name: file)
        } catch let error as PorterError {
            // The headline names the database (a different one per run): the lines are compared.
            errors = error.details.isEmpty ? [error.headline] : error.details
        }
        return (errors, try rows(db), importer.flatBSONDocuments)
    }

    /// Every column of every class table, as SQLite quotes it (so storage classes are compared too).
    static func rows(_ db: Database) throws -> [String] {
        var out: [String] = []
        for cls in db.schema.classes {
            let columns = ["_key"] + cls.properties.map { "quote(\(quoteIdentifier($0.name)))" }
            let statement = try db.connection.prepare(
                "SELECT \(columns.joined(separator: ", ")) FROM \(quoteIdentifier("class_" + cls.name)) ORDER BY _key")
            while try statement.step() {
                out.append(
                    cls.name + ": " + (0..<statement.columnCount).map { statement.text($0) }.joined(separator: "|"))
            }
        }
        return out
    }

    /// Both paths on the same bytes: equal results, returned for further checks.
    @discardableResult
    static func expectSame(
        _ bytes: [UInt8], file: String = "Item.bson", options: ImportOptions = ImportOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (errors: [String], rows: [String], fastDocuments: Int) {
        let fast = try run(bytes, file: file, fast: true, options: options)
        let general = try run(bytes, file: file, fast: false, options: options)
        #expect(fast.errors == general.errors, sourceLocation: sourceLocation)
        #expect(fast.rows == general.rows, sourceLocation: sourceLocation)
        return fast
    }

    @Test func readerTakesCanonicalDocumentsAndReadsWhatTheObjectReaderReads() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        let reader = ObjectReader(schema: db.schema, options: ImportOptions(), resolver: LinkResolver(database: db))
        let plan = try #require(reader.plan("Item"))
        let flat = try #require(FlatBSONReader(plan))
        var rng = SeededGenerator(seed: 22)
        for i in 0..<200 {
            let bytes = Self.document(Self.canonicalItem(i, &rng))
            let decoder = BSONDocumentDecoder(input: ByteInput(data: Data(bytes), name: "Item.bson"))
            let general = reader.read(try #require(try decoder.next()).document, as: try #require(db.schema["Item"]))
            #expect(general.errors.isEmpty)
            let taken = bytes.withUnsafeBytes { flat.read($0) }
            #expect(taken, "document \(i) should take the fast path")
            guard taken else { continue }
            for index in plan.properties.indices {
                let value = bytes.withUnsafeBytes { raw -> Value? in
                    _ = flat.read(raw)
                    return flat.value(at: index)
                }
                // NaN is not equal to itself: compare the stored form through the bit pattern.
                #expect(
                    String(describing: value.map(Self.comparable))
                        == String(describing: general.fields[index].map(Self.comparable)),
                    "document \(i), \(plan.properties[index].name)")
            }
        }
    }

    static func comparable(_ value: Value) -> String {
        switch value {
        case .double(let d): return "double \(d.bitPattern)"
        case .float(let f): return "float \(f.bitPattern)"
        default: return "\(value)"
        }
    }

    @Test func readerRefusesClassesThatAreNotFlat() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        let reader = ObjectReader(schema: db.schema, options: ImportOptions(), resolver: LinkResolver(database: db))
        #expect(FlatBSONReader(try #require(reader.plan("Order"))) == nil)
        #expect(FlatBSONReader(try #require(reader.plan("Tag"))) != nil)
    }

    @Test func validDocumentsGiveTheSameRows() throws {
        var rng = SeededGenerator(seed: 7)
        var bytes: [UInt8] = []
        for i in 0..<400 { bytes += Self.document(Self.canonicalItem(i, &rng).shuffled(using: &rng)) }
        let result = try Self.expectSame(bytes)
        #expect(result.errors.isEmpty)
        #expect(result.rows.count == 400)
        #expect(result.fastDocuments == 400)
    }

    /// Forms the general path converts or accepts that the fast path leaves to it.
    @Test func otherAcceptedFormsGiveTheSameRows() throws {
        var rng = SeededGenerator(seed: 8)
        let variants: [(String, (inout BSONBytes) -> Void)] = [
            ("count", { $0.double("count", 3) }),
            ("price", { $0.int64("price", 1 << 40) }),
            ("ratio", { $0.int64("ratio", 5) }),
            ("ratio", { $0.int32("ratio", 5) }),
            ("created", { $0.string("created", "2024-02-29T12:00:00.123Z") }),
            ("_id", { $0.string("_id", "65a1b2c3d4e5f6a7b8c9d0e1") }),
            ("uid", { $0.string("uid", "123e4567-e89b-12d3-a456-426614174000") }),
            ("amount", { $0.int64("amount", 12) }),
            ("name", { $0.string("name", "héllo wörld ✓") }),
            ("note", { $0.string("note", "ünïcode") }),
            ("blob", { $0.binary("blob", 2, [4, 0, 0, 0, 1, 2, 3, 4]) }),
            ("blob", { $0.string("blob", "AQID") }),
            ("price", { $0.string("price", "NaN") }),
            ("maybe", { _ in }),
        ]
        var bytes: [UInt8] = []
        for (i, (key, write)) in variants.enumerated() {
            var fields = Self.replacing(Self.canonicalItem(i, &rng), key, write)
            if key == "_id" { fields = Self.replacing(fields, "_id", write) }
            bytes += Self.document(fields)
        }
        let result = try Self.expectSame(bytes)
        #expect(result.errors == [], "\(result.errors)")
        #expect(result.rows.count == variants.count)
        // All but two (a float written as int32, an optional field left out) are for the general path.
        #expect(result.fastDocuments == 2)
    }

    /// Each bad document among good ones: the same error lines, and nothing written either way.
    @Test(arguments: FlatBSONImportTests.badDocuments)
    func badDocumentsGiveTheSameErrors(_ bad: BadDocument) throws {
        var rng = SeededGenerator(seed: 9)
        var bytes = Self.document(Self.canonicalItem(0, &rng)) + bad.bytes(&rng)
        bytes += Self.document(Self.canonicalItem(2, &rng))
        let result = try Self.expectSame(bytes)
        #expect(!result.errors.isEmpty, "\(bad.name) should be refused")
        #expect(result.fastDocuments >= 1, "the good documents around it take the fast path")
        #expect(result.rows.isEmpty)
        if let expected = bad.expected {
            #expect(result.errors.contains { $0.contains(expected) }, "\(bad.name): \(result.errors)")
        }
    }

    /// A document the tests break in one way, with part of the message it must get.
    struct BadDocument: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: String?
        let make: @Sendable (inout SeededGenerator) -> [UInt8]
        func bytes(_ rng: inout SeededGenerator) -> [UInt8] { make(&rng) }
        var testDescription: String { name }
    }

    static func item(_ rng: inout SeededGenerator, _ key: String, _ write: ((inout BSONBytes) -> Void)?) -> [UInt8] {
        document(replacing(canonicalItem(1, &rng), key, write))
    }

    static let badDocuments: [BadDocument] = [
        BadDocument(name: "wrong type", expected: "2:count: expected an integer but got a string") {
            item(&$0, "count") { $0.string("count", "12") }
        },
        BadDocument(name: "null for a required property", expected: "2:flag: required property cannot be null") {
            item(&$0, "flag") { $0.null("flag") }
        },
        BadDocument(name: "missing required field", expected: "2:name: missing required field 'name'") {
            item(&$0, "name", nil)
        },
        BadDocument(name: "extra field", expected: "2:extra: unknown field") {
            item(&$0, "extra") { $0.int64("extra", 1) }
        },
        BadDocument(name: "repeated field", expected: "2:count: duplicate field 'count'") {
            var fields = canonicalItem(1, &$0)
            fields.append(("count", { $0.int64("count", 2) }))
            return document(fields)
        },
        BadDocument(name: "bad UTF-8 in a string", expected: "2:name: invalid BSON: string is not valid UTF-8") {
            var bytes = item(&$0, "name") { $0.string("name", "abc") }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("abc".utf8)) }!
            bytes[at + 1] = 0xC0
            return bytes
        },
        BadDocument(name: "bad UTF-8 in a key", expected: "invalid BSON: a field name is not valid UTF-8") {
            var bytes = item(&$0, "zz") { $0.int64("zz", 1) }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("zz".utf8)) }!
            bytes[at] = 0xFF
            return bytes
        },
        BadDocument(name: "float out of range", expected: "2:ratio: double 1e+300 is outside the range of a float") {
            item(&$0, "ratio") { $0.double("ratio", 1e300) }
        },
        BadDocument(name: "double not an integer", expected: "2:count: expected an integer but got a double 2.5") {
            item(&$0, "count") { $0.double("count", 2.5) }
        },
        BadDocument(name: "uuid of 15 bytes", expected: "2:uid: binary subtype 0x04 (UUID) must hold 16 bytes") {
            item(&$0, "uid") { $0.binary("uid", 4, Array(repeating: 1, count: 15)) }
        },
        BadDocument(name: "data of a user subtype", expected: "2:blob: expected binary data (subtype 0)") {
            item(&$0, "blob") { $0.binary("blob", 0x80, [1]) }
        },
        BadDocument(name: "bool byte 2", expected: nil) {
            var bytes = item(&$0, "flag") { $0.bool("flag", true) }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("flag".utf8) + [0, 1]) }!
            bytes[at + 5] = 2
            return bytes
        },
        BadDocument(name: "string length past the document", expected: "corrupt element") {
            var bytes = item(&$0, "name") { $0.string("name", "abc") }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("name".utf8) + [0]) }!
            bytes[at + 5] = 0x7F
            return bytes
        },
        BadDocument(name: "string without its NUL", expected: nil) {
            var bytes = item(&$0, "name") { $0.string("name", "abc") }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("abc".utf8) + [0]) }!
            bytes[at + 3] = UInt8(ascii: "d")
            return bytes
        },
        BadDocument(name: "element type 0 inside", expected: nil) {
            var bytes = item(&$0, "maybe") { $0.int64("maybe", 1) }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("maybe".utf8) + [0]) }!
            bytes[at - 1] = 0
            return bytes
        },
        BadDocument(name: "unknown element type", expected: "corrupt element") {
            var bytes = item(&$0, "maybe") { $0.int64("maybe", 1) }
            let at = bytes.indices.first { bytes[$0...].starts(with: Array("maybe".utf8) + [0]) }!
            bytes[at - 1] = 0x42
            return bytes
        },
        BadDocument(name: "truncated document", expected: "length prefix says") {
            Array(item(&$0, "maybe") { $0.int64("maybe", 1) }.dropLast(3))
        },
        BadDocument(name: "duplicate primary key", expected: "duplicate primary key value") {
            document(canonicalItem(0, &$0))
        },
    ]

    @Test func duplicateKeyOfAnExistingObjectGivesTheSameError() throws {
        var rng = SeededGenerator(seed: 10)
        let first = Self.document(Self.canonicalItem(3, &rng))
        var results: [(errors: [String], rows: [String], fastDocuments: Int)] = []
        for fast in [true, false] {
            let db = try memoryDatabase(try schema(Self.schemaText), "dup-\(fast)")
            #expect(try Self.run(first, into: db, fast: fast).errors.isEmpty)
            results.append(try Self.run(first + Self.document(Self.canonicalItem(4, &rng)), into: db, fast: fast))
        }
        #expect(results[0].errors == results[1].errors)
        #expect(results[0].errors.contains { $0.contains("duplicate primary key value") })
        #expect(results[0].rows == results[1].rows)
        #expect(results[0].rows.count == 1)
    }

    @Test func optionsGiveTheSameResults() throws {
        var rng = SeededGenerator(seed: 11)
        let bytes =
            Self.item(&rng, "extra") { $0.int64("extra", 1) } + Self.item(&rng, "name", nil)
            + Self.document(Self.canonicalItem(5, &rng))
        for options in [
            ImportOptions(ignoreUnknown: true), ImportOptions(fillMissing: true),
            ImportOptions(ignoreUnknown: true, fillMissing: true), ImportOptions(maxErrors: 1),
        ] {
            try Self.expectSame(bytes, options: options)
        }
        // Two documents under the same key: the second is refused by both paths.
        #expect(
            try Self.expectSame(bytes, options: ImportOptions(ignoreUnknown: true, fillMissing: true)).errors.count > 0)
    }

    @Test func keylessClassesAndLabelsGiveTheSameRows() throws {
        var bytes: [UInt8] = []
        for i in 0..<50 {
            bytes += BSONBytes.document { d in
                if i % 10 == 3 { d.int64("_key", Int64(100 + i)) }
                d.string("label", "tag \(i)")
                if i % 2 == 0 { d.double("weight", Double(i)) } else if i % 3 == 0 { d.null("weight") }
            }
        }
        let result = try Self.expectSame(bytes, file: "Tag.bson")
        #expect(result.errors.isEmpty)
        #expect(result.rows.count == 50)
        #expect(result.fastDocuments == 45, "every document but the five with a _key label")
    }

    @Test func stringPrimaryKeysAndDuplicates() throws {
        var bytes: [UInt8] = []
        for i in 0..<30 {
            bytes += BSONBytes.document { d in
                d.string("code", "c\(i % 29)"); d.int64("n", Int64(i))
            }
        }
        let result = try Self.expectSame(bytes, file: "Code.bson")
        #expect(result.errors.contains { $0.contains("30:code: duplicate primary key value 'c0'") }, "\(result.errors)")
    }

    /// Links from another class file to objects the fast path wrote find them (by the key cache).
    @Test func linksToFastPathObjectsResolve() throws {
        var results: [[String]] = []
        for fast in [true, false] {
            var rng = SeededGenerator(seed: 12)
            let folder = try TemporaryFolder()
            var items: [UInt8] = []
            var orders: [UInt8] = []
            for i in 0..<20 {
                items += Self.document(Self.canonicalItem(i, &rng))
                // Orders name items by their ObjectId (their primary key).
                orders += BSONBytes.document { d in
                    d.int64("_id", Int64(i)); d.objectId("item", Self.itemId(19 - i))
                }
            }
            try Data(items).write(to: URL(fileURLWithPath: folder.path("Item.bson")))
            try Data(orders).write(to: URL(fileURLWithPath: folder.path("Order.bson")))
            let db = try memoryDatabase(try schema(Self.schemaText), "links-\(fast)")
            let importer = Importer(database: db, formats: InterchangeFormats.input)
            importer.readsFlatBSONDirectly = fast
            try importer.run([
                ImportSource(path: folder.path("Item.bson")), ImportSource(path: folder.path("Order.bson")),
            ])
            let rows = try Self.rows(db)
            #expect(rows.filter { $0.hasPrefix("Order: ") }.count == 20)
            #expect(!rows.contains { $0.hasPrefix("Order: ") && $0.hasSuffix("|NULL") })
            results.append(rows)
        }
        #expect(results[0] == results[1])
    }
}

private func bigEndian(_ v: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * (3 - UInt32($0)))) }
}

extension BSONBytes {
    mutating func int32(_ key: String, _ value: Int32) {
        appendElement(
            0x10, key, (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (8 * UInt32($0))) })
    }
}
