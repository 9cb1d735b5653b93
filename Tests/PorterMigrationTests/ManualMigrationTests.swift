import Foundation
import Testing
@testable import PorterMigration
import PorterModel
import PorterTestSupport

/// realm-core `migrations.cpp` "migration: Manual", adapted: a change without a version bump fails
/// with Realm's message and leaves the version; with a bump and a block doing the work, it works.
@Suite struct ManualMigrationTests {
    let object =
        #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int", "optional": "int?"}}"#
    let linkOrigin =
        #"{"name": "link origin", "properties": {"not a pk": "int", "object": "Object?", "array": "Object[]"}}"#

    private func check(
        _ changed: [String], _ message: String, block: MigrationBlock? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(0, object, linkOrigin)) { db in
            let o = try db.create("Object", ["pk": .int(1), "value": .int(10), "optional": .int(5)])
            try db.create(
                "link origin",
                [
                    "not a pk": .int(1), "object": .link(ObjectLink("Object", o)),
                    "array": .list([.link(ObjectLink("Object", o))]),
                ])
        }
        let same = try Schema(jsonString: #"{"schemaVersion": 0, "classes": [\#(changed.joined(separator: ","))]}"#)
        let error = expectPorterError(.migrationRequired, sourceLocation: sourceLocation) {
            try migrate(path, to: same)
        }
        #expect(error?.details.contains(message) == true, "\(error?.details ?? [])", sourceLocation: sourceLocation)
        #expect(try reopen(path).schemaVersion == 0, sourceLocation: sourceLocation)
        var bumped = same
        bumped.version = 1
        try migrate(path, to: bumped, options: MigrationOptions(allowDataLoss: true), block: block ?? { _, _ in })
        #expect(try reopen(path).schema == bumped, sourceLocation: sourceLocation)
    }

    @Test func everyManualChange() throws {
        try check(
            [
                #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int", "optional": "int?", "new": "int"}}"#,
                linkOrigin,
            ], "Property 'Object.new' has been added.")
        try check(
            [#"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "optional": "int?"}}"#, linkOrigin],
            "Property 'Object.value' has been removed.")
        try check(
            [
                object,
                #"{"name": "link origin", "primaryKey": "not a pk", "properties": {"not a pk": "int", "object": "Object?", "array": "Object[]"}}"#,
            ],
            "Primary Key for class 'link origin' has been added.")
        try check(
            [#"{"name": "Object", "properties": {"pk": "int", "value": "int", "optional": "int?"}}"#, linkOrigin],
            "Primary Key for class 'Object' has been removed.")
        try check(
            [
                #"{"name": "Object", "primaryKey": "value", "properties": {"pk": "int", "value": "int", "optional": "int?"}}"#,
                linkOrigin,
            ],
            "Primary Key for class 'Object' has changed from 'pk' to 'value'.")
        try check(
            [
                #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": {"type": "date", "indexed": true}, "optional": "int?"}}"#,
                linkOrigin,
            ],
            "Property 'Object.value' has been changed from 'int' to 'date'."
        ) { migration, _ in
            migration.enumerateObjects(ofType: "Object") { old, new in
                new?["value"] = .date(
                    Timestamp(
                        microseconds: (old?["value"].flatMap {
                            if case .int(let i) = $0 { return i } else { return nil }
                        } ?? 0) * 1_000_000))
            }
        }
        try check(
            [
                object,
                #"{"name": "link origin", "properties": {"not a pk": "int", "object": "link origin?", "array": "Object[]"}}"#,
            ],
            "Property 'link origin.object' has been changed from '<Object>' to '<link origin>'.")
        try check(
            [
                object,
                #"{"name": "link origin", "properties": {"not a pk": "int", "object": "Object?", "array": "link origin[]"}}"#,
            ],
            "Property 'link origin.array' has been changed from 'array<Object>' to 'array<link origin>'.")
        try check(
            [
                #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int?", "optional": "int?"}}"#,
                linkOrigin,
            ], "Property 'Object.value' has been made optional.")
        try check(
            [
                #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int", "optional": "int"}}"#,
                linkOrigin,
            ], "Property 'Object.optional' has been made required.")
    }

    /// realm-core's Manual mode reports these too; Porter, like its automatic mode, applies them
    /// at the same version.
    @Test func addedClassesAndIndexesNeedNoBump() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(0, object, linkOrigin))
        let same = try schema(
            0,
            #"{"name": "Object", "primaryKey": "pk", "properties": {"pk": "int", "value": "int", "optional": {"type": "int?", "indexed": true}}}"#,
            linkOrigin, #"{"name": "new table", "properties": {"value": "int"}}"#)
        #expect(try migrate(path, to: same).outcome == .automatic)
        #expect(try reopen(path).schema == same)
    }

    @Test func reorderingAndVersionRules() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, object, linkOrigin))
        let outcome = try migrate(
            path,
            to: try schema(
                1,
                #"{"name": "Object", "primaryKey": "pk", "properties": {"optional": "int?", "value": "int", "pk": "int"}}"#,
                linkOrigin)
        ).outcome
        #expect([.upToDate, .automatic].contains(outcome))
        #expect(try reopen(path).history().isEmpty)
        let error = expectPorterError(.migrationRequired) { try migrate(path, to: try schema(0, object, linkOrigin)) }
        #expect(error?.message == "Provided schema version 0 is less than last set version 1.")
        #expect(try reopen(path).schemaVersion == 1)
    }
}
