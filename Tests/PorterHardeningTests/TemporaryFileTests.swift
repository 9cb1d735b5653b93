import Foundation
import Porter
import Testing
#if canImport(Glibc)
import Glibc
import PorterTestSupport
#endif

/// Encrypted data never reaches the disk in the clear, and Porter's temporary files go away: on
/// success, on failure, on SIGTERM, and (after a SIGKILL) with the next command on the same file.
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct TemporaryFileTests {
    static let key = String(repeating: "0123456789abcdef", count: 8)
    static let marker = "PLAINTEXT-MARKER-7f3a9c"
    static let migration = Hardening.fixtures.appendingPathComponent("migration")

    /// Folders: `src` (the sources, holding the marker in clear), `data` (the Realm file) and
    /// `tmp` (the children's TMPDIR). Returns the Realm file: v1's objects plus `count` dogs whose
    /// names hold the marker, encrypted when `encrypted`.
    private func setUp(_ dir: TemporaryFolder, count: Int, encrypted: Bool = true) throws -> String {
        for name in ["src", "data", "tmp"] {
            try FileManager.default.createDirectory(atPath: dir.path(name), withIntermediateDirectories: true)
        }
        let db = dir.path("src/app.porter")
        try FileManager.default.copyItem(atPath: Self.migration.appendingPathComponent("v1.porter").path, toPath: db)
        try dogs(dir, "src/dogs.json", first: 1, count: count)
        try dogs(dir, "src/more.json", first: 1_000_000, count: count)
        let imported = try Hardening.porter([
            "import", db, dir.path("src/dogs.json"), "--class", "Dog", "--format", "ejson", "--fill-missing", "--quiet",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let realm = dir.path("data/app.realm")
        let made = try Hardening.porter(
            ["export", db, "--format", "realm", "--out", realm] + (encrypted ? ["--out-encryption-key", Self.key] : []))
        #expect(made.status == 0, "\(made.stderr)")
        return realm
    }

    private func dogs(_ dir: TemporaryFolder, _ name: String, first: Int, count: Int) throws {
        let lines = (first..<first + count).map { i in
            "{\"_id\": {\"$oid\": \"\(String(format: "%024x", 0xdd0000000 + i))\"}, \"name\": \"\(Self.marker) \(i)\", \"vaccinated\": true}"
        }
        try lines.joined(separator: "\n").write(toFile: dir.path(name), atomically: true, encoding: .utf8)
    }

    /// `porter args…` with TMPDIR set to `tmp`.
    private func child(_ dir: TemporaryFolder, _ args: [String]) throws -> RunningChild {
        try RunningChild("/usr/bin/env", ["TMPDIR=\(dir.path("tmp"))", Hardening.porter!] + args)
    }

    /// Files under `folders` whose bytes hold the marker.
    private func clearText(in folders: [String]) -> [String] {
        let needle = Data(Self.marker.utf8)
        var found: [String] = []
        for folder in folders {
            guard let items = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let item as String in items {
                let path = folder + "/" + item
                if let data = FileManager.default.contents(atPath: path), data.range(of: needle) != nil {
                    found.append(path)
                }
            }
        }
        return found
    }

    /// Porter's temporary names left in the data folder and TMPDIR.
    private func leftovers(_ dir: TemporaryFolder) -> [String] {
        let data = (try? FileManager.default.contentsOfDirectory(atPath: dir.path("data"))) ?? []
        let tmp = (try? FileManager.default.contentsOfDirectory(atPath: dir.path("tmp"))) ?? []
        return data.filter { $0.contains(".porter-") } + tmp.filter { $0.hasPrefix("porter-") }
    }

    private func writers(_ dir: TemporaryFolder, _ realm: String) -> [[String]] {
        let dogsOnly = dir.path("src/dogs-only.json")
        try? """
        {"schemaVersion": 2, "classes": [{"name": "Dog", "primaryKey": "_id", "properties":
          {"_id": "objectId", "name": "string", "age": "int", "vaccinated": "bool"}}]}
        """.write(toFile: dogsOnly, atomically: true, encoding: .utf8)
        return [
            [
                "import", realm, dir.path("src/more.json"), "--class", "Dog", "--format", "ejson", "--fill-missing",
                "--quiet",
                "--mode", "upsert", "--encryption-key", Self.key,
            ],
            // General path (a class removed), for real and as a dry run.
            ["migrate", realm, "--to", dogsOnly, "--allow-data-loss", "--dry-run", "--encryption-key", Self.key],
            ["migrate", realm, "--to", dogsOnly, "--allow-data-loss", "--encryption-key", Self.key],
        ]
    }

    @Test func encryptedImportsAndMigrationsWriteNothingInTheClear() throws {
        let dir = try TemporaryFolder("plaintext")
        let realm = try setUp(dir, count: 3_000)
        let scanned = [dir.path("data"), dir.path("tmp")]
        #expect(clearText(in: scanned).isEmpty, "the encrypted file itself holds no clear text")
        for args in writers(dir, realm) {
            // Scanned again and again while it runs, killed at several moments, then run to the
            // end: never any clear text.
            for delay in [0.05, 0.2, 0.5, 60] {
                let running = try child(dir, args)
                let deadline = Date().addingTimeInterval(delay)
                var found: [String] = []
                while running.isRunning && Date() < deadline && found.isEmpty {
                    found = clearText(in: scanned)
                    usleep(5_000)
                }
                #expect(found.isEmpty, "\(args[0]) while running: \(found)")
                if delay < 60 { running.killIfRunning() }
                let result = running.wait()
                if delay == 60 { #expect(result.status == 0, "\(args): \(result.stderr)") }
                #expect(clearText(in: scanned).isEmpty, "\(args[0]) ended after \(delay) s")
            }
            let result = try child(dir, args).wait()
            #expect(result.status == 0, "\(args): \(result.stderr)")
            #expect(clearText(in: scanned).isEmpty, "\(args[0]) finished")
            #expect(leftovers(dir).isEmpty, "\(args[0]): \(leftovers(dir))")
        }
        let check = try Hardening.porter(["check", realm, "--encryption-key", Self.key])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func readOnlyStudioRemovesAKilledStudiosDownloadFolder() throws {
        let dir = try TemporaryFolder("studio-leftovers")
        let realm = try setUp(dir, count: 10, encrypted: false)
        let gone = try RunningChild("/bin/true", [])
        _ = gone.wait()
        // What a studio killed while writing a download leaves: its folder, named by its dead PID.
        let deadFolder = dir.path("tmp/porter-realm-\(gone.pid)-download-Ab12Cd")
        try FileManager.default.createDirectory(atPath: deadFolder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: deadFolder + "/.Dog.sqlite.1.porter-tmp", contents: Data("x".utf8))
        let studio = try child(dir, ["studio", realm])
        let deadline = Date().addingTimeInterval(60)
        while studio.isRunning && FileManager.default.fileExists(atPath: deadFolder) && Date() < deadline {
            usleep(20_000)
        }
        #expect(studio.isRunning, "the studio serves (read-only) while it sweeps")
        studio.killIfRunning()
        _ = studio.wait()
        #expect(!FileManager.default.fileExists(atPath: deadFolder), "\(leftovers(dir))")
    }

    @Test func leftoversOfKilledRunsAreRemovedByTheNextRun() throws {
        let dir = try TemporaryFolder("leftovers")
        let realm = try setUp(dir, count: 3_000, encrypted: false)
        // Planted leftovers: of a dead process (removed) and of a live one, this test (kept).
        let gone = try RunningChild("/bin/true", [])
        _ = gone.wait()
        let dead = gone.pid, live = getpid()
        let deadFile = dir.path("data/.app.realm.porter-\(dead)-1-7.tmp")
        let liveFile = dir.path("data/.app.realm.porter-\(live)-1-7.tmp")
        let deadFolder = dir.path("tmp/porter-realm-\(dead)-Ab12Cd")
        for path in [deadFile, liveFile, deadFile + "-wal"] {
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        }
        try FileManager.default.createDirectory(atPath: deadFolder, withIntermediateDirectories: true)
        let inspect = try child(dir, ["inspect", realm]).wait()
        #expect(inspect.status == 0)
        #expect(FileManager.default.fileExists(atPath: deadFile), "readers leave the folder alone")
        let args = [
            "import", realm, dir.path("src/more.json"), "--class", "Dog", "--format", "ejson", "--fill-missing",
            "--quiet",
        ]
        // Killed runs, then one to the end: it removes every leftover of a dead run.
        for delay in [0.05, 0.15, 0.3, 0.6] {
            let running = try child(dir, args)
            usleep(useconds_t(delay * 1_000_000))
            running.killIfRunning()
            _ = running.wait()
            let check = try Hardening.porter(["check", realm])
            #expect(check.status == 0, "the file is the old or the new one after a kill: \(check.stdout)")
        }
        let result = try child(dir, args + ["--mode", "upsert"]).wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(leftovers(dir) == [URL(fileURLWithPath: liveFile).lastPathComponent], "\(leftovers(dir))")
    }

    @Test func caughtSignalsRemoveTemporaryFiles() throws {
        let dir = try TemporaryFolder("signals")
        let realm = try setUp(dir, count: 3_000, encrypted: false)
        let args = [
            "import", realm, dir.path("src/more.json"), "--class", "Dog", "--format", "ejson", "--fill-missing",
            "--quiet",
            "--mode", "upsert",
        ]
        for (signal, delay) in [(SIGTERM, 0.1), (SIGINT, 0.3), (SIGHUP, 0.5), (SIGTERM, 0.8)] {
            let running = try child(dir, args)
            usleep(useconds_t(delay * 1_000_000))
            kill(running.pid, signal)
            let result = running.wait()
            #expect(result.signal == signal || result.status == 0, "ended by the signal or finished first: \(result)")
            #expect(leftovers(dir).isEmpty, "after signal \(signal) at \(delay) s: \(leftovers(dir))")
        }
        #expect(try Hardening.porter(["check", realm]).status == 0)
    }

    /// Porter's temporary files anywhere under `data` (exports write theirs inside the folder
    /// they fill).
    private func temporaryFiles(under dir: TemporaryFolder) -> [String] {
        let items = FileManager.default.enumerator(atPath: dir.path("data"))?.allObjects as? [String] ?? []
        return items.filter { URL(fileURLWithPath: $0).lastPathComponent.contains(".porter-") }
    }

    @Test func caughtSignalsDuringExportsRemoveWhatTheyWrote() throws {
        let dir = try TemporaryFolder("export-signals")
        let realm = try setUp(dir, count: 20_000, encrypted: false)
        let exports: [(args: [String], output: String)] = [
            (["--out", dir.path("data/dump")], dir.path("data/dump")),
            (["--format", "csv", "--out", dir.path("data/csv")], dir.path("data/csv")),
            (["--format", "sqlite", "--out", dir.path("data/app.sqlite")], dir.path("data/app.sqlite")),
            (["--archive=" + dir.path("data/app.archive")], dir.path("data/app.archive")),
        ]
        var interrupted = 0
        for (args, output) in exports {
            for signal in [SIGTERM, SIGINT] {
                let running = try child(dir, ["export", realm, "--quiet"] + args)
                // Signalled once its first temporary file exists: mid-export.
                let deadline = Date().addingTimeInterval(60)
                while running.isRunning && temporaryFiles(under: dir).isEmpty && Date() < deadline { usleep(1_000) }
                kill(running.pid, signal)
                let result = running.wait()
                if result.signal == signal {
                    interrupted += 1
                    #expect(
                        !FileManager.default.fileExists(atPath: output), "\(args) after signal \(signal): output left")
                } else {
                    #expect(result.status == 0, "finished before the signal: \(result.stderr)")
                    try? FileManager.default.removeItem(atPath: output)
                }
                #expect(
                    temporaryFiles(under: dir).isEmpty, "\(args) after signal \(signal): \(temporaryFiles(under: dir))")
                #expect(leftovers(dir).isEmpty, "\(leftovers(dir))")
            }
        }
        #expect(interrupted > 0, "every export finished before its signal")
    }

    @Test func caughtSignalsDuringACompactRemoveItsFiles() throws {
        let dir = try TemporaryFolder("compact-signals")
        let realm = try setUp(dir, count: 20_000, encrypted: false)
        let backup = dir.path("data/before.realm")
        var interrupted = 0
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let running = try child(dir, ["compact", realm, "--backup", backup])
            // Signalled once its first temporary file exists: mid-rewrite.
            let deadline = Date().addingTimeInterval(60)
            while running.isRunning && temporaryFiles(under: dir).isEmpty && Date() < deadline { usleep(1_000) }
            kill(running.pid, signal)
            let result = running.wait()
            if result.signal == signal { interrupted += 1 } else { #expect(result.status == 0, "\(result.stderr)") }
            #expect(temporaryFiles(under: dir).isEmpty, "after signal \(signal): \(temporaryFiles(under: dir))")
            #expect(leftovers(dir).isEmpty, "\(leftovers(dir))")
            // The file is the old or the compacted one, whole.
            #expect(try Hardening.porter(["check", realm]).status == 0)
            try? FileManager.default.removeItem(atPath: backup)
        }
        #expect(interrupted > 0, "every compact finished before its signal")
    }
}
