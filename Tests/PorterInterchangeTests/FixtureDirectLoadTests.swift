import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterStore
import PorterTestSupport
import Testing

/// The direct fixture load (`Database.loadFixtureDirectly`, taken by `importFixtures(data:)`)
/// against the general import it stands in for: the same objects under the same keys for
/// every fixture it takes, and for every fixture it leaves alone nothing written and the
/// general import's errors.
@Suite struct FixtureDirectLoadTests {
    static let schemaText = """
        {
          "schemaVersion": 2,
          "classes": [
            { "name": "Owner", "primaryKey": "_id", "properties": {
                "_id": "int", "name": "string", "nick": "string?", "pets": "Pet[]", "scores": "int[]",
                "tags": "string?[]", "weights": "double[]", "best": "Pet?",
                "pals": { "type": "linkingObjects", "objectType": "Pet", "property": "owner" } } },
            { "name": "Pet", "primaryKey": "_id", "properties": {
                "_id": "string", "name": "string", "age": "int", "weight": "double", "ratio": "float",
                "alive": "bool", "born": "date", "tag": "objectId?", "chip": "uuid?", "price": "decimal128?",
                "photo": "data?", "owner": "Owner?", "mood": { "type": "string", "default": "calm" },
                "toys": "string<>", "extra": "mixed", "collar": "Collar?" } },
            { "name": "Collar", "embedded": true, "properties": { "color": "string" } },
            { "name": "Note", "properties": { "text": "string" } }
          ]
        }
        """

    /// Fixtures the direct load takes.
    static let taken: [String] = [
        // Forward links, lists of links, of ints, of optional strings, of doubles; every plain scalar form.
        """
        {"schemaVersion": 2,
         "Owner": [
          {"_id": 1, "name": "Ada", "nick": null, "pets": ["p2", "p1"], "scores": [3, -7, 9223372036854775807],
           "tags": ["a", null, "ünï"], "weights": [1, 2.5, -0.0, 1e300], "best": "p1"},
          {"_id": 2, "name": "Bob", "pets": [], "scores": [], "best": null}
         ],
         "Pet": [
          {"_id": "p1", "name": "Rex", "age": 4, "weight": 12.25, "ratio": 0.1, "alive": true,
           "born": "2019-04-01T00:00:00.250Z", "tag": "5f1b2c3d4e5f6a7b8c9d0e01",
           "chip": "0f3b6a2e-8d1c-4b7a-9e5f-2a4c6e8b0d11", "price": "12.50", "photo": "aGVsbG8=", "owner": 1},
          {"_id": "p2", "name": "Fido", "age": -1, "weight": 3, "ratio": 2, "alive": false,
           "born": "1999-12-31T23:59:59Z", "owner": 2, "mood": "grumpy"}
         ]}
        """,
        // No schemaVersion, fields out of order, a class named twice, an older version, whitespace.
        """

          { "Pet" : [ { "name" : "A", "_id" : "x", "age" : 1, "weight" : 0.5, "ratio" : 1.5, "alive" : true,
              "born" : "2000-01-01T00:00:00Z" } ],
            "Owner" : [ { "_id" : -5, "name" : "Neg", "best" : "x" } ],
            "Pet" : [ { "_id" : "y", "name" : "B", "age" : 2, "weight" : 1, "ratio" : 0, "alive" : false,
              "born" : "2000-01-02T00:00:00Z", "owner" : -5 } ] }

        """,
        """
        {"schemaVersion": 1, "Owner": [{"_id": 7, "name": "Old"}]}
        """,
    ]

