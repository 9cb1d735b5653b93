import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

@Suite("Finding objects and counting")
struct QueryTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Item",
            properties: [
                prop("_id", "objectId"),
                prop("sku", "string", indexed: true),
                prop("title", "string"),
                prop("qty", "int", indexed: true),
                prop("price", "double"),
                prop("active", "bool"),
                prop("added", "date", indexed: true),
                prop("ref", "uuid?", indexed: true),
                prop("note", "string?"),
                prop("any", "mixed", indexed: true),
                prop("anyPlain", "mixed"),
                prop("shelf", "Shelf?"),
            ], primaryKey: "_id"),
        ObjectSchema(name: "Shelf", properties: [prop("code", "int")], primaryKey: "code"),
        ObjectSchema(name: "Loose", properties: [prop("n", "int")]),
    ])

    @Test("keys(where:equals:) finds by equality, with and without an index, in key order")
    func findByEquality() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema)
        let uuid = try #require(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962"))
        let day = try Timestamp(iso8601: "2024-05-01T10:00:00.000001Z")
        var keys: [ObjectKey] = []
        var shelves: [ObjectKey] = []
        try db.write {
            shelves = try (1...2).map { try db.create("Shelf", ["code": .int(Int64($0))]) }
            for i in 0..<20 {
                keys.append(
                    try db.create(
                        "Item",
                        [
                            "sku": .string("sku-\(i % 4)"), "title": .string(i % 2 == 0 ? "even" : "odd"),
                            "qty": .int(Int64(i % 3)),
                            "price": .double(Double(i % 5) / 2), "active": .bool(i % 2 == 0),
                            "added": .date(i < 5 ? day : Timestamp(microseconds: Int64(i))),
                            "ref": i == 7 ? .uuid(uuid) : .null, "note": i % 10 == 0 ? .string("") : .null,
                            "any": i % 4 == 0
                                ? .int(1)
                                : (i % 4 == 1
                                    ? .string("1")
                                    : (i % 4 == 2 ? .bool(true) : .link(ObjectLink("Shelf", shelves[0])))),
                            "anyPlain": i % 2 == 0 ? .double(2.5) : .null,
                            "shelf": i % 3 == 0 ? .link(ObjectLink("Shelf", shelves[i % 2])) : .null,
                        ]))
            }
        }
        func expected(_ predicate: (Int) -> Bool) -> [ObjectKey] { (0..<20).filter(predicate).map { keys[$0] } }
        #expect(try db.keys("Item", where: "sku", equals: .string("sku-1")) == expected { $0 % 4 == 1 })
        #expect(try db.keys("Item", where: "title", equals: .string("odd")) == expected { $0 % 2 == 1 })
        #expect(try db.keys("Item", where: "qty", equals: .int(2)) == expected { $0 % 3 == 2 })
        #expect(try db.keys("Item", where: "price", equals: .double(1.5)) == expected { $0 % 5 == 3 })
        #expect(try db.keys("Item", where: "active", equals: .bool(false)) == expected { $0 % 2 == 1 })
        #expect(try db.keys("Item", where: "added", equals: .date(day)) == expected { $0 < 5 })
        #expect(try db.keys("Item", where: "ref", equals: .uuid(uuid)) == [keys[7]])
        #expect(try db.keys("Item", where: "ref", equals: .null).count == 19)
        #expect(try db.keys("Item", where: "note", equals: .string("")) == expected { $0 % 10 == 0 })
        #expect(try db.keys("Item", where: "note", equals: .null).count == 18)
        #expect(try db.keys("Item", where: "any", equals: .string("1")) == expected { $0 % 4 == 1 })
        #expect(try db.keys("Item", where: "any", equals: .bool(true)) == expected { $0 % 4 == 2 })
        #expect(
            try db.keys("Item", where: "any", equals: .link(ObjectLink("Shelf", shelves[0])))
                == expected { $0 % 4 == 3 })
        #expect(try db.keys("Item", where: "anyPlain", equals: .double(2.5)) == expected { $0 % 2 == 0 })
        #expect(
            try db.keys("Item", where: "shelf", equals: .link(ObjectLink("Shelf", shelves[1])))
                == expected { $0 % 6 == 3 })
        #expect(try db.keys("Item", where: "sku", equals: .string("nope")).isEmpty)
        #expect(
            try db.keys("Item", where: "qty", equals: .string("2")).isEmpty, "a value of another type matches nothing")

        // Collections cannot be compared this way.
        let schema = petSchema()
        let pets = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        let error = expectPorterError(.notFound) { _ = try pets.keys("Person", where: "tags", equals: .string("x")) }
        #expect(error?.headline == "Person.tags: no stored single-value property 'tags' to compare")
    }

    @Test("Indexed properties are looked up through their index")
    func indexIsUsed() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema)
        func plan(_ column: String) throws -> String {
            let stmt = try db.connection.prepare(
                "EXPLAIN QUERY PLAN SELECT _key FROM \"class_Item\" WHERE \(quoteIdentifier(column)) = ? ORDER BY _key")
            var lines: [String] = []
            while try stmt.step() { lines.append(stmt.text(3)) }
            return lines.joined(separator: "; ")
        }
        #expect(
            try plan("sku").contains("USING INDEX \"index:Item.sku\"")
                || plan("sku").contains("USING COVERING INDEX index:Item.sku"))
        #expect(try plan("qty").contains("index:Item.qty"))
        #expect(try plan("_id").contains("pk:Item"))
        #expect(try plan("shelf").contains("index:Item.shelf"), "links are indexed for reverse lookups")
        #expect(try !plan("title").contains("INDEX"))
    }

    @Test("key(_:primaryKey:), primaryKeyValue and count")
    func primaryKeysAndCounts() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema)
        let ids = (0..<5).map { _ in ObjectId.generate() }
        let keys = try db.write { try ids.map { try db.create("Item", ["_id": .objectId($0), "sku": .string("s")]) } }
        for (id, key) in zip(ids, keys) {
            #expect(try db.key("Item", primaryKey: .objectId(id)) == key)
            #expect(try db.primaryKeyValue("Item", key) == .objectId(id))
        }
        #expect(try db.key("Item", primaryKey: .objectId(try ObjectId(string: "000000000000000000000000"))) == nil)
        #expect(try db.count("Item") == 5)
        #expect(try db.count("Shelf") == 0)
        try db.write { try db.delete("Item", keys[2]) }
        #expect(try db.count("Item") == 4)
        #expect(try db.key("Item", primaryKey: .objectId(ids[2])) == nil)
        #expect(try db.primaryKeyValue("Item", keys[2]) == nil)
        #expect(try db.primaryKeyValue("Loose", ObjectKey(1)) == nil)
        let error = expectPorterError(.usage) { _ = try db.key("Loose", primaryKey: .int(1)) }
        #expect(error?.message == "class 'Loose' has no primary key")

        // Keys are never reused, even after deleting the newest object.
        let k1 = try db.write { try db.create("Loose", ["n": .int(1)]) }
        try db.write { try db.delete("Loose", k1) }
        let k2 = try db.write { try db.create("Loose", ["n": .int(2)]) }
        #expect(k2 > k1)
        try db.write { try db.deleteAll("Item") }
        #expect(try db.count("Item") == 0)
    }

    @Test("makeCursor streams objects in key order")
    func cursor() throws {
        let db = try petDatabase()
        let keys = try db.write {
            try (0..<10).map { try db.create("Dog", ["name": .string("d\($0)"), "age": .int(Int64($0))]) }
        }
        try db.write { try db.delete("Dog", keys[4]) }
        let cursor = try db.makeCursor("Dog")
        var seen: [ObjectKey] = []
        while let object = try cursor.next() {
            seen.append(object.key)
            #expect(object["name"] == .string("d\(keys.firstIndex(of: object.key)!)"))
        }
        #expect(seen == keys.filter { $0 != keys[4] })
        #expect(try cursor.next() == nil)
    }
}
