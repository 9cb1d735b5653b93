import Foundation
import PorterModel
import PorterTestSupport
import Testing

@testable import PorterStore

/// ``Database/catalog()``: one read of `sqlite_master` answers the table and index lookups, and
/// a schema change or a rollback makes it read again.
@Suite struct CatalogTests {
    static let schema = Schema(
        version: 1,
        classes: [
            ObjectSchema(
                name: "Item", properties: [Property(name: "_id", type: .int), Property(name: "name", type: .string)],
                primaryKey: "_id")
        ])

    @Test func answersFromOneReadAndFollowsTableChanges() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("c.porter"), schema: Self.schema)
        #expect(try db.storageTableExists("class_Item"))
        #expect(try db.hasPrimaryKeyIndex("Item"))
        #expect(try !db.storageTableExists("class_Other"))
        try db.connection.execute("CREATE TABLE class_Other (_key INTEGER PRIMARY KEY)")
        #expect(try db.storageTableExists("class_Other"))
        try db.connection.execute("DROP INDEX \"pk:Item\"")
        #expect(try !db.hasPrimaryKeyIndex("Item"))
    }

    /// A rollback restores SQLite's schema cookie; a later change in the same session can take that
    /// cookie again with other tables, so the cached catalog must not be reused across it.
    @Test func aRollbackIsNotMistakenForTheSameSchema() throws {
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("c.porter"), schema: Self.schema)
        try db.beginWrite()
        try db.connection.execute("CREATE TABLE class_A (_key INTEGER PRIMARY KEY)")
        #expect(try db.storageTableExists("class_A"))
        db.cancelWrite()
        try db.beginWrite()
        try db.connection.execute("CREATE TABLE class_B (_key INTEGER PRIMARY KEY)")
        #expect(try !db.storageTableExists("class_A"))
        #expect(try db.storageTableExists("class_B"))
        db.cancelWrite()
        #expect(try !db.storageTableExists("class_B"))
    }

    /// Another connection's schema change is seen (its commit moves the cookie).
    @Test func anotherConnectionsChangeIsSeen() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("c.porter")
        let db = try Database.create(at: path, schema: Self.schema)
        #expect(try !db.storageTableExists("class_Late"))
        let other = try Database.open(at: path)
        try other.connection.execute("CREATE TABLE class_Late (_key INTEGER PRIMARY KEY)")
        #expect(try db.storageTableExists("class_Late"))
    }

    /// `createFile` makes the same file `create` does, without opening it, and refuses an existing one.
    @Test func createFileMakesTheFileAndRefusesToOverwrite() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("f.porter")
        try Database.createFile(at: path, schema: Self.schema)
        #expect(try Database.open(at: path).schema == Self.schema)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(throws: PorterError.self) { try Database.createFile(at: path, schema: Self.schema) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "f.porter" }
        #expect(leftovers.isEmpty)
    }
}
