import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterStore
import Testing

/// The import's shortcuts for links: keys of objects it wrote are remembered by primary key (so
/// links to them need no query), and a list of forward references of a newly inserted object is
/// written straight in. Both must give exactly what the store's own lookups and update give.
@Suite struct ImportLinkCacheTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
          {"name": "Tag", "primaryKey": "name", "properties": {"name": "string"}},
          {"name": "Post", "primaryKey": "_id", "properties": {"_id": "int", "tags": "Tag[]", "main": "Tag?",
            "spot": "Spot?"}},
          {"name": "Spot", "embedded": true, "properties": {"tags": "Tag[]"}}
        ]}
        """

    /// The primary keys of the `Tag` objects a value links to (in order).
    func tagNames(_ db: Database, _ value: Value) throws -> [String] {
        let links: [Value]
        switch value {
        case .list(let elements): links = elements
        default: links = [value]
        }
        return try links.map { link in
            guard case .link(let target) = link, case .string(let name)? = try db.primaryKeyValue("Tag", target.key)
            else { return "?" }
            return name
        }
    }

    func post(_ db: Database, _ id: Int64) throws -> ObjectKey {
        try #require(try db.key("Post", primaryKey: .int(id)))
    }

    @Test func canonicallyEquivalentStringKeysLinkToTheirOwnObjects() throws {
        let db = try memoryDatabase(try schema(Self.schemaJSON))
        // "\u{E9}" and "e\u{301}" are equal Swift strings but two primary keys in the store (bytes):
        // a cache keyed by Swift equality would send links to whichever was written last.
        let lines = importLines(
            db,
            #"""
            {"schemaVersion": 1,
             "Post": [{"_id": 1, "tags": ["e\u0301", "\u00e9", "e\u0301"], "main": "\u00e9"}],
             "Tag": [{"name": "\u00e9"}, {"name": "e\u0301"}, {"name": "plain"}]}
            """#, name: "first.json")
        #expect(lines.isEmpty, "\(lines)")
        let more = importLines(
            db,
            #"""
            {"schemaVersion": 1, "Tag": [{"name": "x\u0301"}, {"name": "\u1e8b"}],
             "Post": [{"_id": 2, "tags": ["\u00e9", "x\u0301", "\u1e8b", "plain"], "main": "e\u0301"}]}
            """#, name: "second.json")
        #expect(more.isEmpty, "\(more)")
        let one = try post(db, 1)
        let two = try post(db, 2)
        let bytes = { (names: [String]) in names.map { Array($0.utf8) } }
        #expect(try bytes(tagNames(db, db.value("Post", one, "tags"))) == bytes(["e\u{301}", "\u{E9}", "e\u{301}"]))
        #expect(try bytes(tagNames(db, db.value("Post", one, "main"))) == bytes(["\u{E9}"]))
        #expect(
            try bytes(tagNames(db, db.value("Post", two, "tags")))
                == bytes(["\u{E9}", "x\u{301}", "\u{1E8B}", "plain"]))
        #expect(try bytes(tagNames(db, db.value("Post", two, "main"))) == bytes(["e\u{301}"]))
    }

    @Test func forwardListsKeepOrderAndDuplicatesInEveryPlace() throws {
        let db = try memoryDatabase(try schema(Self.schemaJSON))
        let lines = importLines(
            db,
            """
            {"schemaVersion": 1,
             "Post": [{"_id": 1, "tags": ["b", "a", "b"], "spot": {"tags": ["a", "b", "a"]}}, {"_id": 2, "tags": []}],
             "Tag": [{"name": "a"}, {"name": "b"}]}
            """, name: "order.json")
        #expect(lines.isEmpty, "\(lines)")
        let one = try post(db, 1)
        #expect(try tagNames(db, db.value("Post", one, "tags")) == ["b", "a", "b"])
        guard case .link(let spot) = try db.value("Post", one, "spot") else {
            Issue.record("no embedded spot")
            return
        }
        #expect(try tagNames(db, db.value("Spot", spot.key, "tags")) == ["a", "b", "a"])
        #expect(try db.value("Post", post(db, 2), "tags") == .list([]))
    }

    @Test func aForwardListWithAMissingTargetWritesNothing() throws {
        let db = try memoryDatabase(try schema(Self.schemaJSON))
        let lines = importLines(
            db,
            """
            {"schemaVersion": 1,
             "Post": [{"_id": 1, "tags": ["a"]}, {"_id": 2, "tags": ["a", "zz"]}],
             "Tag": [{"name": "a"}]}
            """, name: "missing.json")
        #expect(
            lines == [
                "missing.json:Post#2:tags.1: link to a missing object: no Tag with primary key 'zz' in this import or in the database"
            ])
        #expect(try db.count("Post") == 0)
        #expect(try db.count("Tag") == 0)
    }

    @Test func upsertedObjectsGetTheirForwardListsThroughTheStore() throws {
        let db = try memoryDatabase(try schema(Self.schemaJSON))
        #expect(importLines(db, #"{"Tag": [{"name": "a"}], "Post": [{"_id": 1, "tags": ["a", "a"]}]}"#).isEmpty)
        var options = ImportOptions()
        options.mode = .upsert
        let lines = importLines(
            db, #"{"Post": [{"_id": 1, "tags": ["b"]}], "Tag": [{"name": "b"}]}"#, name: "up.json", options: options)
        #expect(lines.isEmpty, "\(lines)")
        #expect(try tagNames(db, db.value("Post", post(db, 1), "tags")) == ["b"])
    }
}
