import Foundation
import Testing
@testable import PorterMigration
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// A `porter migrate` killed with SIGKILL at any moment leaves the file fully old or fully new.
@Suite struct KillTests {
    /// The `porter` executable next to the test bundle (`swift build` puts both in one folder).
    static let porter: URL? = PorterExecutable.url

    @Test(.enabled(if: KillTests.porter != nil, "needs the built porter binary (swift build --product porter)"))
    func killDuringMigrateLeavesOldOrNew() throws {
        let dir = try TemporaryFolder()
        let v1 = try schema(
            1,
            #"{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "count": "int", "label": "string", "tags": "string[]"}}"#
        )
        let v2 = try schema(
            2,
            #"{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "count": "string", "title": "string", "tags": "string[]", "note": "string?"}}"#
        )
        // 100,000 objects written with SQL in the store's encoding (ints and strings are native), so
        // the setup takes a moment even in debug builds.
        let original = try makeDatabase(dir.path("original.porter"), v1) { db in
            try db.connection.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
                INSERT INTO "class_Item" (_key, id, count, label) SELECT i + 1, i, i * 7, 'item ' || i FROM n;
                INSERT INTO "class_Item.tags" (_owner, _pos, value) SELECT _key, 0, 'a' FROM "class_Item";
                INSERT INTO "class_Item.tags" (_owner, _pos, value) SELECT _key, 1, 'b' FROM "class_Item";
                """)
        }
        #expect(try reopen(original).count("Item") == 100_000)
        #expect(try reopen(original).value("Item", ObjectKey(8), "tags") == .list([.string("a"), .string("b")]))
        let schemaPath = dir.path("v2.json")
        try Data(v2.jsonString().utf8).write(to: URL(fileURLWithPath: schemaPath))
        let oldChecksum = try dataChecksum(original)
        // The fully migrated state, from an undisturbed run of the same command.
        let reference = dir.path("reference.porter")
        try FileManager.default.copyItem(atPath: original, toPath: reference)
        let done = try run(reference, schemaPath, killAfter: nil)
        #expect(done == 0)
        let newChecksum = try dataChecksum(reference)
        #expect(newChecksum != oldChecksum)

        var killedMidRun = 0
        var outcomes: [String] = []
        for (round, delay) in [0.05, 0.1, 0.2, 0.35, 0.5, 0.7].enumerated() {
            let path = dir.path("victim\(round).porter")
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let status = try run(path, schemaPath, killAfter: delay)
            if status == nil { killedMidRun += 1 }
            let checksum = try dataChecksum(path)
            #expect(
                checksum == oldChecksum || checksum == newChecksum,
                "round \(round): the file is neither the old nor the new state")
            #expect(try reopen(path).sqliteIntegrityCheck().isEmpty)
            outcomes.append(checksum == oldChecksum ? "old" : "new")
        }
        #expect(killedMidRun > 0, "no run was killed before it finished (\(outcomes))")
        #expect(outcomes.contains("old"))
    }

    /// Runs `porter migrate PATH --to SCHEMA --rename Item.label=title`; kills it with SIGKILL after
    /// `killAfter` seconds. Returns the exit status, or nil when it was killed while running.
    private func run(_ path: String, _ schemaPath: String, killAfter: Double?) throws -> Int32? {
        let process = Process()
        process.executableURL = KillTests.porter
        process.arguments = ["migrate", path, "--to", schemaPath, "--rename", "Item.label=title"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let killAfter else {
            process.waitUntilExit()
            return process.terminationStatus
        }
        Thread.sleep(forTimeInterval: killAfter)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal ? nil : process.terminationStatus
    }
}
