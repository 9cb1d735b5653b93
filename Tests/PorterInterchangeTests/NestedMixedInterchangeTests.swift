import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterModel
import PorterStore

/// Lists and dictionaries nested in `mixed` values, and nanosecond dates, through every format.
@Suite struct NestedMixedInterchangeTests {
    static let schemaText = #"""
        {"classes":[
          {"name":"Dog","primaryKey":"_id","properties":{"_id":"string","name":"string"}},
          {"name":"Toy","properties":{"name":"string"}},
          {"name":"Box","primaryKey":"_id","properties":{"_id":"int","extra":"mixed","extras":"mixed[]","byName":"mixed{}","when":"date?"}}
        ]}
        """#

    static func database() throws -> Database {
        let db = try memoryDatabase(try schema(schemaText))
        try db.write {
            let d1 = try db.create("Dog", ["_id": .string("d1"), "name": .string("Rex")])
            let toy = try db.create("Toy", ["name": .string("ball")])
            let (dog, ball) = (Value.link(ObjectLink("Dog", d1)), Value.link(ObjectLink("Toy", toy)))
            let nanos = Value.date(try Timestamp(iso8601: "2024-01-02T03:04:05.123456789Z"))
            _ = try db.create(
                "Box",
                [
                    "_id": .int(1),
                    "extra": .map([
                        "list": .list([
                            .int(1), .double(2.5), .string("s"), .null, .bool(true), nanos,
                            .objectId(try ObjectId(hex: "5f1b2c3d4e5f6a7b8c9d0e1f")), dog, ball,
                            .map(["deep": .list([.list([.map(["x": .decimal128(try Decimal128(string: "1.50"))])])])]),
                        ]),
                        "empty": .list([]), "emptyMap": .map([:]), "b": .data(Data([1, 2, 3])),
                    ]),
                    "extras": .list([.list([dog]), .map(["a": .list([.int(-1), .float(0.5)])]), .string("plain")]),
                    "byName": .map(["k": .list([.int(1), .int(2)]), "m": .map(["z": dog])]),
                    "when": nanos,
                ])
            _ = try db.create(
                "Box", ["_id": .int(2), "extra": .list([]), "when": .date(Timestamp(seconds: -1, nanoseconds: -1))])
        }
        return db
    }

    @Test(arguments: ["bson", "ejson", "ejson-canonical", "json"])
    func exportImportExportIsByteIdentical(format: String) throws {
        let db = try Self.database()
        let first = try exportFiles(db, format: format)
        let copy = try RoundTripTests.reimport(first)
        let second = try exportFiles(copy, format: format)
        // schema.json and a file per class (BSON adds each class's mongodump metadata file).
        #expect(first.count == (format == "bson" ? 7 : 4))
        for (name, data) in first { #expect(second[name] == data, "\(format): \(name) differs after a round trip") }
        // The copy holds the nested values themselves (dates floored to milliseconds outside plain JSON).
        let box = try #require(try copy.key("Box", primaryKey: .int(1)))
        guard case .map(let extra) = try copy.value("Box", box, "extra"), case .list(let list)? = extra["list"] else {
            Issue.record("\(format): extra is not a nested dictionary with a list"); return
        }
        #expect(list.count == 10)
        let dog = try #require(try copy.key("Dog", primaryKey: .string("d1")))
        #expect(list[7] == .link(ObjectLink("Dog", dog)), "\(format)")
        #expect(
            list[9] == .map(["deep": .list([.list([.map(["x": .decimal128(try Decimal128(string: "1.50"))])])])]),
            "\(format)")
        #expect(
            try copy.value("Box", box, "when")
                == (format == "json"
                    ? .date(try Timestamp(iso8601: "2024-01-02T03:04:05.123456789Z"))
                    : .date(try Timestamp(iso8601: "2024-01-02T03:04:05.123Z"))))
        #expect(try copy.checkConsistency().isEmpty)
    }

    @Test func plainJSONSpellsNestedValuesAsArraysAndDocuments() throws {
        let text = String(decoding: try exportClass(try Self.database(), "Box", format: "json"), as: UTF8.self)
        let expected = #"""
            {"_id":1,"extra":{"b":{"$binary":{"base64":"AQID","subType":"00"}},"empty":[],"emptyMap":{},"list":[1,2.5,"s",null,true,{"$date":"2024-01-02T03:04:05.123456789Z"},{"$oid":"5f1b2c3d4e5f6a7b8c9d0e1f"},{"$ref":"Dog","$id":"d1"},{"$ref":"Toy","$id":1},{"deep":[[{"x":{"$numberDecimal":"1.50"}}]]}]},"extras":[[{"$ref":"Dog","$id":"d1"}],{"a":[-1,0.5]},"plain"],"byName":{"k":[1,2],"m":{"z":{"$ref":"Dog","$id":"d1"}}},"when":"2024-01-02T03:04:05.123456789Z"}
            {"_id":2,"extra":[],"extras":[],"byName":{},"when":"1969-12-31T23:59:58.999999999Z"}

