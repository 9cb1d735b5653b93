import Foundation
import Porter
import Testing
import PorterTestSupport

/// Files Porter must refuse without touching them: not a database, a truncated or corrupted
/// one, and one written by a newer Porter. Every command exits 1 with one clear line, and the
/// file keeps every byte (no `-wal` or `-shm` left behind either).
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct FileFaultTests {
    /// The SHA-256 of a file's bytes.
    static func bytesDigest(_ path: String) throws -> String {
        SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The `-wal`, `-shm` and `-journal` files beside a database.
    static func sideFiles(_ path: String) throws -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// A sound database with a few hundred objects, and an export folder to import.
    private func setUp(_ dir: TemporaryFolder) throws -> (db: String, export: String) {
        let db = dir.path("good.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "3", "--objects", "200"]).status == 0)
        #expect(try Hardening.porter(["export", db, "--out", dir.path("export")]).status == 0)
        return (db, dir.path("export"))
    }

    /// Runs every command against `path` and returns the stderr of each (all must fail).
    private func refuseEverywhere(_ path: String, _ dir: TemporaryFolder, export: String, expecting phrase: String)
        throws
    {
        let before = try Self.bytesDigest(path)
        let sideFiles = try Self.sideFiles(path)
        try Data(#"{"schemaVersion": 9, "classes": []}"#.utf8).write(to: URL(fileURLWithPath: dir.path("v9.json")))
        let commands: [[String]] = [
            ["check", path], ["inspect", path], ["schema", path], ["export", path, "--out", dir.path("out")],
            ["import", path, export, "--mode", "upsert"], ["migrate", path, "--to", dir.path("v9.json")],
        ]
        for args in commands {
            let result = try Hardening.porter(args)
            #expect(result.status == 1, "\(args[0]): exit \(String(describing: result.status))")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("porter: error: "), "\(args[0]): \(result.stderr)")
            #expect(result.stderr.contains(phrase), "\(args[0]): \(result.stderr)")
        }
        #expect(try Self.bytesDigest(path) == before, "the file was written to")
        #expect(try Self.sideFiles(path) == sideFiles, "files were created beside it")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }

    @Test func filesThatAreNotDatabasesAreRefusedUntouched() throws {
        let dir = try TemporaryFolder("not-a-db")
        let (db, export) = try setUp(dir)
        let text = dir.path("notes.porter")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        try refuseEverywhere(text, dir, export: export, expecting: "not a Porter")
        let empty = dir.path("empty.porter")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        try refuseEverywhere(empty, dir, export: export, expecting: "not a Porter")
        // An SQLite file of another application: the Porter application id patched away.
        let foreign = try dir.copyDatabase(db, to: "foreign.porter")
        try patch(foreign, at: 68, [0x41, 0x42, 0x43, 0x44])
        try refuseEverywhere(foreign, dir, export: export, expecting: "another application")
    }

    @Test func aDatabaseFromANewerPorterIsRefusedUntouched() throws {
        let dir = try TemporaryFolder("newer")
        let (db, export) = try setUp(dir)
        let newer = try dir.copyDatabase(db, to: "newer.porter")
        // PRAGMA user_version lives at offset 60 of the header, big-endian.
        let version = UInt32(Database.fileFormatVersion + 1)
        try patch(newer, at: 60, withUnsafeBytes(of: version.bigEndian) { Array($0) })
        try refuseEverywhere(newer, dir, export: export, expecting: "written by a newer Porter")
        #expect(throws: PorterError.self) { try Database.open(at: newer) }
        do {
            _ = try Database.open(at: newer, readOnly: true)
        } catch let error as PorterError {
            #expect(error.code == .notADatabase)
            #expect(
                error.message
                    == "file was written by a newer Porter (file format \(version); this Porter reads up to \(Database.fileFormatVersion))"
            )
        }
    }

    @Test func aTruncatedDatabaseIsRefusedUntouched() throws {
        let dir = try TemporaryFolder("truncated")
        let (db, export) = try setUp(dir)
        for fraction in [0.05, 0.5, 0.9] {
            let truncated = try dir.copyDatabase(db, to: "truncated-\(fraction).porter")
            let size = try #require(FileManager.default.attributesOfItem(atPath: truncated)[.size] as? Int)
            #expect(truncate(truncated, off_t(Double(size) * fraction)) == 0)
            // Which command notices first depends on the pages it reads; `check` always does.
            let check = try Hardening.porter(["check", truncated])
            #expect(check.status == 1, "check of a file cut at \(fraction): \(check.stdout)")
            let before = try Self.bytesDigest(truncated)
            let importResult = try Hardening.porter(["import", truncated, export, "--mode", "upsert"])
            #expect(importResult.status == 1, "import into a file cut at \(fraction) succeeded")
            #expect(try Self.bytesDigest(truncated) == before)
        }
    }

    @Test func aCorruptedDatabaseIsReportedAndNotWritten() throws {
        let dir = try TemporaryFolder("corrupt")
        let (db, export) = try setUp(dir)
        let corrupt = try dir.copyDatabase(db, to: "corrupt.porter")
        // Every b-tree page from the 8th on gets an invalid page type: the meta tables (the
        // first pages) stay readable, so the file opens, but no object can be read or written.
        let size = try #require(FileManager.default.attributesOfItem(atPath: corrupt)[.size] as? Int)
        for page in stride(from: 7 * 4096, to: size, by: 4096) { try patch(corrupt, at: page, [0xEE]) }
        let before = try Self.bytesDigest(corrupt)
        let check = try Hardening.porter(["check", corrupt])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains("corrupt") || check.stdout.contains("integrity_check"),
            "check printed: \(check.stdout)")
        for args in [["import", corrupt, export, "--mode", "upsert"], ["export", corrupt, "--out", dir.path("out")]] {
            let result = try Hardening.porter(args)
            #expect(result.status == 1)
            #expect(result.stderr.contains("corrupt"), "\(args[0]): \(result.stderr)")
        }
        #expect(try Self.bytesDigest(corrupt) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }

    /// Overwrites bytes of a file in place.
    private func patch(_ path: String, at offset: Int, _ bytes: [UInt8]) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(bytes))
    }
}
