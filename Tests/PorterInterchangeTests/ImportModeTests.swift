import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterStore
import Testing

/// What upsert and merge do: classes without a primary key refused (as Realm's `add(_:update:)`
/// refuses them), embedded objects replaced with their parent, and a repeated import idempotent.
@Suite struct ImportModeTests {
    static let update = Files.root.appendingPathComponent("Fixtures/data/realm-docs-update.json")

    /// The refusal line for a class without a primary key.
    static func refusal(_ className: String, _ mode: ImportMode) -> String {
        "'\(className)' does not have a primary key and can not be updated: --mode \(mode.rawValue) matches "
            + "objects by primary key (import \(className)'s documents with --mode insert)"
    }

    @Test(arguments: [ImportMode.upsert, .merge])
    func aFixtureWithClassesWithoutPrimaryKeyIsRefusedWhole(_ mode: ImportMode) throws {
        let db = try fixtureDatabase("refuse-\(mode)")
        let before = try counts(db)
        let exported = try exportFiles(db, format: "bson")
        let data = try Data(contentsOf: Files.realmDocsFixture)
        let lines = importLines(db, data, name: "fixture.json", options: ImportOptions(mode: mode))
        // One line per class (not per document), and nothing written: not even the Dogs.
        #expect(
            lines == [
                "fixture.json:DogToy#1: " + Self.refusal("DogToy", mode),
                "fixture.json:AllTypes#1: " + Self.refusal("AllTypes", mode),
            ])
        #expect(try counts(db) == before)
        #expect(try exportFiles(db, format: "bson") == exported)
    }

    @Test(arguments: [ImportMode.upsert, .merge])
    func classFilesOfEveryFormatAreRefusedInUpsertAndMerge(_ mode: ImportMode) throws {
        let db = try fixtureDatabase("formats-\(mode)")
        let before = try counts(db)
        let json = #"{"_key": 7, "name": "Bone"}"# + "\n" + #"{"name": "Stick"}"#
        #expect(
            importLines(db, json, name: "DogToy.json", options: ImportOptions(mode: mode)) == [
                "DogToy.json:1: " + Self.refusal("DogToy", mode)
            ])
        let bson = try exportClass(db, "DogToy", format: "bson")
        #expect(
            importLines(db, bson, name: "DogToy.bson", options: ImportOptions(mode: mode)) == [
                "DogToy.bson:1: " + Self.refusal("DogToy", mode)
            ])
        let ejson = try exportClass(db, "AllTypes", format: "ejson-canonical")
        #expect(
            importLines(db, ejson, name: "AllTypes.json", options: ImportOptions(mode: mode)) == [
                "AllTypes.json:1: " + Self.refusal("AllTypes", mode)
            ])
        #expect(try counts(db) == before)
        // Insert mode adds them, and a class file without documents is no refusal.
        #expect(importLines(db, json, name: "DogToy.json").isEmpty)
        #expect(importLines(db, "", name: "DogToy.json", options: ImportOptions(mode: mode)).isEmpty)
        #expect(try db.count("DogToy") == before["DogToy"]! + 2)
    }

    @Test(arguments: [ImportMode.upsert, .merge])
    func aRepeatedUpsertOrMergeChangesNothing(_ mode: ImportMode) throws {
        let db = try fixtureDatabase("idempotent-\(mode)")
        let data = try Data(contentsOf: Self.update)
        #expect(importLines(db, data, name: "update.json", options: ImportOptions(mode: mode)).isEmpty)
        let once = try exportFiles(db, format: "bson")
        let onceCounts = try counts(db)
        #expect(importLines(db, data, name: "update.json", options: ImportOptions(mode: mode)).isEmpty)
        #expect(try exportFiles(db, format: "bson") == once)
        #expect(try counts(db) == onceCounts)
        // Alan and task 4 are new; Ada's 4 addresses (2 with a country) became 3 (2 with one).
        #expect(onceCounts["User"] == 3 && onceCounts["Task"] == 4)
        #expect(onceCounts["Address"] == 7 && onceCounts["Country"] == 4)
    }

    @Test(arguments: [ImportMode.upsert, .merge])
    func embeddedObjectsAreReplacedWithTheirParent(_ mode: ImportMode) throws {
        let db = try fixtureDatabase("embedded-\(mode)")
        let ada = #"{"_id": "0f3b6a2e-8d1c-4b7a-9e5f-2a4c6e8b0d11", "name": "Ada", "#
        let document =
            ada + #""address": {"street": "S", "city": "C"}, "previousAddresses": [{"street": "P", "city": "Q"}], "#
            + #""addressBook": {"x": {"street": "X", "city": "Y", "country": {"code": "ZZ"}}}}"#
        for _ in 0..<2 {
            #expect(importLines(db, document, name: "Person.json", options: ImportOptions(mode: mode)).isEmpty)
            // Dog Rex's address (with Norway), Ada's three new ones, AllTypes' three.
            #expect(try db.count("Address") == 7)
            #expect(try db.count("Country") == 3)
        }
        let key = try #require(
            try db.key("Person", primaryKey: .uuid(UUID(uuidString: "0f3b6a2e-8d1c-4b7a-9e5f-2a4c6e8b0d11")!)))
        let person = try #require(try db.object("Person", key))
        guard case .link(let address)? = person["address"], case .list(let previous)? = person["previousAddresses"]
        else {
            Issue.record("Ada's addresses are missing"); return
        }
        #expect(try db.object("Address", address.key)?["street"] == .string("S"))
        #expect(previous.count == 1)
        // Emptying the collections in the document empties them in the database.
        let emptied = ada + #""address": null, "previousAddresses": [], "addressBook": {}}"#
        #expect(importLines(db, emptied, name: "Person.json", options: ImportOptions(mode: mode)).isEmpty)
        #expect(try db.count("Address") == 4)
        #expect(try db.count("Country") == 2)
    }
}
