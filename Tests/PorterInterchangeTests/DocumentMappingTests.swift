import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore

/// The document mapping rules, checked byte for byte against an independent BSON encoder.
@Suite struct DocumentMappingTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
          {"name": "Owner", "primaryKey": "_id", "properties": {"_id": "objectId", "name": "string",
             "pets": {"type": "linkingObjects", "objectType": "Pet", "property": "owner"}}},
          {"name": "Tag", "properties": {"label": "string"}},
          {"name": "Spot", "embedded": true, "properties": {"x": "int", "inner": "Inner?"}},
          {"name": "Inner", "embedded": true, "properties": {"flag": "bool"}},
          {"name": "Pet", "primaryKey": "_id", "properties": {
             "_id": "int", "b": "bool", "f": "float", "d": "double?", "s": "string", "data": "data", "when": "date",
             "dec": "decimal128", "oid": "objectId", "u": "uuid", "owner": "Owner?", "tags": "Tag[]", "spot": "Spot?",
             "set": "string<>", "map": "int{}", "m": "mixed", "ml": "mixed[]"}}
        ]}
        """

    static let ownerId = "5f1b2c3d4e5f6a7b8c9d0e1f"
    static let uuid = UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962")!

    /// A database holding one object of each class.
    func populated() throws -> Database {
        let db = try memoryDatabase(try schema(Self.schemaJSON))
        try db.write {
            let owner = try db.create(
                "Owner", ["_id": .objectId(try ObjectId(string: Self.ownerId)), "name": .string("O")])
            let tag1 = try db.create("Tag", ["label": .string("x")])
            let tag2 = try db.create("Tag", ["label": .string("y")])
            try db.create(
                "Pet",
                [
                    "_id": .int(7), "b": .bool(true), "f": .float(0.1), "d": .null, "s": .string("héllo"),
                    "data": .data(Data([0, 1, 255])), "when": .date(Timestamp(microseconds: 1_234_567_890_123_456)),
                    "dec": .decimal128(try Decimal128(string: "1.50")),
                    "oid": .objectId(try ObjectId(string: Self.ownerId)),
                    "u": .uuid(Self.uuid), "owner": .link(ObjectLink("Owner", owner)),
                    "tags": .list([.link(ObjectLink("Tag", tag2)), .link(ObjectLink("Tag", tag1))]),
                    "spot": .object(["x": .int(5), "inner": .object(["flag": .bool(true)])]),
                    "set": .set([.string("b"), .string("é"), .string("a")]),
                    "map": .map(["z": .int(1), "a": .int(2)]),
                    "m": .link(ObjectLink("Tag", tag1)),
                    "ml": .list([.int(1), .double(2.5), .null]),
                ])
        }
        return db
    }

    static var expectedPet: [UInt8] {
        let dec = try! Decimal128(string: "1.50")
        return BSONBytes.document { d in
            d.int64("_id", 7)
            d.bool("b", true)
            d.double("f", Double(Float(0.1)))
            d.null("d")
            d.string("s", "héllo")
            d.binary("data", 0, [0, 1, 255])
            d.dateTime("when", 1_234_567_890_123)
            d.decimal128("dec", low: dec.low, high: dec.high)
            d.objectId("oid", hexBytes(ownerId))
            d.binary("u", 4, hexBytes("3B241101E2BB42558CAF4136C566A962"))
            d.objectId("owner", hexBytes(ownerId))
            d.array("tags") { a in
                a.int64("0", 2); a.int64("1", 1)
            }
            d.document("spot") { s in
                s.int64("x", 5); s.document("inner") { i in i.bool("flag", true) }
            }
            d.array("set") { a in
                a.string("0", "a"); a.string("1", "b"); a.string("2", "é")
            }
            d.document("map") { m in
                m.int64("a", 2); m.int64("z", 1)
            }
            d.document("m") { r in
                r.string("$ref", "Tag"); r.int64("$id", 1)
            }
            d.array("ml") { a in
                a.int64("0", 1); a.double("1", 2.5); a.null("2")
            }
        }
    }

    @Test func everyTypeMapsToExactBSONBytes() throws {
        let db = try populated()
        let bytes = Array(try exportClass(db, "Pet", format: "bson"))
        #expect(hex(bytes) == hex(Self.expectedPet))
    }

    @Test func linkingObjectsAreNotWrittenAndPrimaryKeyLessClassesCarryKey() throws {
        let db = try populated()
        let owner = BSONBytes.document { d in
            d.objectId("_id", hexBytes(Self.ownerId)); d.string("name", "O")
        }
        #expect(hex(try exportClass(db, "Owner", format: "bson")) == hex(owner))
        let tags =
            BSONBytes.document { d in
                d.int64("_key", 1); d.string("label", "x")
            }
            + BSONBytes.document { d in
                d.int64("_key", 2); d.string("label", "y")
            }
        #expect(hex(try exportClass(db, "Tag", format: "bson")) == hex(tags))
    }

    @Test func extendedJSONIsLibbsonsTextOfTheSameDocument() throws {
        let db = try populated()
        for canonical in [false, true] {
            let text = String(
                decoding: try exportClass(db, "Pet", format: canonical ? "ejson-canonical" : "ejson"), as: UTF8.self)
            #expect(text == (try BSONCodec.extendedJSON(Self.expectedPet, canonical: canonical)) + "\n")
        }
    }

    @Test func plainJSONUsesSchemaTypedForms() throws {
        let db = try populated()
        let text = String(decoding: try exportClass(db, "Pet", format: "json"), as: UTF8.self)
        let expected =
            #"{"_id":7,"b":true,"f":0.1,"d":null,"s":"héllo","data":"AAH/","when":"2009-02-13T23:31:30.123456Z","dec":"1.50","oid":"5f1b2c3d4e5f6a7b8c9d0e1f","u":"3b241101-e2bb-4255-8caf-4136c566a962","owner":"5f1b2c3d4e5f6a7b8c9d0e1f","tags":[2,1],"spot":{"x":5,"inner":{"flag":true}},"set":["a","b","é"],"map":{"a":2,"z":1},"m":{"$ref":"Tag","$id":1},"ml":[1,2.5,null]}"#
        #expect(text == expected + "\n")
    }

    @Test func subMillisecondDatesAreFlooredAndCounted() throws {
        let db = try populated()
        let exporter = Exporter(database: db, format: BSONFormat(), options: ExportOptions())
        let report = try exporter.export(className: "Pet", to: ByteOutput(memoryNamed: "-"))
        #expect(report.flooredDates == 1)
        #expect(report.warnings.count == 1)
        let json = Exporter(database: db, format: JSONFormat(), options: ExportOptions())
        #expect(try json.export(className: "Pet", to: ByteOutput(memoryNamed: "-")).flooredDates == 0)
    }

    @Test func datesOutsideISORangeUseNumberLongInRelaxedMode() throws {
        let db = try memoryDatabase(try schema(#"{"classes":[{"name":"E","properties":{"d":"date[]"}}]}"#))
        try db.write {
            try db.create(
                "E",
                [
                    "d": .list([
                        .date(Timestamp(microseconds: -1_000)),  // 1969-12-31T23:59:59.999Z
                        .date(Timestamp(microseconds: 0)),
                        .date(Timestamp(microseconds: 253_402_300_799_999_000)),  // 9999-12-31T23:59:59.999Z
                        .date(Timestamp(microseconds: 253_402_300_800_000_000)),  // 10000-01-01
                        .date(Timestamp(microseconds: -1_999)),  // floors to -2 ms
                    ])
                ])
        }
        let text = String(decoding: try exportClass(db, "E", format: "ejson"), as: UTF8.self)
        #expect(
            text
                == #"{ "_key" : 1, "d" : [ { "$date" : { "$numberLong" : "-1" } }, { "$date" : "1970-01-01T00:00:00Z" }, { "$date" : "9999-12-31T23:59:59.999Z" }, { "$date" : { "$numberLong" : "253402300800000" } }, { "$date" : { "$numberLong" : "-2" } } ] }"#
                + "\n")
    }

    @Test func setsAreSortedIndependentlyOfStorageOrder() throws {
        let s = try schema(
            #"{"classes":[{"name":"T","primaryKey":"_id","properties":{"_id":"string"}},{"name":"S","properties":{"l":"T<>","m":"mixed<>","d":"double<>"}}]}"#
        )
        let db = try memoryDatabase(s)
        try db.write {
            let b = try db.create("T", ["_id": .string("b")])
            let a = try db.create("T", ["_id": .string("a")])
            try db.create(
                "S",
                [
                    "l": .set([.link(ObjectLink("T", b)), .link(ObjectLink("T", a))]),
                    "m": .set([.string("z"), .int(3), .link(ObjectLink("T", a)), .null, .bool(true)]),
                    "d": .set([.double(1), .double(-0.0), .double(.infinity), .double(-.infinity), .double(.nan)]),
                ])
        }
        let text = String(decoding: try exportClass(db, "S", format: "json"), as: UTF8.self)
        #expect(
            text
                == #"{"_key":1,"l":["a","b"],"m":[null,true,3,"z",{"$ref":"T","$id":"a"}],"d":["-Infinity",-0.0,1.0,"Infinity","NaN"]}"#
                + "\n")
    }

    @Test func arrayOptionWritesOneJSONArray() throws {
        let db = try populated()
        #expect(
            String(decoding: try exportClass(db, "Tag", format: "json", array: true), as: UTF8.self)
                == "[{\"_key\":1,\"label\":\"x\"},\n{\"_key\":2,\"label\":\"y\"}]\n")
        let empty = try memoryDatabase(try schema(#"{"classes":[{"name":"E","properties":{"x":"int"}}]}"#))
        #expect(String(decoding: try exportClass(empty, "E", format: "ejson", array: true), as: UTF8.self) == "[]\n")
    }

    @Test func exportsAreDeterministic() throws {
        let db = try fixtureDatabase()
        for format in ["bson", "json", "ejson", "ejson-canonical"] {
            #expect(try exportFiles(db, format: format) == exportFiles(db, format: format))
        }
    }
}
