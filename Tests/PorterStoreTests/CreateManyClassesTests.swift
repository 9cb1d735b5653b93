import Foundation
import PorterTestSupport
import PorterCSQLite
import PorterModel
import Testing

@testable import PorterStore

/// `Database.create` of a schema with many classes (``SchemaDDL/createClassesInNewFile(_:)``)
/// writes exactly the schema rows the plain statements write, and leaves a sound file.
@Suite struct CreateManyClassesTests {
    /// `count` classes with every kind of table and index Porter makes, linked in a ring.
    static func schema(_ count: Int) -> Schema {
        let classes = (0..<count).map { i -> ObjectSchema in
            ObjectSchema(
                name: "C\(i)",
                properties: [
                    Property(name: "_id", type: .int), Property(name: "name", type: .string, indexed: true),
                    Property(name: "next", type: .object, objectType: "C\((i + 1) % count)", optional: true),
                    Property(name: "tags", type: .string, collection: .list),
                    Property(name: "ids", type: .int, collection: .set),
                    Property(name: "scores", type: .double, collection: .map), Property(name: "any", type: .mixed),
                ], primaryKey: "_id")
        }
        return Schema(version: 1, classes: classes)
    }

    /// The `sqlite_master` rows of the schema's objects, in rowid order (`sqlite_sequence`, made
    /// by Porter's own history table first, left out).
    static func schemaRows(_ connection: SQLiteConnection) throws -> [String] {
        let stmt = try connection.prepare(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE '\\_porter%' "
                + "ESCAPE '\\' AND name != 'sqlite_sequence' ORDER BY rowid")
        var rows: [String] = []
        while try stmt.step() {
            rows.append([stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)].joined(separator: "|"))
        }
        return rows
    }

    @Test func manyClassesGetTheSchemaRowsOfThePlainStatements() throws {
        let count = SchemaDDL.setAsideThreshold * 2 + 7
        let schema = Self.schema(count)
        let dir = try TemporaryFolder()
        let db = try Database.create(at: dir.path("many.porter"), schema: schema)
        // The reference: one statement after another on a fresh connection.
        let plain = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let ddl = SchemaDDL(connection: plain)
        for cls in schema.classes { try ddl.createClass(cls) }
        let written = try Self.schemaRows(db.connection)
        #expect(written.count > count * 5)
        #expect(written == (try Self.schemaRows(plain)))
        #expect(try db.connection.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try db.checkConsistency().isEmpty)
        #expect(db.schema == (try Database.open(at: dir.path("many.porter")).schema))
        // The last class works, and its link to the first one.
        try db.write {
            let first = try db.create("C0", ["_id": .int(1), "name": .string("a")])
            _ = try db.create(
                "C\(count - 1)",
                [
                    "_id": .int(2), "name": .string("z"), "next": .link(ObjectLink("C0", first)),
                    "tags": .list([.string("t")]),
                ])
        }
        #expect(try db.count("C\(count - 1)") == 1)
        // Defensive mode is back on: the schema table cannot be written.
        #expect(throws: PorterError.self) {
            try db.connection.execute("PRAGMA writable_schema=ON; DELETE FROM sqlite_master WHERE name = 'class_C0'")
        }
        #expect(try Self.schemaRows(db.connection) == written)
    }

    @Test func aFewClassesTakeThePlainStatements() throws {
        let schema = Self.schema(3)
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: schema)
        let plain = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        for cls in schema.classes { try SchemaDDL(connection: plain).createClass(cls) }
        #expect(try Self.schemaRows(db.connection) == (try Self.schemaRows(plain)))
    }
}
