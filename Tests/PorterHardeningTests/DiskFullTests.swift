import Foundation
import Porter
import Testing
import PorterTestSupport

/// A full disk (simulated with a file-size limit on the child process: writes beyond it fail
/// with EFBIG, the way they fail with ENOSPC on a full disk) during import, migrate and export:
/// a clear error, the database unchanged, and no partial export left behind.
///
/// Not under ThreadSanitizer (`make sanitize` sets `PORTER_SANITIZER=thread`): its runtime dies
/// with SIGBUS in any process started under a file-size limit, a three-line Swift program as much
/// as `porter inspect`; these tests run in `make test` and under AddressSanitizer.
@Suite(
    .serialized,
    .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)"),
    .disabled(
        if: ProcessInfo.processInfo.environment["PORTER_SANITIZER"] == "thread",
        "ThreadSanitizer's runtime crashes under a file-size limit (RLIMIT_FSIZE), whatever the program"))
struct DiskFullTests {
    /// Far below what the operations below write, far above what a refusal needs.
    static let limit = 128 * 1024

    private func database(_ dir: TemporaryFolder, objects: Int) throws -> String {
        let db = dir.path("full.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "9", "--objects", String(objects)]).status == 0)
        return db
    }

    @Test func diskFullDuringImportChangesNothing() throws {
        let dir = try TemporaryFolder("full-import")
        let db = try database(dir, objects: 100)
        let source = dir.path("source.porter")
        #expect(try Hardening.writer(["create", source, "--seed", "10", "--objects", "1500"]).status == 0)
        #expect(try Hardening.porter(["export", source, "--out", dir.path("export")]).status == 0)
        let before = try DatabaseState.verify(db)
        let result = try Hardening.porter(
            ["import", db, dir.path("export"), "--mode", "upsert"], fileSizeLimit: Self.limit)
        #expect(result.status == 1)
        #expect(result.stderr.contains("disk full"), "stderr: \(result.stderr)")
        #expect(try DatabaseState.verify(db) == before)
        // With room, the same import works: the failure was the disk, not the data.
        #expect(try Hardening.porter(["import", db, dir.path("export"), "--mode", "upsert"]).status == 0)
    }

    @Test func diskFullDuringMigrateChangesNothing() throws {
        let dir = try TemporaryFolder("full-migrate")
        let db = try database(dir, objects: 1_500)
        var v2 = try Database.open(at: db, readOnly: true).schema
        v2.version = 2
        var item = try #require(v2["Item"])
        item.properties = item.properties.map { p in
            var p = p; if p.name == "score" { p.type = .string }; return p
        }
        v2.upsert(item)
        try Data(v2.jsonString().utf8).write(to: URL(fileURLWithPath: dir.path("v2.json")))
        let before = try DatabaseState.verify(db)
        let result = try Hardening.porter(["migrate", db, "--to", dir.path("v2.json")], fileSizeLimit: Self.limit)
        #expect(result.status == 1)
        #expect(result.stderr.contains("disk full"), "stderr: \(result.stderr)")
        #expect(try DatabaseState.verify(db) == before)
        #expect(try Database.open(at: db, readOnly: true).history().isEmpty)
        // A backup that does not fit is removed again, journal included; the database is untouched.
        let backup = dir.path("backup.porter")
        let withBackup = try Hardening.porter(
            ["migrate", db, "--to", dir.path("v2.json"), "--backup", backup], fileSizeLimit: Self.limit)
        #expect(withBackup.status == 1)
        #expect(withBackup.stderr.contains("disk full"), "stderr: \(withBackup.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("backup.porter")
        }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
        #expect(try DatabaseState.verify(db) == before)
    }

    @Test func diskFullDuringExportLeavesNoPartialFiles() throws {
        let dir = try TemporaryFolder("full-export")
        let db = try database(dir, objects: 1_500)
        for format in ["bson", "json", "ejson"] {
            // Into a new folder: the folder is removed again.
            let fresh = dir.path("fresh-\(format)")
            let result = try Hardening.porter(
                ["export", db, "--out", fresh, "--format", format], fileSizeLimit: Self.limit)
            #expect(result.status == 1)
            #expect(result.stderr.contains("cannot write"), "stderr: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh))
            // Into an existing folder: earlier files stay as they were, no temporary file remains.
            let existing = dir.path("existing-\(format)")
            try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
            let ext = format == "bson" ? "bson" : "json"
            try Data("earlier export\n".utf8).write(to: URL(fileURLWithPath: existing + "/Item.\(ext)"))
            #expect(
                try Hardening.porter(["export", db, "--out", existing, "--format", format], fileSizeLimit: Self.limit)
                    .status == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: existing) == ["Item.\(ext)"])
            #expect(try String(contentsOfFile: existing + "/Item.\(ext)", encoding: .utf8) == "earlier export\n")
        }
        #expect(try DatabaseState.verify(db) == DatabaseState.digest(at: db))
    }
}
