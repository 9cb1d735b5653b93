import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterTestSupport

/// realm-core `migrations.cpp` "property renaming" through the migration block, realm-swift's
/// rename tests, and renames given up front (`--rename`, `--rename-class`).
@Suite struct RenameRuntimeTests {
    let v1 = #"{"name": "Object", "properties": {"value": "int"}}"#

    /// v1 with one object (value 10), then a migration to `new` whose block renames.
    private func renamed(
        _ new: String, _ renames: [(String, String, String)], others: [String] = [], old: String? = nil
    ) throws -> (String, TemporaryFolder) {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"),
            try Schema(
                jsonString: #"{"schemaVersion": 1, "classes": [\#(([old ?? v1] + others).joined(separator: ","))]}"#)
        ) { db in
            try db.create("Object", ["value": .int(10)])
        }
        try migrate(
            path,
            to: try Schema(
                jsonString: #"{"schemaVersion": 2, "classes": [\#(([new] + others).joined(separator: ","))]}"#)
        ) { migration, _ in
            for (type, from, to) in renames { migration.renameProperty(onType: type, from: from, to: to) }
        }
        return (path, dir)
    }

    private func failedRename(
        _ new: String, _ renames: [(String, String, String)], others: [String] = [], old: String? = nil
    ) -> String? {
        expectPorterError(.migrationFailed) { _ = try renamed(new, renames, others: others, old: old) }?.message
    }

    @Test func realmFailureMessages() throws {
        #expect(
            failedRename(v1 + #", {"name": "Object 2", "properties": {"new": "int"}}"#, [("Object 2", "value", "new")])
                == "Cannot rename property 'Object 2.value' because it does not exist.")
        #expect(
            failedRename(#"{"name": "Other", "properties": {"v": "int"}}"#, [("Object", "value", "new")])
                == "Cannot rename properties for type 'Object' because it has been removed from the Realm.")
        #expect(
            failedRename(#"{"name": "Object", "properties": {"new": "int"}}"#, [("Object", "nonexistent", "new")])
                == "Cannot rename property 'Object.nonexistent' because it does not exist.")
        #expect(
            failedRename(#"{"name": "Object", "properties": {"new": "int"}}"#, [("Object", "value", "nonexistent")])
                == "Renamed property 'Object.nonexistent' does not exist.")
        #expect(
            failedRename(
                #"{"name": "Object", "properties": {"value": "int", "new": "int"}}"#, [("Object", "value", "new")])
                == "Cannot rename property 'Object.value' to 'new' because the source property still exists.")
        #expect(
            failedRename(#"{"name": "Object", "properties": {"new": "date"}}"#, [("Object", "value", "new")])
                == "Cannot rename property 'Object.value' to 'new' because it would change from type 'int' to 'date'.")
        #expect(
            failedRename(
                #"{"name": "Object", "properties": {"new": "int"}}"#, [("Object", "value", "new")],
                old: #"{"name": "Object", "properties": {"value": "int?"}}"#)
                == "Cannot rename property 'Object.value' to 'new' because it would change from optional to required.")
        #expect(
            failedRename(#"{"name": "Object", "properties": {"new": "int"}}"#, [("Nothing", "value", "new")])
                == "Cannot rename properties for type 'Nothing' because it does not exist.")
        let t = #"{"name": "Target", "properties": {"v": "int"}}"#,
            o = #"{"name": "Origin", "properties": {"v": "int"}}"#
        #expect(
            failedRename(
                #"{"name": "Object", "properties": {"value": "int", "new": "Origin?"}}"#, [("Object", "link", "new")],
                others: [t, o],
                old: #"{"name": "Object", "properties": {"value": "int", "link": "Target?"}}"#)
                == "Cannot rename property 'Object.link' to 'new' because it would change from type '<Target>' to '<Origin>'."
        )
        #expect(
            failedRename(
                #"{"name": "Object", "properties": {"value": "int", "new": "Origin[]"}}"#, [("Object", "list", "new")],
                others: [t, o],
                old: #"{"name": "Object", "properties": {"value": "int", "list": "Target[]"}}"#)
                == "Cannot rename property 'Object.list' to 'new' because it would change from type 'array<Target>' to 'array<Origin>'."
        )
    }

    @Test func successfulRenamesKeepTheValue() throws {
        let cases: [(String, String)] = [
            (
                #"{"name": "Object", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "properties": {"new": "int"}}"#
            ),
            (
                #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "properties": {"new": "int"}}"#
            ),
            (
                #"{"name": "Object", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "primaryKey": "new", "properties": {"new": "int"}}"#
            ),
            (
                #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "primaryKey": "new", "properties": {"new": "int"}}"#
            ),
            (
                #"{"name": "Object", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "properties": {"new": "int?"}}"#
            ),
            (
                #"{"name": "Object", "properties": {"value": "int"}}"#,
                #"{"name": "Object", "properties": {"new": {"type": "int", "indexed": true}}}"#
            ),
            (
                #"{"name": "Object", "properties": {"value": {"type": "int", "indexed": true}}}"#,
                #"{"name": "Object", "properties": {"new": "int"}}"#
            ),
        ]
        for (old, new) in cases {
            let (path, dir) = try renamed(new, [("Object", "value", "new")], old: old)
            #expect(try column(path, "Object", "new") == [.int(10)], "\(old) -> \(new)")
            #expect(try reopen(path).schema == (try schema(2, new)))
            _ = dir
        }
    }

    @Test func chainedRenameInOneBlock() throws {
        let (path, dir) = try renamed(
            #"{"name": "Object", "properties": {"new": "int"}}"#,
            [("Object", "value", "a"), ("Object", "a", "b"), ("Object", "b", "new")])
        #expect(try column(path, "Object", "new") == [.int(10)])
        _ = dir
    }

    @Test func createAfterRenamingThePrimaryKey() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"),
            try schema(1, #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#)
        ) { db in
            try db.create("Object", ["value": .int(10)])
        }
        try migrate(path, to: try schema(2, #"{"name": "Object", "primaryKey": "new", "properties": {"new": "int"}}"#))
        { migration, _ in
            migration.renameProperty(onType: "Object", from: "value", to: "new")
            migration.create("Object", value: ["new": .int(11)])
        }
        #expect(try column(path, "Object", "new") == [.int(10), .int(11)])
    }

    @Test func renamesAcrossVersionsWithPlans() throws {
        // realm-swift testMultipleMigrationRenameProperty: stringCol0 -> stringCol1 -> stringCol, as two plans.
        let dir = try TemporaryFolder()
        let s0 = try schema(0, #"{"name": "S", "properties": {"stringCol0": "string"}}"#)
        let s1 = try schema(1, #"{"name": "S", "properties": {"stringCol1": "string"}}"#)
        let s2 = try schema(2, #"{"name": "S", "properties": {"stringCol": "string"}}"#)
        let path = try makeDatabase(dir.path("db.porter"), s0) { db in try db.create("S", ["stringCol0": .string("a")])
        }
        let p1 = try MigrationPlan.make(
            from: s0, to: s1,
            renames: RenameSet(properties: [PropertyRename(className: "S", from: "stringCol0", to: "stringCol1")])
        ).plan
        let p2 = try MigrationPlan.make(
            from: s1, to: s2,
            renames: RenameSet(properties: [PropertyRename(className: "S", from: "stringCol1", to: "stringCol")])
        ).plan
        let report = try migrate(path, to: s2, plans: [p2, p1])
        #expect(report.steps.count == 2)
        #expect(try column(path, "S", "stringCol") == [.string("a")])
        #expect(try reopen(path).history().map(\.toVersion) == [1, 2])
    }

    @Test func classRenameMovesObjectsLinksAndMixedValues() throws {
        let dir = try TemporaryFolder()
        let old = try schema(
            1, #"{"name": "Cat", "properties": {"name": "string"}}"#,
            #"{"name": "Owner", "properties": {"pet": "Cat?", "pets": "Cat[]", "any": "mixed", "anyList": "mixed[]"}}"#)
        let path = try makeDatabase(dir.path("db.porter"), old) { db in
            let tom = try db.create("Cat", ["name": .string("tom")])
            let link = Value.link(ObjectLink("Cat", tom))
            try db.create(
                "Owner", ["pet": link, "pets": .list([link]), "any": link, "anyList": .list([link, .int(1)])])
        }
        let new = try schema(
            2, #"{"name": "Kitty", "properties": {"name": "string"}}"#,
            #"{"name": "Owner", "properties": {"pet": "Kitty?", "pets": "Kitty[]", "any": "mixed", "anyList": "mixed[]"}}"#
        )
        expectPorterError(.migrationFailed) { try migrate(path, to: new) }  // Cat would lose its objects
        try migrate(path, to: new, renames: RenameSet(classes: [ClassRename(from: "Cat", to: "Kitty")]))
        let db = try reopen(path)
        let owner = try #require(try db.object("Owner", ObjectKey(1)))
        let kitty = Value.link(ObjectLink("Kitty", ObjectKey(1)))
        #expect(
            owner["pet"] == kitty && owner["pets"] == .list([kitty]) && owner["any"] == kitty
                && owner["anyList"] == .list([kitty, .int(1)]))
        #expect(try db.value("Kitty", ObjectKey(1), "name") == .string("tom"))
    }

    @Test func propertyRenameFromTheCommandLine() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"),
            try schema(1, #"{"name": "Person", "properties": {"name": "string", "tags": "string[]"}}"#)
        ) { db in
            try db.create("Person", ["name": .string("Ann"), "tags": .list([.string("x")])])
        }
        let new = try schema(2, #"{"name": "Person", "properties": {"fullName": "string", "labels": "string[]"}}"#)
        let refused = expectPorterError(.migrationFailed) { try migrate(path, to: new) }
        #expect(
            refused?.details.contains {
                $0.hasPrefix("Property 'Person.name' has been removed.")
                    && $0.contains("1 non-null value would be lost")
            } == true)
        try migrate(
            path, to: new,
            renames: RenameSet(properties: [
                PropertyRename(className: "Person", from: "name", to: "fullName"),
                PropertyRename(className: "Person", from: "tags", to: "labels"),
            ]))
        #expect(try column(path, "Person", "fullName") == [.string("Ann")])
        #expect(try column(path, "Person", "labels") == [.list([.string("x")])])
    }
}
