import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore

/// Links (forward references, cycles, labels), modes, layouts and accepted value forms.
@Suite struct ImportBehaviourTests {
    static let schemaJSON = """
        {"schemaVersion": 2, "classes": [
          {"name": "Node", "primaryKey": "_id", "properties": {"_id": "int", "name": "string?", "next": "Node?",
            "kids": "Node[]", "set": "Node<>", "map": "Node?{}", "any": "mixed", "spot": "Spot?", "spots": "Spot[]",
            "n": {"type": "int", "default": 7}, "tag": "Tag?"}},
          {"name": "Spot", "embedded": true, "properties": {"to": "Node?", "label": "string?"}},
          {"name": "Tag", "properties": {"label": "string", "other": "Tag?"}},
          {"name": "Doc", "primaryKey": "_id", "properties": {"_id": "objectId", "t": "string?"}},
          {"name": "Typed", "properties": {"oid": "objectId[]", "u": "uuid[]", "i": "int[]", "f": "float[]", "d": "double[]",
            "date": "date[]", "dec": "decimal128[]", "data": "data[]", "b": "bool[]"}}
        ]}
        """

    static func database() throws -> Database { try memoryDatabase(try schema(schemaJSON)) }

    func node(_ db: Database, _ id: Int64) throws -> DynamicObject {
        let key = try #require(try db.key("Node", primaryKey: .int(id)))
        return try #require(try db.object("Node", key))
    }

    /// The primary key a link value points at.
    func target(_ db: Database, _ value: Value?) throws -> Int64? {
        guard case .link(let link)? = value else { return nil }
        guard case .int(let id)? = try db.primaryKeyValue(link.className, link.key) else { return nil }
        return id
    }

    @Test func forwardReferencesAndCyclesResolveEverywhere() throws {
        let db = try Self.database()
        let lines = importLines(
            db,
            """
            {"_id": 1, "next": 2, "kids": [3, 2], "set": [3, 1], "map": {"a": 3, "b": null}, "any": {"$ref": "Node", "$id": 3},
             "spot": {"to": 3}, "spots": [{"to": 2}, {"label": "none"}, {"to": 1}]}
            {"_id": 2, "next": 1}
            {"_id": 3, "next": 3}
            """, className: "Node")
        #expect(lines.isEmpty)
        let one = try node(db, 1)
        #expect(try target(db, one["next"]) == 2)
        guard case .list(let kids)? = one["kids"], case .set(let set)? = one["set"], case .map(let map)? = one["map"]
        else {
            Issue.record("collections missing"); return
        }
        #expect(try kids.map { try target(db, $0) } == [3, 2])
        #expect(try Set(set.map { try target(db, $0) }) == [3, 1])
        #expect(try target(db, map["a"]) == 3 && map["b"] == .null)
        #expect(try target(db, one["any"]) == 3)
        guard case .link(let spot)? = one["spot"], case .list(let spots)? = one["spots"] else {
            Issue.record("embedded missing"); return
        }
        #expect(try target(db, try db.object("Spot", spot.key)?["to"]) == 3)
        let spotTargets = try spots.map { v -> Int64? in
            guard case .link(let s) = v else { return -1 }
            return try target(db, try db.object("Spot", s.key)?["to"])
        }
        #expect(spotTargets == [2, nil, 1])
        #expect(try target(db, try node(db, 2)["next"]) == 1)
        #expect(try target(db, try node(db, 3)["next"]) == 3)
    }

