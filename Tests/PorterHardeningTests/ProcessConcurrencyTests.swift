import Foundation
import Porter
import Testing
import PorterTestSupport

/// Real processes on one file: a second writer waits for the busy timeout and then fails with a
/// clear "another porter process is writing FILE" error (or proceeds when the lock is released in time), and readers
/// never see a half-done import or migration.
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct ProcessConcurrencyTests {
    /// A database, plus an export folder whose import adds `sourceObjects` items.
    private func setUp(_ dir: TemporaryFolder, baseObjects: Int = 50, sourceObjects: Int = 20) throws -> (
        db: String, export: String
    ) {
        let db = dir.path("shared.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "5", "--objects", String(baseObjects)]).status == 0)
        let source = dir.path("source.porter")
        // Batch 0 ids overlap the base; --mode upsert replaces those and adds the rest.
        #expect(
            try Hardening.writer(["create", source, "--seed", "6", "--objects", String(sourceObjects)]).status == 0)
        #expect(try Hardening.porter(["export", source, "--out", dir.path("export")]).status == 0)
        return (db, dir.path("export"))
    }

    /// Starts a process that holds the write lock (with one uncommitted object) until released.
    private func holdLock(_ db: String, _ dir: TemporaryFolder) throws -> (RunningChild, release: () -> Void) {
        let ready = dir.path("ready"), release = dir.path("release")
        let holder = try RunningChild(Hardening.writer!, ["hold", db, "--ready", ready, "--release", release])
        while !FileManager.default.fileExists(atPath: ready) && holder.isRunning { usleep(5_000) }
        return (holder, { _ = FileManager.default.createFile(atPath: release, contents: Data()) })
    }

    @Test func secondWriterFailsWithBusyAfterItsTimeout() throws {
        let dir = try TemporaryFolder("busy")
        let (db, export) = try setUp(dir)
        let before = try DatabaseState.verify(db)
        let (holder, release) = try holdLock(db, dir)
        #expect(holder.isRunning)
        let importer = try Hardening.porter(["import", db, export, "--mode", "upsert"])
        #expect(importer.status == 1)
        #expect(importer.stderr.contains("another porter process is writing \(db)"), "stderr: \(importer.stderr)")
        #expect(importer.stderr.split(separator: "\n").count == 1, "one clear line, got: \(importer.stderr)")
        // The holder still commits: its object is there, and nothing of the failed import.
        #expect(try DatabaseState.verify(db) == before, "the held transaction is not visible before it commits")
        release()
        #expect(holder.wait().status == 0)
        let after = try Database.open(at: db, readOnly: true)
        #expect(try after.key("Item", primaryKey: .int(900_000_000)) != nil)
        #expect(try after.count("Item") == 51)
        #expect(try after.sqliteIntegrityCheck().isEmpty)
        #expect(try after.checkConsistency().isEmpty)
    }

    @Test func secondWriterWaitsAndProceedsWhenTheLockIsReleasedInTime() throws {
        let dir = try TemporaryFolder("wait")
        let (db, export) = try setUp(dir, baseObjects: 10, sourceObjects: 40)
        let (holder, release) = try holdLock(db, dir)
        let importer = try RunningChild(Hardening.porter!, ["import", db, export, "--mode", "upsert"])
        // Released well within the importer's 5 s busy timeout, whenever it started waiting.
        usleep(300_000)
        release()
        #expect(holder.wait().status == 0)
        let result = importer.wait()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let after = try Database.open(at: db, readOnly: true)
        #expect(try after.count("Item") == 41)
        #expect(try after.checkConsistency().isEmpty)
    }

    @Test func readersSeeTheOldStateUntilAnImportCommits() throws {
        let dir = try TemporaryFolder("readers-import")
        let (db, export) = try setUp(dir, baseObjects: 100, sourceObjects: 1_500)
        let reader = try Database.open(at: db, readOnly: true)
        let importer = try RunningChild(Hardening.porter!, ["import", db, export, "--mode", "upsert"])
        var seen: [Int] = []
        while importer.isRunning {
            seen.append(try reader.count("Item"))
            usleep(20_000)
        }
        #expect(importer.wait().status == 0)
        seen.append(try reader.count("Item"))
        // Only the two committed states, in order: never a partial count.
        #expect(Set(seen).isSubset(of: [100, 1_500]), "observed \(Set(seen).sorted())")
        #expect(seen == seen.sorted())
        #expect(seen.last == 1_500)
        #expect(seen.first == 100, "the first reads happened while the import ran")
    }

    @Test func readersSeeTheOldStateUntilAMigrationCommits() throws {
        let dir = try TemporaryFolder("readers-migrate")
        let db = dir.path("shared.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "8", "--objects", "2000"]).status == 0)
        var v2 = try Database.open(at: db, readOnly: true).schema
        v2.version = 2
        var item = try #require(v2["Item"])
        item.properties = item.properties.map { p in
            var p = p; if p.name == "score" { p.type = .string }; return p
        }
        v2.upsert(item)
        try Data(v2.jsonString().utf8).write(to: URL(fileURLWithPath: dir.path("v2.json")))
        let migrator = try RunningChild(Hardening.porter!, ["migrate", db, "--to", dir.path("v2.json")])
        var versions: [UInt64] = []
        while migrator.isRunning {
            // A fresh reader each time reads the stored schema; its consistency check compares
            // it with the tables in the same snapshot, so a half-migrated view would show.
            let reader = try Database.open(at: db, readOnly: true)
            versions.append(reader.schemaVersion)
            let problems = try reader.checkConsistency()
            #expect(problems.isEmpty, "a reader saw: \(problems.prefix(3))")
            #expect(try reader.count("Item") == 2_000)
        }
        let result = migrator.wait()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        versions.append(try Database.open(at: db, readOnly: true).schemaVersion)
        #expect(Set(versions).isSubset(of: [1, 2]))
        #expect(versions == versions.sorted())
        #expect(versions.last == 2)
    }
}
