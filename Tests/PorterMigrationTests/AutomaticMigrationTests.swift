import Foundation
import Testing
@testable import PorterMigration
import PorterModel
import PorterStore
import PorterTestSupport

/// realm-core `migrations.cpp` "migration: Automatic", adapted: the same version allows only
/// automatic changes; every other change fails with Realm's message and succeeds at a higher version.
@Suite struct AutomaticMigrationTests {
    let object = #"{"name": "Object", "properties": {"value": "int", "optional": "int?"}}"#

    /// s1 at v0 works; s2 at v0 fails with `message`; the file keeps s1; s2 at v1 works.
    private func requireMigration(
        _ s1: [String], _ s2: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        let first = try Schema(jsonString: #"{"schemaVersion": 0, "classes": [\#(s1.joined(separator: ","))]}"#)
        let second = try Schema(jsonString: #"{"schemaVersion": 0, "classes": [\#(s2.joined(separator: ","))]}"#)
        try makeDatabase(path, first)
        let error = expectPorterError(.migrationRequired, sourceLocation: sourceLocation) {
            try migrate(path, to: second)
        }
        #expect(error?.message == "Migration is required due to the following errors:", sourceLocation: sourceLocation)
        #expect(error?.details.contains(message) == true, "\(error?.details ?? [])", sourceLocation: sourceLocation)
        #expect(try reopen(path).schema == first, sourceLocation: sourceLocation)
        var bumped = second
        bumped.version = 1
        let report = try migrate(path, to: bumped)
        #expect(report.outcome == .migrated, sourceLocation: sourceLocation)
        #expect(try reopen(path).schema == bumped, sourceLocation: sourceLocation)
    }

    /// s1 then s2, both at v0, both work.
    private func noMigrationNeeded(_ s1: [String], _ s2: [String], sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        try makeDatabase(path, try Schema(jsonString: #"{"classes": [\#(s1.joined(separator: ","))]}"#))
        let second = try Schema(jsonString: #"{"classes": [\#(s2.joined(separator: ","))]}"#)
        let report = try migrate(path, to: second)
        #expect([.automatic, .upToDate].contains(report.outcome), sourceLocation: sourceLocation)
        #expect(try reopen(path).schema == second, sourceLocation: sourceLocation)
        #expect(try reopen(path).history().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func noMigrationRequired() throws {
        try noMigrationNeeded([object], [object, #"{"name": "object2", "properties": {"v": "int"}}"#])
        try noMigrationNeeded(
            [object],
            [
                object, #"{"name": "parent", "properties": {"e": "emb?", "es": "emb2[]"}}"#,
                #"{"name": "emb", "embedded": true, "properties": {"v": "int"}}"#,
                #"{"name": "emb2", "embedded": true, "properties": {"v": "int"}}"#,
            ])
        try noMigrationNeeded(
            [object],
            [#"{"name": "Object", "properties": {"value": {"type": "int", "indexed": true}, "optional": "int?"}}"#])
        try noMigrationNeeded(
            [#"{"name": "Object", "properties": {"value": {"type": "int", "indexed": true}, "optional": "int?"}}"#],
            [object])
        try noMigrationNeeded([object], [#"{"name": "Object", "properties": {"optional": "int?", "value": "int"}}"#])
    }

    @Test func migrationRequiredMessages() throws {
        try requireMigration(
            [object], [#"{"name": "Object", "properties": {"value": "int", "optional": "int?", "col2": "int"}}"#],
            "Property 'Object.col2' has been added.")
        try requireMigration(
            [object], [#"{"name": "Object", "properties": {"value": "int"}}"#],
            "Property 'Object.optional' has been removed.")
        try requireMigration(
            [object], [#"{"name": "Object", "properties": {"value": "float", "optional": "int?"}}"#],
            "Property 'Object.value' has been changed from 'int' to 'float'.")
        try requireMigration(
            [object], [#"{"name": "Object", "properties": {"value": "int?", "optional": "int?"}}"#],
            "Property 'Object.value' has been made optional.")
        try requireMigration(
            [object], [#"{"name": "Object", "properties": {"value": "int", "optional": "int"}}"#],
            "Property 'Object.optional' has been made required.")
        try requireMigration(
            [object],
            [#"{"name": "Object", "primaryKey": "value", "properties": {"value": "int", "optional": "int?"}}"#],
            "Primary Key for class 'Object' has been added.")
        try requireMigration(
            [#"{"name": "Object", "primaryKey": "value", "properties": {"value": "int", "optional": "int?"}}"#],
            [object], "Primary Key for class 'Object' has been removed.")
        let t1 = #"{"name": "target 1", "properties": {"v": "int"}}"#,
            t2 = #"{"name": "target 2", "properties": {"v": "int"}}"#
        try requireMigration(
            [t1, t2, #"{"name": "origin", "properties": {"value": "target 1?"}}"#],
            [t1, t2, #"{"name": "origin", "properties": {"value": "target 2?"}}"#],
            "Property 'origin.value' has been changed from '<target 1>' to '<target 2>'.")
        let parent = #"{"name": "parent", "properties": {"child": "Object?"}}"#
        try requireMigration(
            [parent, #"{"name": "Object", "embedded": true, "properties": {"value": "int"}}"#],
            [parent, #"{"name": "Object", "properties": {"value": "int"}}"#],
            "Class 'Object' has been changed from Embedded to TopLevel.")
        try requireMigration(
            [parent, #"{"name": "Object", "properties": {"value": "int"}}"#],
            [parent, #"{"name": "Object", "embedded": true, "properties": {"value": "int"}}"#],
            "Class 'Object' has been changed from TopLevel to Embedded.")
    }

    @Test func addingColumnAndTableInSameMigrationAddsNoDuplicates() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(0, object))
        let v1 = try schema(
            1, #"{"name": "Object", "properties": {"value": "int", "optional": "int?", "col2": "int"}}"#,
            #"{"name": "new table", "properties": {"value": "int"}}"#,
            #"{"name": "holder", "properties": {"e": "emb?"}}"#,
            #"{"name": "emb", "embedded": true, "properties": {"v": "int"}}"#)
        try migrate(path, to: v1)
        let db = try reopen(path)
        #expect(try MigrationStorage(db).columns("new table") == ["value"])
        #expect(try MigrationStorage(db).columns("Object") == ["value", "optional", "col2"])
    }

    @Test func blockIsNotCalledForCreationOrUnchangedVersion() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("db.porter")
        let calls = Box(0)
        let block: MigrationBlock = { _, _ in calls.value += 1 }
        #expect(try migrate(path, to: try schema(5, object), block: block).outcome == .created)
        #expect(
            try migrate(
                path, to: try schema(5, object, #"{"name": "added", "properties": {"v": "int"}}"#), block: block
            ).outcome == .automatic)
        #expect(calls.value == 0)
        let versions = Box<[UInt64]>([])
        try migrate(path, to: try schema(6, object, #"{"name": "added", "properties": {"v": "int"}}"#)) { _, old in
            versions.value.append(old)
        }
        #expect(versions.value == [5])
        #expect(try reopen(path).schemaVersion == 6)
    }

    @Test func schemaVersionCannotGoDown() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(2, object))
        let error = expectPorterError(.migrationRequired) { try migrate(path, to: try schema(0, object)) }
        #expect(error?.message == "Provided schema version 0 is less than last set version 2.")
        #expect(try reopen(path).schemaVersion == 2)
    }

    @Test func duplicatePrimaryKeysCreatedInTheBlockFail() throws {
        let dir = try TemporaryFolder()
        let keyed = #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, keyed))
        let before = try dataChecksum(path)
        let error = expectPorterError(.migrationFailed) {
            try migrate(path, to: try schema(2, keyed)) { migration, _ in
                migration.create("Object", value: ["value": .int(1)])
                let second = migration.create("Object", value: ["value": .int(2)])
                second["value"] = .int(1)
            }
        }
        #expect(
            error?.message.hasPrefix("Primary key property 'Object.value' has duplicate values after migration. ")
                == true, "\(String(describing: error?.message))")
        #expect(try dataChecksum(path) == before)
    }

    @Test func addingPrimaryKeyToDuplicatesFails() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "Object", "properties": {"value": "int"}}"#)
        ) { db in
            try db.create("Object", [:])
            try db.create("Object", [:])
        }
        let error = expectPorterError(.migrationFailed) {
            try migrate(
                path, to: try schema(2, #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#))
        }
        #expect(
            error?.message.hasPrefix("Primary key property 'Object.value' has duplicate values after migration. ")
                == true, "\(String(describing: error?.message))")
        #expect(error?.message.hasSuffix(" 1 duplicate value: 0 (2 objects)") == true)
        // realm-swift testAddingPrimaryKeyShouldRejectDuplicateValues: the block deletes one of them.
        try migrate(
            path, to: try schema(2, #"{"name": "Object", "primaryKey": "value", "properties": {"value": "int"}}"#)
        ) { migration, _ in
            var seen = false
            migration.enumerateObjects(ofType: "Object") { _, new in
                if seen, let new { migration.delete(new) }
                seen = true
            }
        }
        #expect(try reopen(path).count("Object") == 1)
    }

    @Test func throwingFromTheBlockRollsEverythingBack() throws {
        struct Five: Error {}
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, object))
        #expect(throws: Five.self) {
            try migrate(path, to: try schema(2, object)) { migration, _ in
                migration.create("Object", value: ["value": .int(5)])
                throw Five()
            }
        }
        let db = try reopen(path)
        #expect(try db.count("Object") == 0)
        #expect(db.schemaVersion == 1)
        #expect(try db.history().isEmpty)
    }

    @Test func valuesSurviveTypeAndNullabilityChanges() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "Object", "properties": {"value": "int", "opt": "int?"}}"#)
        ) { db in
            for i in 0..<10 { try db.create("Object", ["value": .int(Int64(i)), "opt": .int(Int64(i))]) }
        }
        // "changing all columns does not lose row count" — and, with a conversion, no value either.
        try migrate(path, to: try schema(2, #"{"name": "Object", "properties": {"value": "float", "opt": "int?"}}"#))
        #expect(try column(path, "Object", "value") == (0..<10).map { .float(Float($0)) })
        // "values for required properties are copied when converting to nullable"
        try migrate(path, to: try schema(3, #"{"name": "Object", "properties": {"value": "float?", "opt": "int?"}}"#))
        #expect(try column(path, "Object", "value") == (0..<10).map { .float(Float($0)) })
        // Porter keeps non-null values when a property becomes required (realm-core resets them to 0).
        try migrate(path, to: try schema(4, #"{"name": "Object", "properties": {"value": "float?", "opt": "int"}}"#))
        #expect(try column(path, "Object", "opt") == (0..<10).map { .int(Int64($0)) })
    }
}