    /// Fixtures the direct load leaves to the general import: errors, and forms it does not read.
    static let declined: [String] = [
        // Errors the general import reports.
        #"{"Owner": [{"_id": 1, "name": "A"}, {"_id": 1, "name": "B"}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "best": "nope"}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "color": "red"}]}"#,
        #"{"Owner": [{"_id": 1, "name": 5}]}"#,
        #"{"Owner": [{"_id": 1.5, "name": "A"}]}"#,
        #"{"Owner": [{"_id": 1, "name": null}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "name": "B"}]}"#,
        #"{"Owner": [{"_id": 1}]}"#,
        #"{"Owner": [{"name": "A"}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "scores": [1, null]}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "pals": []}]}"#,
        #"{"Pet": [{"_id": "p", "name": "A", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "nope"}]}"#,
        #"{"schemaVersion": 3, "Owner": [{"_id": 1, "name": "A"}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A"}], "Ghost": []}"#,
        #"{"Owner": [{"_id": 1, "name": "A"}]} trailing"#,
        #"{"Owner": [{"_id": 1, "name": "A"}"#,
        #"{"Collar": [{"color": "red"}]}"#,
        #"{"Owner": [{"_id": 99999999999999999999, "name": "A"}]}"#,
        // Forms the general import reads and the direct load leaves to it.
        #"{"Owner": [{"_id": 1, "name": "A\n\"B\""}]}"#,
        #"{"Owner": [{"_id": 1, "name": "A", "best": {"_id": "p"}}]}"#,
        #"{"Pet": [{"_id": "p", "name": "A", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z", "toys": ["a"]}]}"#,
        #"{"Pet": [{"_id": "p", "name": "A", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z", "extra": 1}]}"#,
        #"{"Pet": [{"_id": "p", "name": "A", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z", "collar": {"color": "red"}}]}"#,
        #"{"Pet": [{"_id": "pé", "name": "A", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z"}]}"#,
        #"{"Note": [{"text": "keyless"}]}"#,
        #"{"schema": {"schemaVersion": 2, "classes": []}, "Owner": [{"_id": 1, "name": "A"}]}"#,
        #"{"schemaVersion": 2}"#,
        #"[{"_id": 1, "name": "A"}]"#,
        "\u{FEFF}{\"Owner\": [{\"_id\": 1, \"name\": \"A\"}]}",
    ]

    private func database(_ label: String = #function) throws -> Database {
        try memoryDatabase(try schema(Self.schemaText), label)
    }

    /// Every object of every class with its key, as JSON exports write them plus the keys.
    private func contents(_ db: Database) throws -> [String: String] {
        var out: [String: String] = [:]
        for (name, data) in try exportFiles(db, format: "ejson") { out[name] = String(decoding: data, as: UTF8.self) }
        for cls in db.schema.classes where !cls.isEmbedded {
            out["keys." + cls.name] = try db.allKeys(cls.name).map { String($0.rawValue) }.joined(separator: ",")
        }
        return out
    }

    @Test(arguments: Array(taken.indices), [false, true])
    func sameObjectsAndKeysAsTheGeneralImport(fixture: Int, fillMissing: Bool) throws {
        let data = Data(Self.taken[fixture].utf8)
        let options = ImportOptions(fillMissing: fillMissing)
        let direct = try database()
        #expect(direct.loadFixtureDirectly(data: data, name: "fixture.json", options: options))
        let general = try database()
        #expect(importLines(general, data, name: "fixture.json", options: options) == [])
        #expect(try contents(direct) == contents(general))
        #expect(try direct.count("Owner") > 0)
    }

    @Test func keysContinueAfterExistingAndDeletedObjectsAndLinksReachExistingOnes() throws {
        let before = #"{"Owner": [{"_id": 1, "name": "A"}, {"_id": 2, "name": "B"}, {"_id": 3, "name": "C"}]}"#
        let after =
            #"{"Pet": [{"_id": "p", "name": "P", "age": 1, "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z", "owner": 1}], "Owner": [{"_id": 4, "name": "D", "best": "p", "pets": ["p"]}]}"#
        func prepared() throws -> Database {
            let db = try database()
            #expect(importLines(db, before, name: "fixture.json") == [])
            // The newest object goes: its key must not come back.
            try db.write { try db.delete("Owner", ObjectKey(3)) }
            return db
        }
        let direct = try prepared()
        #expect(direct.loadFixtureDirectly(data: Data(after.utf8), name: "fixture.json", options: ImportOptions()))
        let general = try prepared()
        #expect(importLines(general, after, name: "fixture.json") == [])
        #expect(try contents(direct) == contents(general))
        #expect(try direct.allKeys("Owner").map(\.rawValue) == [1, 2, 4])
    }

