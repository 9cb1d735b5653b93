import Foundation
import PorterCommands
import PorterTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `porter rekey` and `porter compact`: in place, verified, atomic; the original unchanged on every failure.
@Suite struct RealmFileCareTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")
    static let plain = realmDir.appendingPathComponent("every-type.realm").path
    static let encrypted = realmDir.appendingPathComponent("every-type-encrypted.realm").path
    static let innerNodes = realmDir.appendingPathComponent("inner-nodes.realm").path
    static let keyA = RealmFileCommandsTests.key100To163
    static let keyB = RealmFileCommandsTests.keyZeroTo63
    static let sharedDir = TestFiles.root.deletingLastPathComponent().appendingPathComponent("shared/realm-files")

    /// A working copy of `fixture` in a new folder.
    static func copy(_ fixture: String, as name: String = "app.realm") throws -> (folder: TemporaryFolder, path: String)
    {
        let folder = try TemporaryFolder("cmd")
        let dir = folder.url
        let path = dir.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return (folder, path)
    }

    /// The JSON export of a Realm file: file name → bytes.
    static func export(_ path: String, key: String? = nil) throws -> [String: Data] {
        let outTmp = try TemporaryFolder("cmd")
        let out = outTmp.url
        let target = out.appendingPathComponent("x").path
        let run = CapturedOutput.run(
            ["export", path, "--out", target, "--format", "json"]
                + (key.map { ["--encryption-key", $0] } ?? []))
        #expect(run.status == 0, "\(run.output.stderr)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: target) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: target + "/" + name))
        }
        return files
    }

    static func writeKey(_ hex: String, in dir: URL, name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data((hex + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names in `dir` other than `keep`.
    static func others(in dir: URL, keep: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !keep.contains($0) }.sorted()
    }

    @Test(arguments: [plain, innerNodes])
    func compactKeepsEveryObjectAndPrintsBothSizes(_ fixture: String) throws {
        let (tmp, path) = try Self.copy(fixture)
        let dir = tmp.url
        chmod(path, 0o600)
        let before = try Self.export(path)
        let run = CapturedOutput.run(["compact", path])
        #expect(run.status == 0, "\(run.output.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: fixture)[.size] as? Int ?? -1
        #expect(run.output.stdout.contains("\(size) bytes before"), "\(run.output.stdout)")
        #expect(run.output.stdout.contains("bytes after"))
        #expect(try Self.export(path) == before)
        #expect(CapturedOutput.run(["check", path]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try Self.others(in: dir, keep: ["app.realm", "app.realm.lock"]).isEmpty)
    }

    @Test func rekeyEncryptDecryptRoundTrip() throws {
        let (tmp, path) = try Self.copy(Self.encrypted)
        let dir = tmp.url
        let before = try Self.export(path, key: Self.keyA)
        let oldKey = try Self.writeKey(Self.keyA, in: dir, name: "old.key")
        let newKey = try Self.writeKey(Self.keyB, in: dir, name: "new.key")
        let rekey = CapturedOutput.run([
            "rekey", path, "--encryption-key-file", oldKey, "--new-key-file", newKey,
            "--backup", dir.appendingPathComponent("old.realm").path,
        ])
        #expect(rekey.status == 0, "\(rekey.output.stderr)")
        #expect(
            try Data(contentsOf: dir.appendingPathComponent("old.realm"))
                == Data(contentsOf: URL(fileURLWithPath: Self.encrypted)))
        #expect(CapturedOutput.run(["check", path, "--encryption-key", Self.keyA]).status == 1)
        #expect(try Self.export(path, key: Self.keyB) == before)
        let decrypt = CapturedOutput.run(["rekey", path, "--encryption-key", Self.keyB, "--decrypt"])
        #expect(decrypt.status == 0, "\(decrypt.output.stderr)")
        #expect(try Self.export(path) == before)
        let encrypt = CapturedOutput.run(["rekey", path, "--encrypt", "--new-key", Self.keyA])
        #expect(encrypt.status == 0, "\(encrypt.output.stderr)")
        #expect(CapturedOutput.run(["check", path]).status == 1)
        #expect(try Self.export(path, key: Self.keyA) == before)
        let compact = CapturedOutput.run(["compact", path, "--encryption-key", Self.keyA])
        #expect(compact.status == 0, "\(compact.output.stderr)")
        #expect(try Self.export(path, key: Self.keyA) == before)
        #expect(
            try Self.others(in: dir, keep: ["app.realm", "app.realm.lock", "old.key", "new.key", "old.realm"]).isEmpty)
    }

    /// Every refusal leaves the file byte for byte as it was and nothing beside it.
    @Test(arguments: [
        (["rekey", "F", "--encryption-key", keyB, "--new-key", keyA], "wrong encryption key"),  // wrong key
        (["rekey", "F", "--new-key", keyA, "--encrypt"], "pass --encryption-key"),  // encrypted, no key
        (["rekey", "F", "--encryption-key", keyA, "--new-key", keyB, "--new-key-file", "x"], "not both"),
        (["rekey", "F", "--encryption-key", keyA, "--decrypt", "--new-key", keyB], "drop the new key"),
        (["rekey", "F", "--encryption-key", keyA, "--encrypt", "--new-key", keyB], "drop --encrypt"),
        (["rekey", "F", "--encrypt"], "needs the new key"),
        (["rekey", "F", "--decrypt"], "needs the current key"),
        (["rekey", "F", "--encryption-key", keyA], "needs the current key"),
        (["rekey", "F", "--encryption-key", keyA, "--new-key", "abc"], "expected 128 hex digits"),
        (["rekey", "F", "--encryption-key", keyA, "--decrypt", "--encrypt"], "not both"),
        (["compact", "F"], "pass --encryption-key"),
        (["compact", "F", "--encryption-key", keyB], "wrong encryption key"),
        (["compact", "F", "--encryption-key", keyA, "--backup", "EXISTING"], "already exists"),
    ])
    func refusalsLeaveTheFileUnchanged(_ arguments: [String], _ message: String) throws {
        let (tmp, path) = try Self.copy(Self.encrypted)
        let dir = tmp.url
        let existing = dir.appendingPathComponent("existing").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
        let args = arguments.map { $0 == "F" ? path : $0 == "EXISTING" ? existing : $0 }
        let run = CapturedOutput.run(args)
        #expect(run.status == 1)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Self.encrypted)))
        #expect(try Self.others(in: dir, keep: ["app.realm", "app.realm.lock", "existing"]).isEmpty)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
    }

    @Test func aPlainFileGivenAKeyOrAPorterDatabaseIsRefused() throws {
        let (tmp, path) = try Self.copy(Self.plain)
        let dir = tmp.url
        let run = CapturedOutput.run(["rekey", path, "--encryption-key", Self.keyA, "--new-key", Self.keyB])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("not encrypted"), "\(run.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Self.plain)))
        let db = dir.appendingPathComponent("x.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let porter = CapturedOutput.run(["compact", db])
        #expect(porter.status == 1)
        #expect(porter.output.stderr.contains("Porter database, not a Realm file"), "\(porter.output.stderr)")
        let missing = CapturedOutput.run(["compact", dir.appendingPathComponent("none.realm").path])
        #expect(missing.status == 1)
        #expect(missing.output.stderr.contains("no such file"))
    }

    /// A file whose `.lock` another open file description holds locked (as an app holds it) is refused.
    @Test(arguments: ["flock", "fcntl"])
    func aFileAnotherProcessHasOpenIsRefused(_ kind: String) throws {
        let (tmp, path) = try Self.copy(Self.plain)
        let dir = tmp.url
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        if kind == "flock" {
            #expect(flock(fd, LOCK_SH) == 0)
        } else {
            var lock = flock()
            lock.l_type = Int16(F_RDLCK)
            lock.l_whence = Int16(SEEK_SET)
            // 37: F_OFD_SETLK, which Glibc does not export to Swift.
            #expect(fcntl(fd, 37, &lock) == 0)
        }
        let run = CapturedOutput.run(["compact", path])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("close the app"), "\(run.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Self.plain)))
        // Once the app lets go, the same command works (an unlocked .lock file is left by every closed app).
        if kind == "flock" {
            flock(fd, LOCK_UN)
        } else {
            var lock = flock()
            lock.l_type = Int16(F_UNLCK)
            lock.l_whence = Int16(SEEK_SET)
            _ = fcntl(fd, 37, &lock)
        }
        #expect(CapturedOutput.run(["compact", path]).status == 0)
    }

    @Test func olderFormatsNeedConsentAndSyncedFilesAreRefused() throws {
        let js = Self.sharedDir.appendingPathComponent("js-simple.realm").path
        let synced = Self.sharedDir.appendingPathComponent("core-sync-client-history-011.realm").path
        guard FileManager.default.fileExists(atPath: js) else {
            print("skipped: ../shared/realm-files is absent")
            return
        }
        let (tmp, path) = try Self.copy(js)
        let dir = tmp.url
        let refused = CapturedOutput.run(["compact", path])
        #expect(refused.status == 1)
        #expect(refused.output.stderr.contains("file format 23"), "\(refused.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: js)))
        let before = try Self.export(path)
        let upgraded = CapturedOutput.run(["compact", path, "--allow-format-upgrade"])
        #expect(upgraded.status == 0, "\(upgraded.output.stderr)")
        #expect(try Self.export(path) == before)
        let syncCopy = dir.appendingPathComponent("synced.realm").path
        try FileManager.default.copyItem(atPath: synced, toPath: syncCopy)
        let sync = CapturedOutput.run(["compact", syncCopy, "--allow-format-upgrade"])
        #expect(sync.status == 1)
        #expect(sync.output.stderr.contains("synced Realm file"), "\(sync.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: syncCopy)) == Data(contentsOf: URL(fileURLWithPath: synced)))
    }

    /// Temporary files a killed run left (its process gone) are removed by the next run; those of a live process stay.
    @Test func leftoversOfAKilledRunAreRemoved() throws {
        let (tmp, path) = try Self.copy(Self.plain)
        let dir = tmp.url
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = dir.appendingPathComponent(".app.realm.porter-care-\(child.processIdentifier).tmp").path
        let deadInner = dir.appendingPathComponent(
            "..app.realm.porter-care-\(child.processIdentifier).tmp.porter-1-2.tmp"
        ).path
        let alive = dir.appendingPathComponent(".app.realm.porter-care-1.tmp").path  // pid 1 is always running
        for p in [dead, deadInner, alive] { try Data("x".utf8).write(to: URL(fileURLWithPath: p)) }
        #expect(CapturedOutput.run(["compact", path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: deadInner))
        #expect(FileManager.default.fileExists(atPath: alive))
    }
}
