import Foundation
import PorterCommands
import PorterModel
import PorterTestSupport
import Testing

/// `porter salvage`: its refusals, an intact file (exit 0), an export folder, an encrypted file.
@Suite struct SalvageCommandTests {
    @Test func anIntactFileIsSalvagedWholeWithExitZero() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("recovered.realm").path
        let run = CapturedOutput.run(["salvage", RealmFileCareTests.plain, "--out", out])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(run.output.stdout.contains("Nothing was lost."))
        #expect(try RealmFileCareTests.export(out) == RealmFileCareTests.export(RealmFileCareTests.plain))
        let folder = dir.appendingPathComponent("dump").path
        let encrypted = CapturedOutput.run([
            "salvage", RealmFileCareTests.encrypted, "--out", folder, "--format", "ejson",
            "--encryption-key", RealmFileCareTests.keyA,
        ])
        #expect(encrypted.status == 0, "\(encrypted.output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasSuffix(".json") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["dump", "recovered.realm"])
    }

    @Test(arguments: [
        (["salvage", "IN", "--out", "EXISTING"], 1, "already exists"),
        (
            ["salvage", "IN", "--out", "NEW", "--format", "csv"], 64,
            "The value 'csv' is invalid for '--format <format>'. Please provide one of "
                + "'realm', 'bson', 'ejson', 'ejson-canonical' or 'json'."
        ),
        (["salvage", "MISSING", "--out", "NEW"], 1, "no such file"),
        (["salvage", "NOISE", "--out", "NEW"], 1, "nothing readable: not a Realm file: it is gzip-compressed data"),
        (
            ["salvage", "ENCRYPTED", "--out", "NEW"], 1,
            "nothing readable: not a Porter or Realm file, unless it is an encrypted Realm file"
        ),
    ])
    func refusalsWriteNothing(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let existing = dir.appendingPathComponent("existing").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
        let noise = dir.appendingPathComponent("noise.realm").path
        try Data([0x1f, 0x8b, 8, 0, 1, 2, 3]).write(to: URL(fileURLWithPath: noise))
        let names = [
            "IN": RealmFileCareTests.plain, "EXISTING": existing, "NEW": dir.appendingPathComponent("new").path,
            "MISSING": dir.appendingPathComponent("missing.realm").path, "NOISE": noise,
            "ENCRYPTED": RealmFileCareTests.encrypted,
        ]
        let run = CapturedOutput.run(arguments.map { names[$0] ?? $0 })
        #expect(run.status == status)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["existing", "noise.realm"])
    }
}
