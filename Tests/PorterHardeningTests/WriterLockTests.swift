import Foundation
import Porter
import Testing
#if canImport(Glibc)
import Glibc
import PorterTestSupport
#endif

/// One writer at a time on both kinds of file, with real `porter` processes: a second writer
/// waits `--wait` seconds and then fails with one line, or goes on after the first one finished;
/// nothing is lost, `porter check` passes after; an app holding a Realm file's lock is refused.
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct WriterLockTests {
    static let migration = Hardening.fixtures.appendingPathComponent("migration")
    static var v2: String { migration.appendingPathComponent("v2.json").path }
    static var plan: String { migration.appendingPathComponent("v1-to-v2.plan.json").path }

    /// A v1 database (`app.porter`), and two files of new Dog documents that import into v1 and v2
    /// alike (`age` is left out and filled with its zero value).
    private func setUp(_ dir: TemporaryFolder) throws -> String {
        let db = dir.path("app.porter")
        try FileManager.default.copyItem(atPath: Self.migration.appendingPathComponent("v1.porter").path, toPath: db)
        for (name, first) in [("dogs-a", 1), ("dogs-b", 100)] {
            let lines = (first..<first + 20).map { i in
                "{\"_id\": {\"$oid\": \"\(String(format: "%024x", 0xabc000 + i))\"}, \"name\": \"dog \(i)\", \"vaccinated\": true}"
            }
            try lines.joined(separator: "\n").write(toFile: dir.path("\(name).json"), atomically: true, encoding: .utf8)
        }
        return db
    }

    private func importArgs(_ target: String, _ dir: TemporaryFolder, _ file: String, wait: String) -> [String] {
        [
            "import", target, dir.path("\(file).json"), "--class", "Dog", "--format", "ejson", "--fill-missing",
            "--quiet", "--wait", wait,
        ]
    }

    private func migrateArgs(_ target: String, wait: String) -> [String] {
        ["migrate", target, "--to", Self.v2, "--plan", Self.plan, "--wait", wait]
    }

    /// The one line a loser prints.
    private func expectLoser(_ result: ChildResult, _ file: String, _ what: String) {
        #expect(result.status == 1, "\(what): \(result.stderr) \(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(what): one line, got \(result.stderr)")
        #expect(result.stderr.contains("another porter process is writing \(file)"), "\(what): \(result.stderr)")
        #expect(!result.stderr.contains("SQLite"), "\(what): \(result.stderr)")
    }

    private func expectCheckPasses(_ file: String, _ extra: [String] = []) throws {
        let check = try Hardening.porter(["check", file] + extra)
        #expect(check.status == 0, "check: \(check.stdout)\(check.stderr)")
    }

    // MARK: Porter databases

    @Test func everyPorterWriterFailsCleanlyWhileAnotherWrites() throws {
        let dir = try TemporaryFolder("lock-loser")
        let db = try setUp(dir)
        // Upgraded to the current file format first (opening it for writing does that), then read
        // while no connection of this process is open: closing any descriptor of the file would
        // drop this process's SQLite locks (POSIX record locks belong to the process).
        _ = try Database.open(at: db)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        do {
            let holder = try Database.open(at: db)
            try holder.beginWrite()
            expectLoser(try Hardening.porter(importArgs(db, dir, "dogs-a", wait: "0.3")), db, "import")
            expectLoser(try Hardening.porter(migrateArgs(db, wait: "0.3")), db, "migrate")
            holder.cancelWrite()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let after = try Database.open(at: db, readOnly: true)
        #expect(after.schemaVersion == 1)
        #expect(try after.count("Dog") == 4)
        try expectCheckPasses(db)
    }

    /// Runs `first` and `second` while the test holds the write lock, then lets go: both wait,
    /// then run one after the other.
    private func race(_ db: String, _ first: [String], _ second: [String]) throws -> (ChildResult, ChildResult) {
        let holder = try Database.open(at: db)
        try holder.beginWrite()
        let a = try RunningChild(Hardening.porter!, first)
        usleep(300_000)
        let b = try RunningChild(Hardening.porter!, second)
        usleep(300_000)
        holder.cancelWrite()
        return (a.wait(), b.wait())
    }

    @Test(arguments: [("migrate", "migrate"), ("migrate", "import"), ("import", "migrate"), ("import", "import")])
    func twoPorterWritersRunOneAfterTheOther(_ pair: (String, String)) throws {
        let dir = try TemporaryFolder("lock-pair")
        let db = try setUp(dir)
        let args = { (name: String, file: String) in
            name == "migrate" ? self.migrateArgs(db, wait: "60") : self.importArgs(db, dir, file, wait: "60")
        }
        let (a, b) = try race(db, args(pair.0, "dogs-a"), args(pair.1, "dogs-b"))
        #expect(a.status == 0, "\(pair.0): \(a.stderr)")
        #expect(b.status == 0, "\(pair.1): \(b.stderr)")
        let after = try Database.open(at: db, readOnly: true)
        let imports = [pair.0, pair.1].filter { $0 == "import" }.count
        #expect(try after.count("Dog") == 4 + 20 * imports)
        if pair.0 == "migrate" || pair.1 == "migrate" {
            #expect(after.schemaVersion == 2)
            // The renamed column's data survives (two migrations used to lose it).
            var names: [Value?] = []
            try after.enumerate("Person") { names.append($0["fullName"]) }
            #expect(!names.isEmpty && names.allSatisfy { $0 != nil && $0 != .null && $0 != .string("") }, "\(names)")
        }
        try expectCheckPasses(db)
    }

    @Test func twoCreatesOfOneDatabaseLeaveOneDatabase() throws {
        let dir = try TemporaryFolder("lock-create")
        let db = dir.path("new.porter")
        let schema = Self.migration.appendingPathComponent("v1.json").path
        let a = try RunningChild(Hardening.porter!, ["create", db, "--schema", schema])
        let b = try RunningChild(Hardening.porter!, ["create", db, "--schema", schema])
        let results = [a.wait(), b.wait()]
        #expect(results.filter { $0.status == 0 }.count >= 1)
        for loser in results where loser.status != 0 {
            #expect(loser.stderr.contains("refusing to overwrite an existing file"), "\(loser.stderr)")
            #expect(loser.stderr.split(separator: "\n").count == 1)
        }
        try expectCheckPasses(db)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names == ["new.porter"], "no temporary file left: \(names)")
    }

    // MARK: Realm files

    /// A Realm file made from the v1 database, and `v1b.json`: v1 at version 2 with a new
    /// optional property (a migration that a second run finds done).
    private func realmFile(_ dir: TemporaryFolder) throws -> String {
        let db = try setUp(dir)
        let v1 = try String(contentsOfFile: Self.migration.appendingPathComponent("v1.json").path, encoding: .utf8)
        try v1.replacingOccurrences(of: "\"schemaVersion\": 1", with: "\"schemaVersion\": 2")
            .replacingOccurrences(
                of: "\"vaccinated\": \"bool\"", with: "\"vaccinated\": \"bool\", \"nickname\": \"string?\""
            )
            .write(toFile: dir.path("v1b.json"), atomically: true, encoding: .utf8)
        let realm = dir.path("app.realm")
        let made = try Hardening.porter(["export", db, "--format", "realm", "--out", realm])
        #expect(made.status == 0, "\(made.stderr)")
        return realm
    }

    /// Every command that writes a Realm file, on `realm`, with `wait`.
    private func realmWriters(_ realm: String, _ dir: TemporaryFolder, wait: String) throws -> [(String, [String])] {
        let key = dir.path("new.key")
        try String(repeating: "ab", count: 64).write(toFile: key, atomically: true, encoding: .utf8)
        return [
            ("import", importArgs(realm, dir, "dogs-a", wait: wait)),
            ("migrate", ["migrate", realm, "--to", dir.path("v1b.json"), "--wait", wait]),
            ("compact", ["compact", realm, "--wait", wait]),
            ("rekey", ["rekey", realm, "--encrypt", "--new-key-file", key, "--wait", wait]),
        ]
    }

    @Test func everyRealmWriterFailsCleanlyWhileAnotherPorterWrites() throws {
        let dir = try TemporaryFolder("realm-loser")
        let realm = try realmFile(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: realm))
        let lock = try HeldRealmLock(realm, asPorter: true)
        for (name, args) in try realmWriters(realm, dir, wait: "0.3") {
            expectLoser(try Hardening.porter(args), realm, name)
        }
        let out = dir.path("out.realm")
        let outLock = try HeldRealmLock(out, asPorter: true)
        expectLoser(
            try Hardening.porter(["export", dir.path("app.porter"), "--format", "realm", "--out", out, "--wait", "0.2"]
            ),
            out, "export")
        expectLoser(
            try Hardening.porter([
                "create", out, "--format", "realm", "--schema",
                Self.migration.appendingPathComponent("v1.json").path, "--wait", "0.2",
            ]), out, "create")
        outLock.release()
        lock.release()
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == before)
        #expect(!FileManager.default.fileExists(atPath: out))
        // A lock file Porter made for a file it did not write is removed again.
        let other = dir.path("other.realm")
        #expect(
            try Hardening.porter(["export", dir.path("missing.porter"), "--format", "realm", "--out", other]).status
                == 1)
        #expect(!FileManager.default.fileExists(atPath: other + ".lock"))
        try expectCheckPasses(realm)
    }

    @Test func realmWritersAreRefusedWhileAnAppHasTheFileOpen() throws {
        let dir = try TemporaryFolder("realm-app")
        let realm = try realmFile(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: realm))
        let app = try HeldRealmLock(realm, asPorter: false)
        for (name, args) in try realmWriters(realm, dir, wait: "0.2") {
            let result = try Hardening.porter(args)
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("is open in an app"), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("close the app"), "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
        }
        // Readers take no lock: they work while the app has the file open.
        #expect(try Hardening.porter(["inspect", realm]).status == 0)
        app.release()
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == before)
    }

    @Test(arguments: [("import", "migrate"), ("migrate", "import"), ("import", "import"), ("migrate", "migrate")])
    func twoRealmWritersRunOneAfterTheOther(_ pair: (String, String)) throws {
        let dir = try TemporaryFolder("realm-pair")
        let realm = try realmFile(dir)
        let writers = Dictionary(uniqueKeysWithValues: try realmWriters(realm, dir, wait: "60"))
        var second = writers[pair.1]!
        if pair.0 == "import" && pair.1 == "import" { second = importArgs(realm, dir, "dogs-b", wait: "60") }
        let lock = try HeldRealmLock(realm, asPorter: true)
        let a = try RunningChild(Hardening.porter!, writers[pair.0]!)
        usleep(300_000)
        let b = try RunningChild(Hardening.porter!, second)
        usleep(300_000)
        lock.release()
        let (ra, rb) = (a.wait(), b.wait())
        #expect(ra.status == 0, "\(pair.0): \(ra.stderr)")
        #expect(rb.status == 0, "\(pair.1): \(rb.stderr)")
        try expectCheckPasses(realm)
        let inspect = try Hardening.porter(["inspect", realm])
        let imports = [pair.0, pair.1].filter { $0 == "import" }.count
        let dogs = inspect.stdout.split(separator: "\n").first { $0.hasPrefix("  Dog ") }?.split(separator: " ")
        #expect(dogs?.dropFirst().first == Substring(String(4 + 20 * imports)), "nothing lost: \(inspect.stdout)")
        if pair.0 == "migrate" || pair.1 == "migrate" {
            #expect(inspect.stdout.contains("Schema version: 2"), "\(inspect.stdout)")
        }
    }

    @Test func twoExportsToOneRealmFileLeaveOneFile() throws {
        let dir = try TemporaryFolder("realm-export")
        let db = try setUp(dir)
        let out = dir.path("out.realm")
        let lock = try HeldRealmLock(out, asPorter: true)
        let args = ["export", db, "--format", "realm", "--out", out, "--wait", "60"]
        let a = try RunningChild(Hardening.porter!, args)
        let b = try RunningChild(Hardening.porter!, args)
        usleep(300_000)
        lock.release()
        let results = [a.wait(), b.wait()]
        #expect(results.filter { $0.status == 0 }.count == 1, "\(results.map(\.stderr))")
        #expect(results.contains { $0.stderr.contains("already exists") })
        try expectCheckPasses(out)
    }
}

/// A Realm file's lock held from the test process: as realm-core holds it while an app has the
/// file open (a shared `flock` on `FILE.lock`), or as a Porter writer does (an exclusive `flock`
/// plus the record lock Porter writers queue on).
final class HeldRealmLock {
    private var fd: Int32

    init(_ realm: String, asPorter: Bool) throws {
        fd = open(realm + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ChildError(description: "cannot open \(realm).lock") }
        if asPorter {
            var record = flock()
            record.l_type = Int16(F_WRLCK)
            record.l_whence = Int16(SEEK_SET)
            record.l_start = 1 << 40
            record.l_len = 1
            guard fcntl(fd, F_SETLK, &record) == 0 else { throw ChildError(description: "record lock refused") }
        }
        guard flock(fd, asPorter ? LOCK_EX : LOCK_SH) == 0 else { throw ChildError(description: "flock refused") }
    }

    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
