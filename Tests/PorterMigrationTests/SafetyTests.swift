import Foundation
import Testing
@testable import PorterMigration
import PorterStore
import PorterTestSupport

/// The file is exactly as before after a dry run or a failed migration; backups are consistent
/// copies; history is recorded only by real runs.
@Suite struct SafetyTests {
    let v1 = try! schema(
        1, #"{"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int", "tags": "string[]"}}"#
    )
    let v2 = try! schema(
        2,
        #"{"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "string", "tags": "string[]", "born": "date?"}}"#
    )

    private func file(_ dir: TemporaryFolder, count: Int = 500) throws -> String {
        try makeDatabase(dir.path("db.porter"), v1) { db in
            for i in 0..<count {
                try db.createInBulk(
                    "Dog", ["name": .string("dog\(i)"), "age": .int(Int64(i)), "tags": .list([.string("t\(i)")])])
            }
        }
    }

    /// A reader opened before another connection's migration reads the tables and the schema of
    /// one state: `check` found "column belongs to no property" when the schema read at open met
    /// the tables of the migrated file (a concurrent `import` was refused for it).
    @Test func aReaderOpenedBeforeAMigrationChecksTheMigratedState() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir, count: 20)
        let reader = try Database.open(at: path, readOnly: true)
        #expect(reader.schema.version == 1)
        try migrate(path, to: v2)
        #expect(try reader.checkConsistency() == [])
        #expect(reader.schema.version == 2)
        #expect(try reader.read { try reader.count("Dog") } == 20)
    }

    @Test func dryRunLeavesTheFileBytesUnchanged() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let before = try fileBytes(path)
        let report = try migrate(path, to: v2, options: MigrationOptions(dryRun: true))
        #expect(report.outcome == .dryRun)
        #expect(report.steps.first?.conversions["Dog.age (int -> string)"] == 500)
        #expect(try fileBytes(path) == before)
        let walBytes = FileManager.default.fileExists(atPath: path + "-wal") ? try fileBytes(path + "-wal").count : 0
        #expect(walBytes == 0)
        #expect(try reopen(path).schema == v1)
        #expect(try reopen(path).history().isEmpty)
    }

    @Test func failedChecksRollBackToTheSameBytes() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let before = try fileBytes(path)
        // The block breaks the primary key after all the conversion work is done.
        let error = expectPorterError(.migrationFailed) {
            try migrate(path, to: v2) { migration, _ in
                migration.enumerateObjects(ofType: "Dog") { _, new in new?["name"] = .string("same") }
            }
        }
        #expect(
            error?.message.hasPrefix("Primary key property 'Dog.name' has duplicate values after migration. ") == true,
            "\(String(describing: error?.message))")
        #expect(try fileBytes(path) == before)
        #expect(try column(path, "Dog", "age").first == .int(0))
    }

    @Test func backupIsAConsistentCopyOfTheOldFile() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        let oldChecksum = try dataChecksum(path)
        let report = try migrate(path, to: v2, options: MigrationOptions(backupPath: dir.path("backup.porter")))
        #expect(report.backupPath == dir.path("backup.porter"))
        #expect(try dataChecksum(dir.path("backup.porter")) == oldChecksum)
        #expect(try reopen(path).schema == v2)
        expectPorterError(.io) {
            try migrate(
                path,
                to: try schema(
                    3,
                    #"{"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "string", "tags": "string[]", "born": "date?"}}"#
                ),
                options: MigrationOptions(backupPath: dir.path("backup.porter")))
        }
        #expect(try reopen(path).schemaVersion == 2)
    }

    @Test func migratedFilesPassIntegrityAndOpenWithTheTargetSchema() throws {
        let dir = try TemporaryFolder()
        let path = try file(dir)
        try migrate(path, to: v2)
        let db = try Database.open(at: path, schema: v2)
        #expect(try db.sqliteIntegrityCheck().isEmpty)
        #expect(try db.key("Dog", primaryKey: .string("dog7")) != nil)
        #expect(
            try db.value("Dog", try #require(try db.key("Dog", primaryKey: .string("dog7"))), "tags")
                == .list([.string("t7")]))
        // Unique index is back: a duplicate is refused.
        try db.write {
            expectPorterError(.duplicatePrimaryKey) {
                try db.create("Dog", ["name": .string("dog1"), "age": .string("1")])
            }
        }
    }
}
