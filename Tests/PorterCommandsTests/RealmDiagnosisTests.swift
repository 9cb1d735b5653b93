import Foundation
import PorterCommands
import PorterModel
import PorterRealmFile
import PorterTestSupport
import Testing

/// `porter check` (and every command's one-line error) says why a Realm file will not open, with the evidence.
@Suite struct RealmDiagnosisTests {
    static let plain = RealmFileCareTests.plain
    static let encrypted = RealmFileCareTests.encrypted
    static let keyA = RealmFileCareTests.keyA
    static let keyB = RealmFileCareTests.keyB

    /// A damaged copy of a fixture: `damage` edits its bytes.
    static func damaged(_ fixture: String, _ damage: (inout [UInt8]) -> Void) throws -> (
        folder: TemporaryFolder, path: String
    ) {
        let folder = try TemporaryFolder("cmd")
        let dir = folder.url
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture)))
        damage(&bytes)
        let path = dir.appendingPathComponent("app.realm").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    static func setU64(_ bytes: inout [UInt8], _ at: Int, _ value: UInt64) {
        for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }

    static func topRef(_ bytes: [UInt8]) -> Int {
        let select = Int(bytes[23] & 1)
        return (0..<8).reduce(0) { $0 | Int(bytes[8 * select + $1]) << (8 * $1) }
    }

    /// One damaged input per diagnosis: what `check` prints, the kind `check --json` names, and
    /// that the file is left as it was.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var fixture: String
        var key: String?
        var kind: RealmFileDiagnosis.Kind
        var message: String
        var damage: @Sendable (inout [UInt8]) -> Void
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty", fixture: plain, kind: .empty, message: "the file is empty") { $0 = [] },
        Case(name: "gzip", fixture: plain, kind: .notARealmFile, message: "gzip-compressed data: decompress it first") {
            $0 = [0x1f, 0x8b, 8, 0] + Array($0.prefix(100))
        },
        Case(name: "zip", fixture: plain, kind: .notARealmFile, message: "a zip archive") {
            $0 = Array("PK".utf8) + [3, 4] + Array($0.prefix(60))
        },
        Case(name: "json", fixture: plain, kind: .notARealmFile, message: "JSON text") {
            $0 = Array(" {\"a\": 1}".utf8)
        },
        Case(name: "zeros", fixture: plain, kind: .notARealmFile, message: "all zero") {
            $0 = [UInt8](repeating: 0, count: 4096)
        },
        Case(name: "noise", fixture: plain, kind: .notARealmFile, message: "not laid out like an encrypted Realm file")
        {
            $0 = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        },
        Case(
            name: "encrypted, no key", fixture: encrypted, kind: .encryptedNoKey,
            message: "unless it is an encrypted Realm file as its layout suggests"
        ) { _ in },
        Case(name: "wrong key", fixture: encrypted, key: keyB, kind: .wrongKey, message: "wrong encryption key") { _ in
        },
        Case(name: "key for a plain file", fixture: plain, key: keyA, kind: .notEncrypted, message: "not encrypted") {
            _ in
        },
        Case(
            name: "truncated tail", fixture: plain, kind: .truncated,
            message: "expected at least"
        ) { $0 = Array($0.prefix(($0.count / 2) & ~7)) },
        Case(
            name: "truncated, odd size", fixture: plain, kind: .truncated,
            message: "the copy was cut short: copy it again with the app closed"
        ) { $0 = Array($0.prefix($0.count / 3 * 2 + 3)) },
        Case(
            name: "older format", fixture: plain, kind: .olderFormat,
            message: "file format 1 is not supported: Porter reads formats 2–11 and 20–24"
        ) {
            $0[20 + Int($0[23] & 1)] = 1
        },
        Case(
            name: "newer format", fixture: plain, kind: .newerFormat, message: "written by a newer core: file format 25"
        ) {
            $0[20 + Int($0[23] & 1)] = 25
        },
        Case(name: "unfinished snapshot", fixture: plain, kind: .unfinishedSnapshot, message: "footer is not finished")
        {
            // Porter writes the streaming form (top ref in the footer): the footer is cut off.
            $0[23] = 0
            $0[20] = 24
            setU64(&$0, 0, UInt64.max)
            setU64(&$0, $0.count - 8, 0)
        },
        Case(name: "damaged mnemonic", fixture: plain, kind: .damaged, message: "expected \"T-DB\"") { $0[17] = 0x41 },
        Case(name: "damaged top array", fixture: plain, kind: .damaged, message: "of the node at 0x") {
            let top = topRef($0)
            for i in top + 8..<top + 24 { $0[i] = 0xEE }
        },
    ]

    @Test(arguments: cases)
    func checkSaysWhyTheFileWillNotOpen(_ c: Case) throws {
        let (tmp, path) = try Self.damaged(c.fixture, c.damage)
        let dir = tmp.url
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let keyArgs = c.key.map { ["--encryption-key", $0] } ?? []
        let diagnosis = RealmFileDiagnosis.diagnose(path: path, encryptionKey: try c.key.map { try hexKey($0) })
        #expect(diagnosis.kind == c.kind, "\(diagnosis.message)")
        #expect(diagnosis.message.contains(c.message), "\(diagnosis.message)")
        #expect(!diagnosis.evidence.isEmpty)

        let check = CapturedOutput.run(["check", path] + keyArgs)
        #expect(check.status == 1)
        #expect((check.output.stderr + check.output.stdout).contains(c.message), "\(check.output.stderr)")

        let json = CapturedOutput.run(["check", path, "--json"] + keyArgs)
        #expect(json.status == 1)
        let document = try JSONValue.parse(json.output.stdout)
        #expect(document["diagnosis"] == .string(c.kind.rawValue), "\(json.output.stdout)")
        #expect(document["ok"] == .bool(false))
        #expect(document["evidence"]?["file size"] != nil)

        // Every other command's one-line error says the same (damage keeps the reader's own words).
        if c.kind != .damaged {
            let export = CapturedOutput.run(
                ["export", path, "--out", dir.appendingPathComponent("out").path] + keyArgs)
            #expect(export.status == 1)
            #expect(export.output.stderr.contains(c.message), "\(export.output.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aSoundFileIsOkInJSONToo() throws {
        let json = CapturedOutput.run(["check", Self.encrypted, "--json", "--encryption-key", Self.keyA])
        #expect(json.status == 0, "\(json.output.stdout)")
        let document = try JSONValue.parse(json.output.stdout)
        #expect(document["ok"] == .bool(true))
        #expect(document["diagnosis"] == .string("ok"))
        #expect(document["evidence"]?["page 0 HMAC"] == .string("matches"))
        let tmp = try TemporaryFolder("cmd")
        let db = tmp.path("x.porter")
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let porter = CapturedOutput.run(["check", db, "--json"])
        #expect(porter.status == 0, "\(porter.output.stdout)")
        #expect(try JSONValue.parse(porter.output.stdout)["kind"] == .string("porter"))
        // A Porter database handed to the Realm diagnosis is named for what it is.
        #expect(RealmFileDiagnosis.diagnose(path: db).message.contains("a SQLite database"))
    }

    @Test func everyFormatNamesTheSDKsThatWriteIt() {
        #expect(RealmFileDiagnosis.writers(ofFormat: 22).contains("Realm Swift 10.8–10.34"))
        #expect(RealmFileDiagnosis.writers(ofFormat: 23).contains("Realm Swift 10.35–10.48"))
        #expect(RealmFileDiagnosis.writers(ofFormat: 24).contains("Realm Swift 10.49"))
        #expect(RealmFileDiagnosis.writers(ofFormat: 9).contains("realm-core 5"))
    }

    func hexKey(_ hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
        }
    }
}
