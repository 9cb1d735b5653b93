import Foundation
import Testing
@testable import PorterMigration
import PorterDiff
import PorterModel
import PorterStore
import PorterTestSupport

/// Plans applied by the runtime: single plans, chains in version order, checksums, history.
@Suite struct PlanRuntimeTests {
    let v1 = try! schema(1, #"{"name": "Person", "properties": {"name": "string", "age": "int", "city": "string?"}}"#)
    let v2 = try! schema(
        2, #"{"name": "Person", "properties": {"fullName": "string", "age": "string", "city": "string"}}"#)
    let v3 = try! schema(
        3,
        #"{"name": "Person", "primaryKey": "fullName", "properties": {"fullName": "string", "age": "string", "city": "string", "email": "string?"}}"#,
        #"{"name": "Pet", "properties": {"name": "string"}}"#)

    private func file(_ dir: TemporaryFolder) throws -> String {
        try makeDatabase(dir.path("db.porter"), v1) { db in
            try db.create("Person", ["name": .string("Ann"), "age": .int(30), "city": .string("Oslo")])
            try db.create("Person", ["name": .string("Bob"), "age": .int(40)])
        }
    }

    private func plan12() throws -> MigrationPlan {
        try MigrationPlan.make(
            from: v1, to: v2,
            renames: RenameSet(properties: [PropertyRename(className: "Person", from: "name", to: "fullName")]),
            fills: [try FillArgument(parsing: "Person.city=Unknown")]
        ).plan
    }

    @Test func aPlanMigratesAndIsRecorded() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let plan = try plan12()
        let report = try migrate(path, to: v2, plans: [plan])
        #expect(report.outcome == .migrated)
        #expect(report.steps.count == 1)
        #expect(report.steps[0].renames == ["Person.name -> fullName"])
        #expect(try column(path, "Person", "fullName") == [.string("Ann"), .string("Bob")])
        #expect(try column(path, "Person", "age") == [.string("30"), .string("40")])
        #expect(try column(path, "Person", "city") == [.string("Oslo"), .string("Unknown")])
        let history = try reopen(path).history()
        #expect(history.count == 1)
        #expect(history[0].fromVersion == 1 && history[0].toVersion == 2)
        #expect(history[0].planChecksum == plan.checksum)
        #expect(history[0].porterVersion == Database.porterVersion)
        #expect(history[0].summary.contains("renamed Person.name -> fullName"))
        #expect(report.text.contains("migrated from schema version 1 to 2"))
    }

    @Test func plansChainInVersionOrder() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let plan23 = try MigrationPlan.make(from: v2, to: v3).plan
        let report = try migrate(path, to: v3, plans: [plan23, try plan12()])
        #expect(report.steps.map(\.toVersion) == [2, 3])
        #expect(try reopen(path).schema == v3)
        #expect(try reopen(path).history().map(\.planChecksum) == [try plan12().checksum, plan23.checksum])
        // A file already at v2 skips the first plan.
        let path2 = try file(TemporaryFolder())
        _ = path2
        let dir3 = try TemporaryFolder()
        let at2 = try makeDatabase(dir3.path("db.porter"), v2) { db in
            try db.create("Person", ["fullName": .string("Cy"), "age": .string("1"), "city": .string("x")])
        }
        #expect(try migrate(at2, to: v3, plans: [try plan12(), plan23]).steps.count == 1)
    }

    @Test func brokenChainsAndForeignPlansAreRefused() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let plan23 = try MigrationPlan.make(from: v2, to: v3).plan
        let gap = expectPorterError(.migrationFailed) { try migrate(path, to: v3, plans: [plan23]) }
        #expect(gap?.message.hasPrefix("no plan goes from schema version 1 to 2") == true)
        var edited = try plan12()
        edited.oldSchemaChecksum = v2.sha256Checksum
        let foreign = expectPorterError(.migrationFailed) { try migrate(path, to: v2, plans: [edited]) }
        #expect(foreign?.message.hasPrefix("the plan was made for another schema") == true)
        #expect(try reopen(path).schemaVersion == 1)
    }

    @Test func planAndTargetMayDifferByAFinalImplicitStep() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        var v2b = v2
        v2b.version = 3
        v2b.upsert(ObjectSchema(name: "Tag", properties: [Property(name: "t", type: .string)]))
        let report = try migrate(path, to: v2b, plans: [try plan12()])
        #expect(report.steps.count == 2)
        #expect(try reopen(path).schema == v2b)
    }

    @Test func deleteDataOperationsCoverRemovals() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let slim = try schema(2, #"{"name": "Person", "properties": {"name": "string", "age": "int"}}"#)
        let (uncovered, warnings) = try MigrationPlan.make(from: v1, to: slim)
        #expect(warnings.count == 1)
        let refused = expectPorterError(.migrationFailed) { try migrate(path, to: slim, plans: [uncovered]) }
        #expect(
            refused?.details.first
                == "Property 'Person.city' has been removed. 2 objects; 1 non-null value would be lost")
        let covered = try MigrationPlan.make(from: v1, to: slim, allowDataLoss: true).plan
        try migrate(path, to: slim, plans: [covered])
        #expect(try reopen(path).schema == slim)
    }

    @Test func planFilesRoundTripThroughDisk() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let planPath = dir.path("plan.json")
        try Data(try plan12().jsonString().utf8).write(to: URL(fileURLWithPath: planPath))
        try migrate(path, to: v2, plans: [try MigrationPlan(contentsOfFile: planPath)])
        #expect(try reopen(path).schema == v2)
    }
}
