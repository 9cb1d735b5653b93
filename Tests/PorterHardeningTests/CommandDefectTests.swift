import Foundation
import Porter
import Testing
import PorterTestSupport

/// Defects found by trying Porter as an attacker would, each with its failing input: argument
/// errors exit 64, `plan` reads encrypted Realm files, a fill obeys the 16 MB limit, migrating a
/// synced Realm file asks before dropping its sync history.
@Suite(.enabled(if: Hardening.binariesBuilt, "needs the built porter (swift build)"))
struct CommandDefectTests {
    static let migration = Hardening.fixtures.appendingPathComponent("migration")
    static let realmFiles = Hardening.packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/realm-files")

    @Test(arguments: [
        ["import", "x.porter", "a.json", "--encryption-key", "abc"],
        ["import", "x.porter", "-"],
        ["import", "x.porter", "a.json", "--mode", "sideways"],
        ["import", "x.porter"],
        ["export", "x.porter", "--out", "-"],
        ["export", "x.porter"],
        ["export", "x.porter", "--out", "o", "--archive", "a"],
        ["export", "x.porter", "--format", "bson", "--array", "--out", "o"],
        ["export", "x.porter", "--format", "realm", "--out", "o.realm", "--gzip"],
        ["export", "x.porter", "--format", "realm", "--out", "o.realm", "--out-encryption-key", "00"],
        ["create", "x.porter", "--schema", "s.json", "--encryption-key", String(repeating: "0", count: 128)],
        ["create", "x.realm", "--schema", "s.json", "--format", "realm", "--encryption-key", "0"],
        ["create", "x.porter", "--schema", "s.json", "--format", "sqlite"],
        ["inspect", "x.realm", "--encryption-key", "zz"],
        ["migrate", "x.porter", "--to", "s.json", "--wait", "-1"],
    ])
    func argumentErrorsExit64(_ args: [String]) throws {
        let result = try Hardening.porter(args)
        #expect(result.status == 64, "\(args): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
    }