            """#
        #expect(text == expected)
    }

    @Test func relaxedExtendedJSONWritesNestedDocumentsAndArrays() throws {
        let text = String(decoding: try exportClass(try Self.database(), "Box", format: "ejson"), as: UTF8.self)
        let first = try #require(text.split(separator: "\n").first)
        #expect(
            first.contains(#""extras" : [ [ { "$ref" : "Dog", "$id" : "d1" } ], { "a" : [ -1, 0.5 ] }, "plain" ]"#),
            "\(first)")
        #expect(first.contains(#""when" : { "$date" : "2024-01-02T03:04:05.123Z" }"#), "\(first)")
    }

    @Test func importedArraysAndDocumentsBecomeNestedCollectionsButDBRefsAndWrappersStayScalars() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        // The Box comes first: its nested DBRefs are forward references, resolved at the end.
        let fixture = #"""
            {"Box": [{"_id": 7, "extra": {"dog": {"$ref": "Dog", "$id": "d9"}, "oid": {"$oid": "5f1b2c3d4e5f6a7b8c9d0e1f"},
                      "when": {"$date": "1969-12-31T23:59:59.000000001Z"}, "in": [[{"$ref": "Toy", "$id": 4}], {"n": {"$numberLong": "5"}}]},
                      "extras": [{"$ref": "Dog", "$id": "d9"}, [{"$ref": "Dog", "$id": "d9"}]]}],
             "Dog": [{"_id": "d9", "name": "Fido"}],
             "Toy": [{"_key": 4, "name": "rope"}]}
            """#
        #expect(importLines(db, fixture, name: "fixture.json").isEmpty)
        let box = try #require(try db.key("Box", primaryKey: .int(7)))
        let dog = Value.link(ObjectLink("Dog", try #require(try db.key("Dog", primaryKey: .string("d9")))))
        guard case .map(let extra) = try db.value("Box", box, "extra") else { Issue.record("not a map"); return }
        #expect(extra["dog"] == dog)
        #expect(extra["oid"] == .objectId(try ObjectId(hex: "5f1b2c3d4e5f6a7b8c9d0e1f")))
        #expect(extra["when"] == .date(Timestamp(seconds: 0, nanoseconds: -999_999_999)))
        guard case .list(let inner)? = extra["in"], case .list(let toys) = inner[0], case .link(let toy) = toys[0]
        else {
            Issue.record("not a nested list of links: \(String(describing: extra["in"]))"); return
        }
        #expect(toy.className == "Toy")
        #expect(inner[1] == .map(["n": .int(5)]))
        #expect(try db.value("Box", box, "extras") == .list([dog, .list([dog])]))
        #expect(try db.checkConsistency().isEmpty)
    }

    @Test func aNestedLinkToNothingIsReportedWithItsPath() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        let lines = importLines(
            db, #"{"_id": 1, "extra": {"a": [1, {"$ref": "Dog", "$id": "nope"}]}}"#, name: "Box.json", className: "Box")
        #expect(
            lines == [
                "Box.json:1:extra.a.1: link to a missing object: no Dog with primary key 'nope' in this import or in the database"
            ])
        #expect(try db.count("Box") == 0)
    }

    @Test func aSetOfMixedRefusesNestedCollections() throws {
        let db = try memoryDatabase(
            try schema(#"{"classes":[{"name":"S","primaryKey":"_id","properties":{"_id":"int","bag":"mixed<>"}}]}"#))
        #expect(
            importLines(db, #"{"_id": 1, "bag": [1, [2]]}"#, name: "S.json", className: "S")
                == ["S.json:1:bag.1: a mixed value in a set cannot hold an array"])
        #expect(
            importLines(db, #"{"_id": 1, "bag": [{"a": 1}]}"#, name: "S.json", className: "S")
                == [
                    #"S.json:1:bag.0: a mixed value in a set cannot hold a document (only scalars, or a link written as {"$ref": …, "$id": …})"#
                ])
        #expect(try db.count("S") == 0)
    }
}
