import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterModel
import PorterStore
import PorterTestSupport

/// Export → import into an empty database → export gives byte-identical files, in every format.
@Suite struct RoundTripTests {
    /// The fixture (every type, collection kind, embedded levels, link cycles, PK-less classes)
    /// plus an object of edge values: a 16 MB string, NaN, -0.0, ±Infinity, extreme dates and
    /// decimals, empty strings and data, int64 limits.
    static func edgeDatabase() throws -> Database {
        let db = try fixtureDatabase()
        let big = String(repeating: "é", count: Database.maxBinarySize / 2)  // exactly 16 MB of UTF-8
        try db.write {
            try db.create(
                "AllTypes",
                [
                    "int": .int(.min), "intOpt": .int(.max),
                    "float": .float(-0.0), "floatOpt": .float(-.infinity),
                    "double": .double(.nan), "doubleOpt": .double(-.infinity),
                    "decimal": .decimal128(try Decimal128(string: "-9.999999999999999999999999999999999E+6144")),
                    "decimalOpt": .decimal128(try Decimal128(string: "NaN")),
                    "string": .string(big), "stringOpt": .string(""),
                    "data": .data(Data(repeating: 0xAB, count: 1024)), "dataOpt": .data(Data()),
                    "date": .date(Timestamp(microseconds: .min)), "dateOpt": .date(Timestamp(microseconds: .max)),
                    "mixed": .double(-0.0),
                    "mixedList": .list([
                        .double(.nan), .double(.infinity), .float(1.5),
                        .decimal128(try Decimal128(string: "-Infinity")),
                        .data(Data([1, 2])), .uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!),
                        .date(Timestamp(microseconds: -62_135_596_800_000_000)), .string("NaN"), .int(.min),
                    ]),
                    "stringList": .list([.string(""), .string("\u{0}"), .string("line\nbreak \"quoted\" \\ /")]),
                    "mixedMap": .map(["k": .string("$oid"), "e": .string("")]),
                ])
        }
        return db
    }

    /// Writes export files into a fresh folder and imports that folder into an empty database.
    static func reimport(_ files: [String: Data]) throws -> Database {
        let dir = try TemporaryFolder()
        for (name, data) in files { try data.write(to: dir.url.appendingPathComponent(name)) }
        let schemaData = try #require(files["schema.json"])
        let db = try memoryDatabase(try Schema(jsonBytes: schemaData))
        let importer = Importer(database: db, formats: InterchangeFormats.input)
        try importer.run([ImportSource(path: dir.url.path)])
        return db
    }

    @Test(arguments: ["bson", "ejson", "ejson-canonical", "json"])
    func exportImportExportIsByteIdentical(format: String) throws {
        let db = try Self.edgeDatabase()
        let first = try exportFiles(db, format: format)
        #expect(
            Set(first.keys)
                == Set([
                    "schema.json", "AllTypes.\(format == "bson" ? "bson" : "json")",
                    "Dog.\(format == "bson" ? "bson" : "json")",
                    "DogToy.\(format == "bson" ? "bson" : "json")", "Person.\(format == "bson" ? "bson" : "json")",
                    "Task.\(format == "bson" ? "bson" : "json")", "User.\(format == "bson" ? "bson" : "json")",
                ])
                .union(
                    format == "bson"
                        ? ["AllTypes", "Dog", "DogToy", "Person", "Task", "User"].map { $0 + ".metadata.json" } : []))
        let copy = try Self.reimport(first)
        let second = try exportFiles(copy, format: format)
        for (name, data) in first {
            #expect(second[name] == data, "\(format): \(name) differs after a round trip")
        }
        #expect(try counts(copy) == counts(db))
    }

    @Test func arrayFilesRoundTripToo() throws {
        let db = try fixtureDatabase()
        for format in ["json", "ejson"] {
            let first = try exportFiles(db, format: format, array: true)
            let second = try exportFiles(try Self.reimport(first), format: format, array: true)
            #expect(first == second)
        }
    }

    @Test func plainJSONKeepsMicrosecondsAndEveryValue() throws {
        let db = try Self.edgeDatabase()
        let copy = try Self.reimport(try exportFiles(db, format: "json"))
        // Objects of classes with primary keys compare value for value (links by target key).
        for className in ["Dog", "Person", "Task", "User"] {
            var original: [[String: Value]] = []
            try db.enumerate(className) { original.append(try normalized(db, $0)) }
            var copied: [[String: Value]] = []
            try copy.enumerate(className) { copied.append(try normalized(copy, $0)) }
            #expect(original == copied, "\(className)")
        }
    }

    /// An object's values with links replaced by the target's primary key and embedded objects
    /// materialized, so objects of two databases compare.
    func normalized(_ db: Database, _ object: DynamicObject) throws -> [String: Value] {
        func map(_ v: Value) throws -> Value {
            switch v {
            case .link(let l):
                if db.schema[l.className]?.isEmbedded == true {
                    return .object(try normalized(db, try #require(try db.object(l.className, l.key))))
                }
                return try db.primaryKeyValue(l.className, l.key) ?? .int(l.key.rawValue)
            case .list(let a): return .list(try a.map(map))
            case .set(let a): return .set(try a.map(map).sorted { "\($0)" < "\($1)" })
            case .map(let m): return .map(try m.mapValues(map))
            default: return v
            }
        }
        var out: [String: Value] = [:]
        for (p, v) in zip(object.properties, object.values) { out[p.name] = try map(v) }
        return out
    }
}