    @Test(arguments: declined)
    func declinedFixturesWriteNothingAndGetTheGeneralImportsErrors(text: String) throws {
        let data = Data(text.utf8)
        let direct = try database()
        #expect(!direct.loadFixtureDirectly(data: data, name: "fixture.json", options: ImportOptions()))
        #expect(try counts(direct).values.allSatisfy { $0 == 0 })
        // Through the public entry, which falls back to the general import.
        let viaEntry = try database()
        var entryLines: [String] = []
        do {
            try viaEntry.importFixtures(data: data, name: "fixture.json")
        } catch let error as PorterError {
            entryLines = error.details.isEmpty ? [error.headline] : error.details
        }
        let general = try database()
        let generalLines = importLines(general, data, name: "fixture.json")
        #expect(entryLines == generalLines)
        #expect(try contents(viaEntry) == contents(general))
    }

    @Test func declinesOutsideInsertModeInsideATransactionAndForClassFiles() throws {
        let data = Data(#"{"Owner": [{"_id": 1, "name": "A"}]}"#.utf8)
        let db = try database()
        #expect(!db.loadFixtureDirectly(data: data, name: "fixture.json", options: ImportOptions(mode: .upsert)))
        #expect(!db.loadFixtureDirectly(data: data, name: "fixture.bson", options: ImportOptions()))
        #expect(!db.loadFixtureDirectly(data: data, name: "Owner.json", options: ImportOptions()))
        try db.beginWrite()
        #expect(!db.loadFixtureDirectly(data: data, name: "fixture.json", options: ImportOptions()))
        db.cancelWrite()
        #expect(try counts(db).values.allSatisfy { $0 == 0 })
        #expect(db.loadFixtureDirectly(data: data, name: "fixture.json", options: ImportOptions()))
        // A second load of the same objects is a duplicate: declined, and the first load stays.
        #expect(!db.loadFixtureDirectly(data: data, name: "fixture.json", options: ImportOptions()))
        #expect(try db.count("Owner") == 1)
    }

    @Test func manyObjectsSpanSeveralStatementsOfRows() throws {
        var owners: [String] = []
        for o in 0..<150 {
            let pets = (0..<3).map { "\"p\(o * 3 + $0)\"" }.joined(separator: ", ")
            owners.append(#"{"_id": \#(o), "name": "o\#(o)", "pets": [\#(pets)], "scores": [\#(o), \#(o + 1)]}"#)
        }
        var pets: [String] = []
        for p in 0..<450 {
            pets.append(
                #"{"_id": "p\#(p)", "name": "n", "age": \#(p), "weight": 1, "ratio": 1, "alive": true, "born": "2000-01-01T00:00:00Z", "owner": \#(p / 3)}"#
            )
        }
        let text = #"{"Owner": [\#(owners.joined(separator: ","))], "Pet": [\#(pets.joined(separator: ","))]}"#
        let direct = try database()
        #expect(direct.loadFixtureDirectly(data: Data(text.utf8), name: "fixture.json", options: ImportOptions()))
        let general = try database()
        #expect(importLines(general, text, name: "fixture.json") == [])
        #expect(try contents(direct) == contents(general))
        #expect(try direct.count("Pet") == 450)
    }

    @Test func fixtureFilesTakeTheDirectLoadWithTheGeneralImportsResults() throws {
        let folder = try TemporaryFolder()
        let good = folder.path("fixture.json")
        try Data(Self.taken[0].utf8).write(to: URL(fileURLWithPath: good))
        let direct = try database()
        try direct.importFixtures(at: URL(fileURLWithPath: good))
        let general = try database()
        try Importer(database: general, formats: InterchangeFormats.input).run([ImportSource(path: good)])
        #expect(try contents(direct) == contents(general))
        #expect(try direct.count("Pet") == 2)
        // A declined file: nothing written, the general import's error naming the file.
        let bad = folder.path("bad.json")
        try Data(#"{"Owner": [{"_id": 1, "name": "A", "best": "nope"}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let failing = try database()
        let error = expectPorterError(.invalidInput) { try failing.importFixtures(at: URL(fileURLWithPath: bad)) }
        #expect(error?.details.first?.hasPrefix(bad) == true)
        #expect(error?.details.first?.contains("best") == true)
        #expect(try counts(failing).values.allSatisfy { $0 == 0 })
    }
}
