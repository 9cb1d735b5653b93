import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Object keys without `AUTOINCREMENT`: never given to another object, whichever way objects
/// are added, after deletes in the same or an earlier transaction, after rollbacks and reopening;
/// tables of older files (`AUTOINCREMENT`) keep working.
@Suite("Object keys")
struct ObjectKeyTests {
    static let schema = Schema(classes: [
        ObjectSchema(name: "Item", properties: [prop("_id", "int"), prop("name", "string")], primaryKey: "_id"),
        ObjectSchema(name: "Loose", properties: [prop("n", "int")]),
    ])

    private func sql(_ db: Database, _ table: String) throws -> String {
        guard case .text(let text)? = try db.connection.scalar("SELECT sql FROM sqlite_master WHERE name = '\(table)'")
        else { return "" }
        return text
    }

    private func storedFloor(_ db: Database, _ className: String) throws -> Int64? {
        let value = try db.connection.scalar("SELECT value FROM _porter_meta WHERE key = 'nextKey.\(className)'")
        guard case .integer(let floor)? = value else { return nil }
        return floor
    }

    @Test("new class tables are not AUTOINCREMENT and inserts leave sqlite_sequence alone")
    func plainTables() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("k.porter"), schema: Self.schema)
        #expect(!(try sql(db, "class_Item")).uppercased().contains("AUTOINCREMENT"))
        try db.write {
            _ = try db.createRow("Item", [.int(1), .string("a")])
            _ = try db.create("Loose", ["n": .int(1)])
        }
        // (`sqlite_sequence` itself exists: `_porter_history` is an AUTOINCREMENT table.)
        let sequences = try db.connection.scalar("SELECT count(*) FROM sqlite_sequence WHERE name LIKE 'class%'")
        #expect(sequences == .integer(0))
    }

    @Test("deleting the newest object retires its key: createRow, create and bulk inserts skip it")
    func keysNotReused() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("k.porter")
        var db = try Database.create(at: path, schema: Self.schema)
        let first = try db.write { try (1...3).map { try db.createRow("Item", [.int($0), .string("x")]) } }
        #expect(first.map(\.rawValue) == [1, 2, 3])
        // Deleted and added again in the same transaction.
        let again = try db.write { () -> ObjectKey in
            try db.delete("Item", first[2])
            return try db.createRow("Item", [.int(3), .string("y")])
        }
        #expect(again.rawValue == 4)
        // Deleted in one transaction; the next ones (after reopening) never give key 4 again.
        try db.write { try db.delete("Item", again) }
        #expect(try storedFloor(db, "Item") == 5)
        db = try Database.open(at: path)
        let viaCreate = try db.write { try db.create("Item", ["_id": .int(9), "name": .string("z")]) }
        #expect(viaCreate.rawValue == 5)
        try db.write { try db.delete("Item", viaCreate) }
        let viaBulk = try db.write { () -> ObjectKey in
            let inserter = try BulkInserter(database: db, className: "Item")
            return try inserter.insert(fields: [.int(10), .string("b")])
        }
        #expect(viaBulk.rawValue == 6)
        // Once SQLite's choice is right again it is used: the next key follows.
        let next = try db.write { try db.createRow("Item", [.int(11), .string("c")]) }
        #expect(next.rawValue == 7)
        #expect(try db.checkConsistency() == [])
    }

    @Test("a rolled-back delete stores no key floor; a rolled-back savepoint keeps the floor")
    func rollbacks() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("k.porter"), schema: Self.schema)
        let keys = try db.write { try (1...2).map { try db.createRow("Item", [.int($0), .string("x")]) } }
        let before = try dump(db)
        try db.beginWrite()
        try db.delete("Item", keys[1])
        db.cancelWrite()
        #expect(try dump(db) == before)
        // In one transaction: the newest object deleted, then a failing add (rolled back to its
        // savepoint), then an add: the deleted key stays retired.
        let added = try db.write { () -> ObjectKey in
            try db.delete("Item", keys[1])
            expectPorterError(.duplicatePrimaryKey) { _ = try db.create("Item", ["_id": .int(1)]) }
            return try db.createRow("Item", [.int(5), .string("y")])
        }
        #expect(added.rawValue == 3)
        // A duplicate primary key is still refused by createRow, with the same message.
        let error = expectPorterError(.duplicatePrimaryKey) {
            try db.write { _ = try db.createRow("Item", [.int(5), .string("z")]) }
        }
        #expect(error?.message == "duplicate primary key value 5: an object with it already exists")
        #expect(try db.count("Item") == 2)
    }

    @Test("a table of an older file (AUTOINCREMENT) keeps its keys and gets no key floor")
    func olderTables() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("old.porter")
        do {
            let db = try Database.create(at: path, schema: Self.schema)
            // The layout older Porters made for every class.
            try db.connection.execute(
                "DROP TABLE class_Loose; CREATE TABLE class_Loose (_key INTEGER PRIMARY KEY AUTOINCREMENT, \"n\")")
        }
        let db = try Database.open(at: path)
        let keys = try db.write { try (1...3).map { try db.createRow("Loose", [.int(Int64($0))]) } }
        try db.write { try db.delete("Loose", keys[2]) }
        let next = try db.write { try db.create("Loose", ["n": .int(4)]) }
        #expect(next.rawValue == 4)
        #expect(try storedFloor(db, "Loose") == nil)
        #expect(try sql(db, "class_Loose").uppercased().contains("AUTOINCREMENT"))
        #expect(try db.checkConsistency() == [])
    }

    @Test("porter check accepts key floors and names other meta rows")
    func checkMetaRows() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("k.porter"), schema: Self.schema)
        let key = try db.write { try db.createRow("Loose", [.int(1)]) }
        try db.write { try db.delete("Loose", key) }
        #expect(try db.untrustedSchemaProblems() == [])
        try db.connection.execute("INSERT INTO _porter_meta (key, value) VALUES ('nextKey.Item', 'text')")
        #expect(try db.untrustedSchemaProblems() == ["_porter_meta: unknown row 'nextKey.Item'"])
    }
}