    @Test func labelsOfClassesWithoutPrimaryKeyLinkWithinOneImport() throws {
        let db = try Self.database()
        #expect(
            importLines(
                db,
                #"""
                {"schemaVersion": 2,
                 "Node": [{"_id": 1, "tag": "second", "any": {"$ref": "Tag", "$id": "first"}}],
                 "Tag": [{"_key": "first", "label": "A", "other": "second"}, {"_key": "second", "label": "B", "other": "first"}]}
                """#, name: "fixture.json"
            ).isEmpty)
        let one = try node(db, 1)
        guard case .link(let tag)? = one["tag"], case .link(let any)? = one["any"] else {
            Issue.record("links missing"); return
        }
        #expect(try db.object("Tag", tag.key)?["label"] == .string("B"))
        #expect(try db.object("Tag", any.key)?["label"] == .string("A"))
        guard case .link(let back)? = try db.object("Tag", tag.key)?["other"] else {
            Issue.record("cycle missing"); return
        }
        #expect(back == any)
    }

    @Test func linksResolveAgainstObjectsAlreadyInTheDatabase() throws {
        let db = try Self.database()
        #expect(importLines(db, #"{"_id": 10}"#, className: "Node").isEmpty)
        #expect(importLines(db, #"{"_id": 11, "next": 10, "kids": [10, 11]}"#, className: "Node").isEmpty)
        #expect(try target(db, try node(db, 11)["next"]) == 10)
        // An int _key this import does not define names an existing object by its key.
        #expect(importLines(db, #"{"_key": 1, "label": "T"}"#, className: "Tag").isEmpty)
        #expect(importLines(db, #"{"_id": 12, "tag": 1}"#, className: "Node").isEmpty)
        guard case .link(let tag)? = try node(db, 12)["tag"] else { Issue.record("tag missing"); return }
        #expect(tag.key == ObjectKey(1))
    }

    @Test func upsertReplacesAndMergeUpdatesOnlyPresentFields() throws {
        let db = try Self.database()
        #expect(importLines(db, #"{"_id": 1, "name": "x", "n": 9, "spot": {"label": "s"}}"#, className: "Node").isEmpty)
        #expect(
            importLines(db, #"{"_id": 1, "name": "merged"}"#, options: ImportOptions(mode: .merge), className: "Node")
                .isEmpty)
        var one = try node(db, 1)
        #expect(one["name"] == .string("merged") && one["n"] == .int(9))
        #expect(one["spot"] != .null)
        #expect(
            importLines(
                db, #"{"_id": 1, "name": "replaced"}"#, options: ImportOptions(mode: .upsert), className: "Node"
            ).isEmpty)
        one = try node(db, 1)
        #expect(one["name"] == .string("replaced") && one["n"] == .int(7) && one["spot"] == .null)
        #expect(try db.count("Spot") == 0)
        #expect(
            importLines(db, #"{"_id": 2, "name": "new"}"#, options: ImportOptions(mode: .merge), className: "Node")
                .isEmpty)
        #expect(try node(db, 2)["n"] == .int(7))
        #expect(
            importLines(db, #"{"_id": 2}"#, className: "Node") == [
                "input.json:1:_id: duplicate primary key value 2: an object with it already exists"
            ])
    }

    @Test func aLaterDocumentWinsOverAnEarlierForwardReference() throws {
        let db = try Self.database()
        #expect(
            importLines(
                db,
                """
                {"_id": 1, "next": 5, "kids": [5]}
                {"_id": 1, "next": null, "kids": []}
                {"_id": 5}
                """, options: ImportOptions(mode: .upsert), className: "Node"
            ).isEmpty)
        let one = try node(db, 1)
        #expect(one["next"] == .null)
        #expect(one["kids"] == .list([]))
        // Merge keeps the pending links of fields the later document does not name.
        let db2 = try Self.database()
        #expect(
            importLines(
                db2,
                """
                {"_id": 1, "next": 5, "kids": [5]}
                {"_id": 1, "kids": []}
                {"_id": 5}
                """, options: ImportOptions(mode: .merge), className: "Node"
            ).isEmpty)
        #expect(try target(db2, try node(db2, 1)["next"]) == 5)
        #expect(try node(db2, 1)["kids"] == .list([]))
    }

    @Test func lineDelimitedArraysAndFixturesAreDetected() throws {
        let layouts = [
            #"{"_id":1,"next":2}{"_id":2}"#,
            "\u{FEFF}\n  {\n \"_id\": 1,\n \"next\": 2\n}\n\n{\"_id\": 2}\n",
            "[ {\"_id\": 1, \"next\": 2} ,\n {\"_id\": 2} ]\n",
            #"{"schemaVersion": 2, "Node": [{"_id": 1, "next": 2}, {"_id": 2}], "Tag": []}"#,
            #"{"Node": [{"_id": 1, "next": 2}, {"_id": 2}]}"#,
        ]
        for text in layouts {
            let db = try Self.database()
            let isFixture = text.contains("\"Node\": [")
            #expect(importLines(db, text, name: isFixture ? "fixture.json" : "Node.json").isEmpty, "\(text)")
            #expect(try db.count("Node") == 2, "\(text)")
            #expect(try target(db, try node(db, 1)["next"]) == 2)
        }
        for empty in ["", "  \n", "[]", "[ ]\n", #"{"schemaVersion": 2}"#] {
            let db = try Self.database()
            #expect(importLines(db, empty, name: "Node.json").isEmpty, "\(empty)")
            #expect(try db.count("Node") == 0)
        }
    }

    @Test func everyAcceptedFormOfEachType() throws {
        let db = try Self.database()
        let text = #"""
            {"oid": [{"$oid": "5f1b2c3d4e5f6a7b8c9d0e1f"}, "5F1B2C3D4E5F6A7B8C9D0E1F"],
             "u": [{"$binary": {"base64": "ABEiM0RVZneImaq7zN3u/w==", "subType": "04"}}, {"$uuid": "00112233-4455-6677-8899-aabbccddeeff"},
                   "00112233-4455-6677-8899-AABBCCDDEEFF"],
             "i": [{"$numberInt": "-5"}, {"$numberLong": "9223372036854775807"}, 3.0, 4],
             "f": [0.1, {"$numberDouble": "-0.0"}, "Infinity", 2],
             "d": [{"$numberDouble": "1e300"}, "NaN", -1, {"$numberInt": "3"}],
             "date": [{"$date": {"$numberLong": "-1"}}, {"$date": "2012-12-24T12:15:30.501Z"}, "2012-12-24T13:15:30.501+01:00", "2000-01-01"],
             "dec": [{"$numberDecimal": "1.50"}, "-0.00", 42, 0.25],
             "data": [{"$binary": {"subType": "00", "base64": "AAE="}}, {"$binary": "AAE=", "$type": "0"}, "AAE="],
             "b": [true, false]}
            """#
        #expect(importLines(db, text, className: "Typed").isEmpty)
        let object = try #require(try db.object("Typed", ObjectKey(1)))
        let oid = Value.objectId(try ObjectId(string: "5f1b2c3d4e5f6a7b8c9d0e1f"))
        #expect(object["oid"] == .list([oid, oid]))
        let uuid = Value.uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!)
        #expect(object["u"] == .list([uuid, uuid, uuid]))
        #expect(object["i"] == .list([.int(-5), .int(.max), .int(3), .int(4)]))
        #expect(object["f"] == .list([.float(0.1), .float(-0.0), .float(.infinity), .float(2)]))
        guard case .list(let doubles)? = object["d"], doubles.count == 4, case .double(let nan) = doubles[1] else {
            Issue.record("doubles"); return
        }
        #expect(doubles[0] == .double(1e300) && nan.isNaN && doubles[2] == .double(-1) && doubles[3] == .double(3))
        let ms = Value.date(Timestamp(microseconds: 1_356_351_330_501_000))
        #expect(
            object["date"]
                == .list([
                    .date(Timestamp(microseconds: -1000)), ms, ms, .date(Timestamp(microseconds: 946_684_800_000_000)),
                ]))
        #expect(
            object["dec"]
                == .list([
                    .decimal128(try Decimal128(string: "1.50")), .decimal128(try Decimal128(string: "-0.00")),
                    .decimal128(Decimal128(42)), .decimal128(try Decimal128(string: "0.25")),
                ]))
        #expect(object["data"] == .list([.data(Data([0, 1])), .data(Data([0, 1])), .data(Data([0, 1]))]))
    }

    @Test func missingObjectIdPrimaryKeysAreGenerated() throws {
        let db = try Self.database()
        #expect(importLines(db, "{\"t\": \"a\"}\n{\"t\": \"b\"}", className: "Doc").isEmpty)
        #expect(try db.count("Doc") == 2)
    }

    @Test func fixtureAPILoadsFilesAndDataAllOrNothing() throws {
        let db = try memoryDatabase(try Schema(contentsOfFile: Files.realmDocsSchema))
        try db.importFixtures(at: Files.realmDocsFixture)
        #expect(try db.count("Dog") == 3 && db.count("Person") == 2 && db.count("AllTypes") == 2)
        let before = try counts(db)
        let error = try #require(throws: PorterError.self) {
            try db.importFixtures(
                data: Data(
                    #"{"schemaVersion": 3, "User": [{"_id": "new", "name": "New"}, {"_id": "ada", "name": "Ada"}]}"#
                        .utf8), name: "more.json")
        }
        #expect(
            error.details == [
                "more.json:User#2:_id: duplicate primary key value 'ada': an object with it already exists"
            ])
        #expect(try counts(db) == before)
    }

    @Test func exportFoldersImportByFileNameEvenForOddClassNames() throws {
        let odd = try schema(
            #"{"classes":[{"name":"Ünïcode-Name_1","primaryKey":"k","properties":{"k":"string","to":"schema?"}},{"name":"schema","properties":{"v":"int"}}]}"#
        )
        let db = try memoryDatabase(odd)
        try db.write {
            let s = try db.create("schema", ["v": .int(3)])
            try db.create("Ünïcode-Name_1", ["k": .string("a"), "to": .link(ObjectLink("schema", s))])
        }
        let files = try exportFiles(db, format: "json")
        #expect(Set(files.keys) == ["schema.json", "%73chema.json", "Ünïcode-Name_1.json"])
        let copy = try RoundTripTests.reimport(files)
        #expect(try exportFiles(copy, format: "json") == files)
    }
}
