import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterStore
import PorterTestSupport

/// Porter's deliberate improvements over Realm: required keeps values, nulls need a fill or fail
/// with their count, conversions keep data, classes leave only through deleteData or a plan,
/// likely renames are reported, data loss is refused with counts before anything is written.
@Suite struct PorterImprovementTests {
    @Test func makingRequiredKeepsValuesAndNullsNeedAFill() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "P", "properties": {"city": "string?", "n": "int?"}}"#)
        ) { db in
            try db.create("P", ["city": .string("Oslo"), "n": .int(1)])
            try db.create("P", ["n": .int(2)])
            try db.create("P", [:])
        }
        let required = try schema(2, #"{"name": "P", "properties": {"city": "string", "n": "int"}}"#)
        let error = expectPorterError(.migrationFailed) { try migrate(path, to: required) }
        #expect(error?.message == "The data blocks this migration (2 problems). Nothing was changed.")
        #expect(
            error?.details == [
                "Property 'P.city' has been made required. 3 objects; 2 nulls need a fill value (--fill)",
                "Property 'P.n' has been made required. 3 objects; 1 null needs a fill value (--fill)",
                "give nulls a value with --fill Class.property=VALUE or a fill operation",
            ])
        #expect(try reopen(path).schemaVersion == 1)
        // With a block that leaves nulls behind, the checks after it catch them.
        let checked = expectPorterError(.migrationFailed) { try migrate(path, to: required) { _, _ in } }
        #expect(checked?.message == "The migrated data fails 2 checks; nothing was changed.")
        #expect(
            checked?.details.first
                == "Property 'P.city' is required but 2 objects have no value (give a fill value: --fill P.city=VALUE or a fill operation): _key 2, _key 3"
        )
        #expect(try reopen(path).schemaVersion == 1)
        let report = try migrate(
            path, to: required,
            options: MigrationOptions(fills: [
                try FillArgument(parsing: "P.city=Unknown"), try FillArgument(parsing: "P.n=0"),
            ]))
        #expect(report.steps.first?.fills == ["P.city": 2, "P.n": 1])
        #expect(try column(path, "P", "city") == [.string("Oslo"), .string("Unknown"), .string("Unknown")])
        #expect(try column(path, "P", "n") == [.int(1), .int(2), .int(0)])
    }

    @Test func newRequiredPropertiesTakeTheFill() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(dir.path("db.porter"), try schema(1, #"{"name": "P", "properties": {"a": "int"}}"#))
        { db in try db.create("P", ["a": .int(1)]) }
        try migrate(
            path, to: try schema(2, #"{"name": "P", "properties": {"a": "int", "status": "string", "score": "int"}}"#),
            options: MigrationOptions(fills: [try FillArgument(parsing: "P.status=active")]))
        #expect(try column(path, "P", "status") == [.string("active")])
        #expect(try column(path, "P", "score") == [.int(0)])
    }

    @Test func classesLeaveOnlyThroughDeleteData() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"),
            try schema(
                1, #"{"name": "Cat", "properties": {"n": "string"}}"#,
                #"{"name": "Dog", "properties": {"n": "string"}}"#)
        ) { db in
            try db.create("Cat", ["n": .string("tom")])
            try db.create("Cat", ["n": .string("kit")])
        }
        let noCats = try schema(2, #"{"name": "Dog", "properties": {"n": "string"}}"#)
        let refused = expectPorterError(.migrationFailed) { try migrate(path, to: noCats) }
        #expect(refused?.details.first == "Class 'Cat' has been removed. 2 objects; all 2 would be deleted")
        // Even a block that ignores the class does not make it go away.
        let ignored = expectPorterError(.migrationFailed) { try migrate(path, to: noCats) { _, _ in } }
        #expect(
            ignored?.message
                == "Class 'Cat' has been removed from the schema but still holds 2 objects. Porter never deletes a class's data silently."
        )
        #expect(try reopen(path).count("Cat") == 2)
        // deleteData in the block, or in a plan, does.
        try migrate(path, to: noCats) { migration, _ in migration.deleteData(forType: "Cat") }
        #expect(try reopen(path).schema["Cat"] == nil)
        // An empty removed class loses nothing and simply goes.
        let dir2 = try TemporaryFolder()
        let path2 = try makeDatabase(
            dir2.path("db.porter"),
            try schema(
                1, #"{"name": "Cat", "properties": {"n": "string"}}"#,
                #"{"name": "Dog", "properties": {"n": "string"}}"#))
        try migrate(path2, to: noCats)
        #expect(try !MigrationStorage(try reopen(path2)).hasTable("Cat"))
    }

    @Test func refusalListsEveryUncoveredLossWithCountsAndWritesNothing() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"),
            try schema(
                1, #"{"name": "D", "properties": {"name": "string", "color": "string?", "blob": "data", "t": "D?"}}"#)
        ) { db in
            try db.create("D", ["name": .string("a"), "color": .string("red"), "blob": .data(Data([1]))])
            try db.create("D", ["name": .string("b"), "blob": .data(Data([2]))])
        }
        let before = try fileBytes(path)
        let new = try schema(2, #"{"name": "D", "properties": {"name": "string", "blob": "int", "t": "D?"}}"#)
        let error = expectPorterError(.migrationFailed) { try migrate(path, to: new) }
        #expect(error?.message.hasPrefix("Refusing to lose data: 2 destructive changes") == true)
        #expect(
            error?.details.prefix(2) == [
                "Property 'D.color' has been removed. 2 objects; 1 non-null value would be lost",
                "Property 'D.blob' has been changed from 'data' to 'int'. 2 objects; 2 non-null values would be lost",
            ])
        #expect(try fileBytes(path) == before)
        let report = try migrate(path, to: new, options: MigrationOptions(allowDataLoss: true))
        #expect(report.steps.first?.discardedProperties.sorted() == ["D.blob", "D.color"])
        #expect(try column(path, "D", "blob") == [.int(0), .int(0)])
    }

    @Test func conversionsKeepDataWhereRealmWouldResetIt() throws {
        let dir = try TemporaryFolder()
        let path = try makeDatabase(
            dir.path("db.porter"), try schema(1, #"{"name": "Dog", "properties": {"age": "int"}}"#)
        ) { db in
            try db.create("Dog", ["age": .int(3)])
        }
        try migrate(path, to: try schema(2, #"{"name": "Dog", "properties": {"age": "string"}}"#))
        #expect(try column(path, "Dog", "age") == [.string("3")])
    }
}
