import Foundation
import Porter
import Testing
import PorterTestSupport

/// A read-only database file, or a database in a read-only folder: writing commands fail with a
/// clear error and change nothing; reading commands still work.
///
/// Permissions mean nothing to root, so as root the commands run as user `nobody` (65534)
/// through `setpriv`; without it (and as root) the suite is skipped.
@Suite(
    .serialized,
    .enabled(
        if: Hardening.binariesBuilt && Unprivileged.available, "needs the built binaries, and setpriv when run as root")
)
struct ReadOnlyTests {
    /// Runs porter as an unprivileged user.
    private func porter(_ args: [String]) throws -> ChildResult {
        guard geteuid() == 0, let setpriv = Unprivileged.setpriv else { return try Hardening.porter(args) }
        return try RunningChild.run(
            setpriv,
            ["--reuid=\(Unprivileged.nobody)", "--regid=\(Unprivileged.nobody)", "--clear-groups", Hardening.porter!]
                + args)
    }

    /// Gives a path to the unprivileged user (as root); a no-op otherwise.
    private func handOver(_ path: String) {
        if geteuid() == 0 { chown(path, Unprivileged.nobody, gid_t(Unprivileged.nobody)) }
    }

    /// A folder owned by the test user holding a database and an export to import.
    private func setUp(_ label: String) throws -> (dir: TemporaryFolder, folder: String, db: String, export: String) {
        let dir = try TemporaryFolder(label)
        chmod(dir.path, 0o755)
        let folder = dir.path("data")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/app.porter"
        #expect(try Hardening.writer(["create", db, "--seed", "4", "--objects", "100"]).status == 0)
        let source = dir.path("source.porter")
        #expect(try Hardening.writer(["create", source, "--seed", "5", "--objects", "20"]).status == 0)
        #expect(try Hardening.porter(["export", source, "--out", dir.path("export")]).status == 0)
        for path in [dir.path, folder, db, dir.path("export")] { handOver(path) }
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path("export")) {
            handOver(dir.path("export/" + name))
        }
        return (dir, folder, db, dir.path("export"))
    }

    /// Calls `lock` to take write permission away, then: writing commands fail with `phrase`,
    /// reading ones work, the data is unchanged.
    private func check(
        _ db: String, _ dir: TemporaryFolder, export: String, phrase: String,
        sideFilesImpossible: Bool = false, lock: () -> Void
    ) throws {
        let before = try DatabaseState.digest(at: db)
        let v2 = dir.path("v2.json")
        var schema = try Database.open(at: db, readOnly: true).schema
        schema.version = 2
        try Data(schema.jsonString().utf8).write(to: URL(fileURLWithPath: v2))
        handOver(v2)
        // The reads above left SQLite's side files; with them a read-only folder would still
        // be writable through them. Nothing has the database open now, so they can go.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        lock()
        for args in [["import", db, export, "--mode", "upsert"], ["migrate", db, "--to", v2]] {
            let result = try porter(args)
            #expect(result.status == 1, "\(args[0]) succeeded")
            #expect(result.stderr.contains(phrase), "\(args[0]): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(args[0]): \(result.stderr)")
        }
        let check = try porter(["check", db])
        #expect(check.status == 0 && check.stdout == "ok\n", "check: \(check.stdout) \(check.stderr)")
        let out = dir.path("out")
        let export = try porter(["export", db, "--out", out, "--format", "json"])
        #expect(export.status == 0, "export: \(export.stderr)")
        #expect(try porter(["inspect", db]).status == 0)
        if sideFilesImpossible {
            // Readers in a read-only folder open the file immutable: nothing appears beside it.
            #expect(try FileFaultTests.sideFiles(db).isEmpty)
        }
        #expect(try DatabaseState.digest(at: db) == before)
    }

    @Test func aReadOnlyFileRefusesWritesAndServesReads() throws {
        let (dir, _, db, export) = try setUp("ro-file")
        try check(db, dir, export: export, phrase: "database file is read-only") { chmod(db, 0o444) }
    }

    @Test func aReadOnlyFolderRefusesWritesAndServesReads() throws {
        let (dir, folder, db, export) = try setUp("ro-folder")
        try check(db, dir, export: export, phrase: "its folder is read-only", sideFilesImpossible: true) {
            chmod(folder, 0o555)
        }
    }

    @Test func theSwiftAPIRefusesWritesOnAReadOnlyOpen() throws {
        let dir = try TemporaryFolder("ro-api")
        let db = dir.path("app.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "4", "--objects", "10"]).status == 0)
        let readOnly = try Database.open(at: db, readOnly: true)
        #expect(throws: PorterError.self) { try readOnly.write { try readOnly.delete("Item", ObjectKey(1)) } }
        #expect(try readOnly.count("Item") == 10)
    }
}

/// Running commands as a user whom file permissions apply to.
enum Unprivileged {
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Whether permissions can be tested: not root, or root with setpriv to become `nobody`.
    static let available = geteuid() != 0 || setpriv != nil
    static let nobody: uid_t = 65534
}
