import Foundation
import Testing
@testable import PorterMigration
import PorterStore
import PorterTestSupport

/// realm-swift `MigrationTests.swift` (and the ObjC `MigrationTests.mm` checklist), adapted:
/// enumeration, create, delete, deleteData, schemas, deleteRealmIfMigrationNeeded.
@Suite struct SwiftMigrationAPITests {
    let stringObject = #"{"name": "StringObject", "properties": {"stringCol": "string"}}"#
    let intObject = #"{"name": "IntObject", "primaryKey": "intCol", "properties": {"intCol": "int"}}"#

    private func file(_ dir: TemporaryFolder, strings: [String] = [], ints: [Int64] = []) throws -> String {
        try makeDatabase(dir.path("db.porter"), try schema(1, stringObject, intObject)) { db in
            for s in strings { try db.create("StringObject", ["stringCol": .string(s)]) }
            for i in ints { try db.create("IntObject", ["intCol": .int(i)]) }
        }
    }

    @Test func enumerateCallsPerObjectAndNeverForNothing() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let calls = Box(0)
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            migration.enumerateObjects(ofType: "StringObject") { _, _ in calls.value += 1 }
            migration.enumerateObjects(ofType: "NoSuchClass") { _, _ in calls.value += 1 }
        }
        #expect(calls.value == 0)
        try makeDatabase(dir.path("one.porter"), try schema(1, stringObject)) { db in
            try db.create("StringObject", ["stringCol": .string("string")])
        }
        let seen = Box<[String]>([])
        try migrate(dir.path("one.porter"), to: try schema(2, stringObject)) { migration, _ in
            migration.enumerateObjects(ofType: "StringObject") { old, new in
                if case .string(let s)? = old?["stringCol"], case .string(let t)? = new?["stringCol"] {
                    seen.value.append(s + t)
                }
            }
        }
        #expect(seen.value == ["stringstring"])
        // Migrations at v3 and v4 of the same file.
        try migrate(dir.path("one.porter"), to: try schema(3, stringObject)) { _, version in #expect(version == 2) }
        try migrate(dir.path("one.porter"), to: try schema(4, stringObject)) { _, version in #expect(version == 3) }
    }

    @Test func enumerateAfterDeletingSkipsDeletedObjects() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, strings: ["a", "b", "c", "d"], ints: [1, 2, 3, 4])
        let counts = Box<[Int]>([])
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            var n = 0
            migration.enumerateObjects(ofType: "IntObject") { _, new in
                n += 1
                if n % 2 == 1, let new { migration.delete(new) }
                // A created object reusing a deleted primary key is never enumerated as a pair.
                if n == 1 { migration.create("IntObject", value: ["intCol": .int(1)]) }
            }
            var second = 0
            migration.enumerateObjects(ofType: "IntObject") { _, _ in second += 1 }
            counts.value = [n, second]
        }
        #expect(counts.value == [4, 2])
        #expect(try column(path, "IntObject", "intCol") == [.int(2), .int(4), .int(1)])
    }

    @Test func enumerateAfterDeleteDataYieldsNothing() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, strings: ["a", "b", "c"])
        let counts = Box<[Int]>([])
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            var n = 0
            migration.enumerateObjects(ofType: "StringObject") { _, _ in n += 1 }
            #expect(migration.deleteData(forType: "StringObject"))
            migration.create("StringObject", value: ["stringCol": .string("new")])
            var after = 0
            migration.enumerateObjects(ofType: "StringObject") { _, _ in after += 1 }
            counts.value = [n, after]
        }
        #expect(counts.value == [3, 0])
        #expect(try column(path, "StringObject", "stringCol") == [.string("new")])
    }

    @Test func enumerateRemovedAndAddedClasses() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, strings: ["a", "b"])
        let pairs = Box<[String]>([])
        let added = #"{"name": "Added", "properties": {"v": "int"}}"#
        try migrate(path, to: try schema(2, intObject, added)) { migration, _ in
            migration.create("Added", value: ["v": .int(1)])
            migration.enumerateObjects(ofType: "StringObject") { old, new in
                pairs.value.append("\(old != nil),\(new != nil)")
            }
            migration.enumerateObjects(ofType: "Added") { old, new in
                pairs.value.append("added \(old != nil),\(new != nil)")
            }
            #expect(migration.deleteData(forType: "StringObject"))
            #expect(!migration.deleteData(forType: "NoSuchClass"))
            #expect(!migration.deleteData(forType: ""))
        }
        #expect(pairs.value == ["true,false", "true,false", "added false,true"])
        #expect(try reopen(path).schema["StringObject"] == nil)
        #expect(try !MigrationStorage(try reopen(path)).hasTable("StringObject"))
    }

    @Test func createWithValuesAndDefaultsAndUnknownTypes() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        // As in Realm, the calls do not throw: a failure fails the whole migration when the block returns.
        let error = expectPorterError(.notFound) {
            try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
                migration.create("StringObject", value: ["stringCol": .string("kept only if all succeeds")])
                migration.create("NoSuchClass")
                migration.create("StringObject")
            }
        }
        #expect(error?.message == "Object type 'NoSuchClass' not found in the new schema.")
        #expect(try reopen(path).schema.version == 1)
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            migration.create("StringObject", value: ["stringCol": .string("string1")])
            migration.create("StringObject", value: ["stringCol": "string2"])  // Realm's Swift values
            migration.create("StringObject")
        }
        #expect(try column(path, "StringObject", "stringCol") == [.string("string1"), .string("string2"), .string("")])
    }

    @Test func deleteInsideEnumeration() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, strings: ["a", "b"])
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            var first = true
            migration.enumerateObjects(ofType: "StringObject") { _, new in
                if first, let new { migration.delete(new) }
                first = false
            }
        }
        #expect(try column(path, "StringObject", "stringCol") == [.string("b")])
    }

    @Test func migrationSchemasDescribeBothSides() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "StringObject", "properties": {"stringCol": "int"}}"#))
        let seen = Box<(String?, String?, Int, Int)>((nil, nil, 0, 0))
        try migrate(path, to: try schema(2, stringObject, intObject)) { migration, _ in
            seen.value = (
                migration.oldSchema["StringObject"]?.property(named: "stringCol")?.typeShorthand,
                migration.newSchema["StringObject"]?.property(named: "stringCol")?.typeShorthand,
                migration.oldSchema.classes.count, migration.newSchema.classes.count
            )
        }
        #expect(seen.value.0 == "int" && seen.value.1 == "string" && seen.value.2 == 1 && seen.value.3 == 2)
    }

    @Test func deleteDatabaseIfMigrationNeeded() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, strings: ["a"])
        let changed = try schema(1, #"{"name": "StringObject", "properties": {"stringCol": "int"}}"#)
        expectPorterError(.migrationRequired) { try migrate(path, to: changed) }
        #expect(try reopen(path).count("StringObject") == 1)
        let called = Box(false)
        let report = try migrate(path, to: changed, options: MigrationOptions(deleteDatabaseIfMigrationNeeded: true)) {
            _, _ in called.value = true
        }
        #expect(report.outcome == .recreated)
        #expect(!called.value)
        #expect(try reopen(path).count("StringObject") == 0)
        #expect(try reopen(path).schema == changed)
        // Nothing needed: the file is kept.
        try makeDatabase(dir.path("keep.porter"), changed) { db in try db.create("StringObject", ["stringCol": .int(1)])
        }
        #expect(
            try migrate(
                dir.path("keep.porter"), to: changed, options: MigrationOptions(deleteDatabaseIfMigrationNeeded: true)
            ).outcome == .upToDate)
        #expect(try reopen(dir.path("keep.porter")).count("StringObject") == 1)
        #expect(try Migrator.needsMigration(databaseAt: path, schema: changed) == false)
        #expect(try Migrator.needsMigration(databaseAt: path, schema: try schema(2, stringObject)) == true)
    }

    @Test func changePropertyTypeThroughTheBlock() throws {
        // realm-swift testChangePropertyType: the block writes the new value from the old one.
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "StringObject", "properties": {"stringCol": "int"}}"#)
        ) { db in
            try db.create("StringObject", ["stringCol": .int(1)])
        }
        try migrate(path, to: try schema(2, stringObject)) { migration, _ in
            migration.enumerateObjects(ofType: "StringObject") { old, new in
                if case .int(let i)? = old?["stringCol"] { new?["stringCol"] = .string(String(i + 1)) }
            }
        }
        #expect(try column(path, "StringObject", "stringCol") == [.string("2")])
    }

    @Test func addedPropertyIsOnlyOnTheNewObjectAndRemovedOnlyOnTheOld() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "O", "properties": {"a": "int", "gone": "int"}}"#)
        ) { db in
            try db.create("O", ["a": .int(1), "gone": .int(7)])
        }
        let seen = Box<[String]>([])
        try migrate(path, to: try schema(2, #"{"name": "O", "properties": {"a": "int", "added": "int"}}"#)) {
            migration, _ in
            try migration.enumerateObjects(ofType: "O") { old, new in
                guard let old, let new else { return }
                seen.value.append((try? old.value(forKey: "added")) == nil ? "old lacks added" : "old has added")
                seen.value.append((try? new.value(forKey: "gone")) == nil ? "new lacks gone" : "new has gone")
                seen.value.append("\(try old.value(forKey: "gone")) \(try new.value(forKey: "added"))")
                new["added"] = .int(3)
            }
        }
        #expect(seen.value == ["old lacks added", "new lacks gone", "int(7) int(0)"])
        #expect(try column(path, "O", "added") == [.int(3)])
    }
}
