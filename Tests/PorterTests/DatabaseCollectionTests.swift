import Foundation
import Testing
@testable import Porter

/// The element operations the typed layer added to `Database` (`Database+Collections.swift`).
@Suite struct DatabaseCollectionTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Owner",
            properties: [
                Property(name: "ints", type: .int, collection: .list),
                Property(name: "places", type: .object, objectType: "Place", collection: .list),
                Property(name: "tags", type: .string, optional: true, collection: .set),
                Property(name: "scores", type: .mixed, collection: .map),
                Property(name: "spots", type: .object, objectType: "Place", optional: true, collection: .map),
            ]),
        ObjectSchema(name: "Place", properties: [Property(name: "name", type: .string)], embedded: true),
    ])

    func database() throws -> (Database, ObjectKey) {
        let db = try Database.inMemory(identifier: "collections-\(UUID())", schema: Self.schema)
        let key = try db.write { try db.create("Owner", ["ints": .list([.int(10), .int(20), .int(30)])]) }
        return (db, key)
    }

    @Test func listInsertRemoveMoveSet() throws {
        let (db, key) = try database()
        try db.write {
            try db.listInsert("Owner", key, "ints", .int(5), at: 0)
            try db.listAppend("Owner", key, "ints", .int(40))
            try db.listRemove("Owner", key, "ints", at: 2)
            try db.listMove("Owner", key, "ints", from: 0, to: 3)
            try db.listSet("Owner", key, "ints", at: 0, .int(11))
        }
        #expect(try db.value("Owner", key, "ints") == .list([.int(11), .int(30), .int(40), .int(5)]))
        #expect(try db.listElement("Owner", key, "ints", at: 3) == .int(5))
        #expect(try db.collectionCount("Owner", key, "ints") == 4)
        let range = #expect(throws: PorterError.self) { try db.listElement("Owner", key, "ints", at: 4) }
        #expect(range?.headline == "Owner.ints: index 4 is out of range (the list has 4 elements)")
        let outside = #expect(throws: PorterError.self) { try db.listAppend("Owner", key, "ints", .int(1)) }
        #expect(outside?.code == .notInWriteTransaction)
        let wrongKind = #expect(throws: PorterError.self) { try db.setContains("Owner", key, "ints", .int(1)) }
        #expect(wrongKind?.headline == "Owner.ints: property of type 'int[]' is not a set")
    }

    @Test func failedListChangeChangesNothing() throws {
        let (db, key) = try database()
        try db.write {
            #expect(throws: PorterError.self) { try db.listInsert("Owner", key, "ints", .string("x"), at: 1) }
            #expect(throws: PorterError.self) { try db.listInsert("Owner", key, "ints", .int(1), at: 9) }
        }
        #expect(try db.value("Owner", key, "ints") == .list([.int(10), .int(20), .int(30)]))
    }

    @Test func embeddedElementsAreCreatedAndDeleted() throws {
        let (db, key) = try database()
        try db.write {
            let stored = try db.listAppend("Owner", key, "places", .object(["name": .string("A")]))
            #expect(stored == .link(ObjectLink("Place", ObjectKey(1))))
            try db.listAppend("Owner", key, "places", .object(["name": .string("B")]))
            try db.listMove("Owner", key, "places", from: 1, to: 0)
            try db.mapSet("Owner", key, "spots", forKey: "home", .object(["name": .string("C")]))
            try db.mapSet("Owner", key, "spots", forKey: "home", .object(["name": .string("D")]))
        }
        #expect(try db.count("Place") == 3, "the replaced map value was deleted, the moved element kept")
        try db.write {
            try db.listRemove("Owner", key, "places", at: 0)
            #expect(try db.mapRemove("Owner", key, "spots", forKey: "home"))
            #expect(try !db.mapRemove("Owner", key, "spots", forKey: "home"))
        }
        #expect(try db.count("Place") == 1)
        #expect(try db.snapshot("Owner", key)?["places"] == .list([.object(["name": .string("A")])]))
    }

    @Test func setsStayUniqueAndMapsValidateKeys() throws {
        let (db, key) = try database()
        try db.write {
            #expect(try db.setInsert("Owner", key, "tags", .string("a")))
            #expect(try !db.setInsert("Owner", key, "tags", .string("a")))
            #expect(try db.setInsert("Owner", key, "tags", .null))
            #expect(try db.setRemove("Owner", key, "tags", .null))
            try db.mapSet("Owner", key, "scores", forKey: "one", .int(1))
            try db.mapSet("Owner", key, "scores", forKey: "uno", .double(1))
            let bad = #expect(throws: PorterError.self) { try db.mapSet("Owner", key, "scores", forKey: "$x", .int(1)) }
            #expect(bad?.code == .constraintViolation)
        }
        #expect(try db.setContains("Owner", key, "tags", .string("a")))
        #expect(try db.mapKeys("Owner", key, "scores") == ["one", "uno"])
        #expect(try db.mapValue("Owner", key, "scores", forKey: "uno") == .double(1))
        #expect(try db.mapValue("Owner", key, "scores", forKey: "none") == nil)
    }

    @Test func queryHelpers() throws {
        let (db, key) = try database()
        #expect(try db.allKeys("Owner") == [key])
        let before = db.changeToken
        #expect(db.changeToken == before)
        try db.write { try db.create("Owner", [:]) }
        #expect(db.changeToken != before)
        try db.write {
            #expect(throws: PorterError.self) {
                try db.savepoint {
                    try db.create("Owner", [:])
                    throw PorterError(.usage, "stop")
                }
            }
        }
        #expect(try db.allKeys("Owner").count == 2, "the savepoint's insert was undone")
    }
}