    @Test func planReadsAnEncryptedRealmFile() throws {
        let realm = Hardening.fixtures.appendingPathComponent("realm/every-type-encrypted.realm").path
        // The fixture's key: bytes 100…163.
        let key = (100...163).map { String(format: "%02x", $0) }.joined()
        let dir = try TemporaryFolder("plan-key")
        let schema = dir.path("new.json")
        let stored = try Hardening.porter(["schema", realm, "--encryption-key", key])
        #expect(stored.status == 0, "\(stored.stderr)")
        try stored.stdout.write(toFile: schema, atomically: true, encoding: .utf8)
        let plan = try Hardening.porter(["plan", realm, schema, "--encryption-key", key])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("porter-migration-plan"))
        let without = try Hardening.porter(["plan", realm, schema])
        #expect(without.status == 1)
    }

    @Test func aFillOverTheValueLimitIsRefused() throws {
        let dir = try TemporaryFolder("big-fill")
        let db = try dir.copyDatabase(Self.migration.appendingPathComponent("v1.porter").path, to: "app.porter")
        let plan = try String(
            contentsOfFile: Self.migration.appendingPathComponent("v1-to-v2.plan.json").path, encoding: .utf8)
        let big = String(repeating: "x", count: 17 * 1024 * 1024)
        try plan.replacingOccurrences(of: "\"value\": \"Unknown\"", with: "\"value\": \"\(big)\"")
            .write(toFile: dir.path("big.plan.json"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let result = try Hardening.porter([
            "migrate", db, "--to", Self.migration.appendingPathComponent("v2.json").path,
            "--plan", dir.path("big.plan.json"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("exceeds the 16 MB limit"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("Person.city"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test func pipesAndFIFOsAreReadOnceAsStreams() throws {
        let dir = try TemporaryFolder("fifo")
        let lines = (1...5).map {
            "{\"_id\": {\"$oid\": \"\(String(format: "%024x", 0xf1f0 + $0))\"}, \"name\": \"d\($0)\", \"vaccinated\": true}"
        }
        try lines.joined(separator: "\n").write(toFile: dir.path("dogs.json"), atomically: true, encoding: .utf8)
        // A named FIFO (it used to hang) and /dev/stdin (it used to import 0 documents), format by content.
        let fifo = dir.path("dogs.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let db = try dir.copyDatabase(Self.migration.appendingPathComponent("v1.porter").path, to: "a.porter")
        let feeder = try RunningChild("/bin/sh", ["-c", "cat '\(dir.path("dogs.json"))' > '\(fifo)'"])
        let viaFIFO = try RunningChild.run(
            Hardening.porter!, ["import", db, fifo, "--class", "Dog", "--fill-missing", "--quiet"], timeout: 60)
        _ = feeder.wait(timeout: 5)
        #expect(viaFIFO.status == 0, "\(viaFIFO.stderr)")
        #expect(viaFIFO.stdout.contains("Imported 5 documents (Dog 5)"), "\(viaFIFO.stdout)")
        let db2 = try dir.copyDatabase(Self.migration.appendingPathComponent("v1.porter").path, to: "b.porter")
        // Standard input a pipe, named /dev/stdin.
        let pipe = dir.path("stdin.fifo")
        #expect(mkfifo(pipe, 0o600) == 0)
        let stdinFeeder = try RunningChild("/bin/sh", ["-c", "cat '\(dir.path("dogs.json"))' > '\(pipe)'"])
        let viaStdin = try RunningChild.run(
            Hardening.porter!, ["import", db2, "/dev/stdin", "--class", "Dog", "--fill-missing", "--quiet"],
            stdinPath: pipe, timeout: 60)
        _ = stdinFeeder.wait(timeout: 5)
        #expect(viaStdin.status == 0, "\(viaStdin.stderr)")
        #expect(viaStdin.stdout.contains("Imported 5 documents (Dog 5)"), "\(viaStdin.stdout)")
    }

    @Test func theBackupOfASparseRealmFileIsSparse() throws {
        let dir = try TemporaryFolder("sparse")
        let realm = dir.path("app.realm")
        #expect(
            try Hardening.porter([
                "export", Self.migration.appendingPathComponent("v1.porter").path, "--format", "realm",
                "--out", realm,
            ]).status == 0)
        // 64 MiB of hole after the data: a file realm-core preallocated, say.
        #expect(truncate(realm, 64 << 20) == 0)
        let v1 = try String(contentsOfFile: Self.migration.appendingPathComponent("v1.json").path, encoding: .utf8)
        try v1.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2")
            .replacingOccurrences(
                of: "\"vaccinated\": \"bool\"", with: "\"vaccinated\": \"bool\", \"nick\": \"string?\""
            )
            .write(toFile: dir.path("v1b.json"), atomically: true, encoding: .utf8)
        let backup = dir.path("backup.realm")
        let result = try Hardening.porter(["migrate", realm, "--to", dir.path("v1b.json"), "--backup", backup])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat(backup, &info) == 0)
        #expect(info.st_size == 64 << 20)
        #expect(Int(info.st_blocks) * 512 < 1 << 20, "allocated \(Int(info.st_blocks) * 512) bytes of \(info.st_size)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: realmFiles.path), "needs ../shared/realm-files"))
    func migratingASyncedRealmFileAsksBeforeDroppingItsHistory() throws {
        let dir = try TemporaryFolder("sync-history")
        let realm = dir.path("synced.realm")
        try FileManager.default.copyItem(
            atPath: Self.realmFiles.appendingPathComponent("core-sync-client-history-011.realm").path,
            toPath: realm)
        let before = try Data(contentsOf: URL(fileURLWithPath: realm))
        let schema = dir.path("s.json")
        let stored = try Hardening.porter(["schema", realm])
        try stored.stdout.replacingOccurrences(of: "\"schemaVersion\" : 0", with: "\"schemaVersion\" : 1")
            .replacingOccurrences(of: "\"schemaVersion\": 0", with: "\"schemaVersion\": 1")
            .write(toFile: schema, atomically: true, encoding: .utf8)
        let refused = try Hardening.porter(["migrate", realm, "--to", schema])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("sync history") && refused.stderr.contains("--drop-sync-history"),
            "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == before)
        let accepted = try Hardening.porter(["migrate", realm, "--to", schema, "--drop-sync-history"])
        #expect(accepted.stderr.contains("warning"), "\(accepted.stderr)")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try Hardening.porter(["inspect", realm]).stdout.contains("History: none"))
    }
}
