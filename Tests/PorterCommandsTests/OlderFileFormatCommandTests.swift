import Foundation
import Porter
import PorterCommands
import PorterTestSupport
import Testing

/// `porter export --format realm --file-format 22|23` (and `salvage --file-format`): the file is
/// read back by Porter's reader as that format and every object equals the source's (the BSON and
/// the JSON exports of both are byte for byte the same); what the format cannot hold is refused
/// with a one-line error naming the class and property, and no file is left.
@Suite struct OlderFileFormatCommandTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")
    static let sharedDir = TestFiles.root.deletingLastPathComponent().appendingPathComponent("shared/realm-files")

    /// Every unencrypted Realm file of Fixtures/realm, and of ../shared/realm-files where it exists.
    static let sources: [String] = {
        var paths: [String] = []
        for dir in [realmDir, sharedDir] {
            guard let names = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let name as String in names where name.hasSuffix(".realm") && !name.contains("encrypted") {
                paths.append(dir.appendingPathComponent(name).path)
            }
        }
        return paths.sorted()
    }()

    /// Files the older formats cannot hold, and why (the start of the message after the location).
    static let refusals: [String: String] = [
        "column-migration.realm": "Person.tags: file format N cannot index a list (string[])",
        "migrated-class-renames.realm": "Owner.tags: file format N cannot index a list (string[])",
        "migrated-rename-add-convert.realm": "Person.tags: file format N cannot index a list (string[])",
        "strings-and-blobs.realm": "T.ls: file format N cannot index a list (string?[])",
        "collections.realm": "C[0].s_mixed: file format N orders the strings of a set of mixed by realm-core 13's",
        "core-upgrade-1000-24.realm": "table[10000].any: file format N cannot hold a list or dictionary inside a mixed",
        // Only format 22 compares a string and a binary of a set of mixed by their bytes alone.
        "core-upgrade-1000-23.realm@22":
            "table_for_mixed[0].mixedSet: file format 22 cannot hold a string and a binary of the same bytes",
        // Old files Porter does not read yet (../shared/realm-files/legacy).
        "test_shared_decrypt_4k_page.realm": "not a Porter or Realm file, unless it is an encrypted Realm file",
        "test_shared_decrypt_64k_page.realm": "not a Porter or Realm file, unless it is an encrypted Realm file",
        "test_upgrade_database_1000_5_to_6_stringindex.realm": "t1.table: a subtable without columns is not read",
        "test_upgrade_database_4_5_to_6_stringindex.realm": "t1.table: a subtable without columns is not read",
        "test_upgrade_database_4_10_to_11.realm": "the search index does not hold the object with key",
        "vacuum_no_history_type.realm": "the Realm file was never written (format 0, no data)",
    ].merging(
        (["test_upgrade_colkey_error.realm"] + (1...7).map { "test_upgrade_progress_\($0).realm" }).map {
            ($0, "the file was left in the middle of realm-core 6's upgrade")
        }
    ) { a, _ in a }

    /// Files holding dates BSON cannot (Realm Java's sync permissions expire at the largest
    /// Timestamp): compared by their JSON exports only (the BSON export refuses them in one line).
    static let beyondBSON: Set<String> = ["optionalsubscriptionfields.realm"]

    static let cases: [(String, Int)] = sources.flatMap { [($0, 22), ($0, 23)] }

    /// The export of `path` in `format`: file name → bytes.
    static func export(_ path: String, format: String) throws -> [String: Data] {
        let outTmp = try TemporaryFolder("cmd")
        let out = outTmp.url
        let target = out.appendingPathComponent("x").path
        let run = CapturedOutput.run(["export", path, "--out", target, "--format", format, "--quiet"])
        #expect(run.status == 0, "\(run.output.stderr)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: target) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: target + "/" + name))
        }
        return files
    }

    @Test func sharedFilesArePresentOrSkipped() {
        if !FileManager.default.fileExists(atPath: Self.sharedDir.path) {
            print("OlderFileFormatCommandTests: skipped the shared files: ../shared/realm-files is absent")
        }
        #expect(Self.sources.count >= 17)
    }

    @Test(arguments: cases)
    func olderFormatKeepsEveryObject(_ source: String, _ format: Int) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("old.realm").path
        let run = CapturedOutput.run([
            "export", source, "--format", "realm", "--file-format", "\(format)", "--out", out,
        ])
        let name = URL(fileURLWithPath: source).lastPathComponent
        if let refusal = Self.refusals["\(name)@\(format)"] ?? Self.refusals[name] {
            #expect(run.status == 1)
            let expected = refusal.replacingOccurrences(of: "format N", with: "format \(format)")
            #expect(run.output.stderr.contains(expected), "\(run.output.stderr)")
            #expect(run.output.stderr.split(separator: "\n").count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
            return
        }
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(run.output.stdout.contains("(file format \(format),"))
        // The header says so (both slots), and Porter's reader reads it as that format.
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)).prefix(24))
        #expect(Array(header[16..<20]) == Array("T-DB".utf8))
        #expect(header[20] == UInt8(format) && header[21] == UInt8(format))
        let file = try RealmFile(path: out)
        #expect(file.fileFormat == format)
        #expect(CapturedOutput.run(["check", out]).status == 0)
        for exportFormat in ["bson", "json"] where !(exportFormat == "bson" && Self.beyondBSON.contains(name)) {
            #expect(try Self.export(out, format: exportFormat) == (try Self.export(source, format: exportFormat)))
        }
    }

    @Test func defaultStaysFormat24() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("new.realm").path
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--format", "realm", "--out", out,
        ])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(try RealmFile(path: out).fileFormat == 24)
    }

    @Test(arguments: [
        (["--file-format", "21"], "--file-format takes 22, 23 or 24 (got 21)"),
        (["--file-format", "25"], "--file-format takes 22, 23 or 24 (got 25)"),
        (["--file-format", "23", "--format", "bson"], "--file-format applies only when export --format realm"),
    ])
    func badFileFormatIsAnArgumentError(_ extra: [String], _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("x.realm").path
        var arguments = ["export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--out", out]
        if !extra.contains("--format") { arguments += ["--format", "realm"] }
        let run = CapturedOutput.run(arguments + extra)
        #expect(run.status == 64)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func salvageWritesAnOlderFormat() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let source = Self.realmDir.appendingPathComponent("every-type.realm").path
        let out = dir.appendingPathComponent("recovered.realm").path
        let run = CapturedOutput.run(["salvage", source, "--out", out, "--file-format", "23"])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(try RealmFile(path: out).fileFormat == 23)
        #expect(try Self.export(out, format: "bson") == (try Self.export(source, format: "bson")))
        let folder = dir.appendingPathComponent("folder").path
        let refused = CapturedOutput.run([
            "salvage", source, "--out", folder, "--format", "bson", "--file-format", "23",
        ])
        #expect(refused.status == 64)
        #expect(refused.output.stderr.contains("--file-format applies only when salvage writes a Realm file"))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
