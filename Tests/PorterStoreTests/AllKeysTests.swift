import Foundation
import PorterModel
import PorterTestSupport
import Testing

@testable import PorterStore

/// ``Database/allKeys(_:)``: a class whose keys are dense is answered as a range, any other by
/// stepping its keys; both give every key, in order, whatever was deleted.
@Suite struct AllKeysTests {
    static let schema = CatalogTests.schema

    /// The keys as the statement that steps every row gives them.
    static func stepped(_ db: Database) throws -> [ObjectKey] {
        try db.queryKeys("SELECT _key FROM class_Item WHERE _key > ? ORDER BY _key", Int64.min)
    }

    @Test func denseSparseAndEmptyClasses() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("k.porter"), schema: Self.schema)
        #expect(try db.allKeys("Item") == [])
        var keys: [ObjectKey] = []
        try db.write {
            for i in 0..<50 { keys.append(try db.create("Item", ["_id": .int(Int64(i)), "name": .string("n\(i)")])) }
        }
        #expect(try db.allKeys("Item") == keys)
        // The first and the last gone: still dense, a shorter range.
        try db.write {
            try db.delete("Item", keys[0])
            try db.delete("Item", keys[49])
        }
        #expect(try db.allKeys("Item") == Array(keys[1..<49]))
        // A gap in the middle: the count no longer spans the range, so every key is stepped.
        try db.write { try db.delete("Item", keys[20]) }
        let sparse = Array(keys[1..<20] + keys[21..<49])
        #expect(try db.allKeys("Item") == sparse)
        #expect(try Self.stepped(db) == sparse)
        // A new object takes a key past the highest ever used: still not dense.
        let added = try db.write { try db.create("Item", ["_id": .int(99), "name": .string("late")]) }
        #expect(try db.allKeys("Item") == sparse + [added])
        try db.write {
            for key in sparse + [added] { try db.delete("Item", key) }
        }
        #expect(try db.allKeys("Item") == [])
    }

    /// Keys written by hand at the ends of the key space (a damaged or foreign file): no overflow,
    /// the same keys as stepping them.
    @Test func extremeKeys() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("x.porter"), schema: Self.schema)
        try db.connection.execute(
            "INSERT INTO class_Item (_key, _id, name) VALUES (\(Int64.min + 1), 1, 'a'), (\(Int64.max), 2, 'b'), (0, 3, 'c')"
        )
        #expect(try db.allKeys("Item") == [ObjectKey(.min + 1), ObjectKey(0), ObjectKey(.max)])
        try db.connection.execute("DELETE FROM class_Item WHERE _key = 0")
        #expect(try db.allKeys("Item") == [ObjectKey(.min + 1), ObjectKey(.max)])
        #expect(try Self.stepped(db) == [ObjectKey(.min + 1), ObjectKey(.max)])
    }
}
