import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter verify SOURCE TARGET`: every output Porter makes of a Realm file verifies against it,
/// and a difference planted in each kind of copy (a changed value, a missing object, an extra
/// object, a dangling link) is found and named in the first line, with exit code 1.
@Suite struct VerifyCommandTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")
    static let realmFiles = ["every-type.realm", "inner-nodes.realm"].map { realmDir.appendingPathComponent($0).path }
    static let everyType = realmDir.appendingPathComponent("every-type.realm").path
    static let targetKinds = ["sqlite", "bson", "json", "ejson-canonical", "csv", "porter", "realm"]
    static let encryptedKey = (100..<164).map { String(format: "%02x", $0) }.joined()

    /// Makes the copy of `source` of one kind in `dir` with Porter's own commands; returns its path.
    static func makeCopy(_ kind: String, of source: String, in dir: TemporaryFolder, key: [String] = []) throws
        -> String
    {
        let arguments: [String]
        let path: String
        switch kind {
        case "porter":
            path = dir.path("copy.porter")
            arguments = ["import", path, source, "--create", "--quiet"] + key
        case "sqlite", "realm":
            path = dir.path("copy.\(kind)")
            arguments = ["export", source, "--format", kind, "--out", path, "--quiet"] + key
        default:
            path = dir.path("copy-\(kind)")
            arguments = ["export", source, "--format", kind, "--out", path, "--quiet"] + key
        }
        let made = CapturedOutput.run(arguments)
        try #require(made.status == 0, "\(kind): \(made.output.stderr)")
        return path
    }

    /// Every file below `path` (or the file itself), with its size and modification time.
    static func snapshot(_ path: String) -> [String] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var out: [String] = []
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: folder))?.sorted() ?? [] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            out.append("\(name) \(attributes?[.size] ?? 0) \(attributes?[.modificationDate] ?? "")")
        }
        return out
    }

    static func verify(_ source: String, _ target: String, _ extra: [String] = []) -> (
        status: Int32, out: [String], err: String
    ) {
        let run = CapturedOutput.run(["verify", source, target] + extra)
        return (run.status, run.output.stdout.split(separator: "\n").map(String.init), run.output.stderr)
    }

    @Test(arguments: realmFiles, targetKinds)
    func everyCopyVerifies(_ source: String, _ kind: String) throws {
        let dir = try TemporaryFolder("verify")
        let copy = try Self.makeCopy(kind, of: source, in: dir)
        let before = (Self.snapshot(source), Self.snapshot(copy))
        let result = Self.verify(source, copy)
        #expect(result.status == 0, "\(kind): \(result.out) \(result.err)")
        #expect(result.out.last?.hasPrefix("verified: ") == true, "\(result.out)")
        #expect(result.out.first?.hasPrefix("class ") == true, "\(result.out)")
        #expect((Self.snapshot(source), Self.snapshot(copy)) == before, "something was written beside a file")
        // And the other way round: the copy as SOURCE.
        let back = Self.verify(copy, source)
        #expect(back.status == 0, "\(kind) as source: \(back.out) \(back.err)")
    }

    /// The Realm files of `../shared/realm-files` (unencrypted) against three kinds of copy.
    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: SQLiteExportTests.sharedRealmFiles, ["sqlite", "bson", "realm"])
    func sharedRealmFilesVerify(_ source: String, _ kind: String) throws {
        let dir = try TemporaryFolder("verify")
        let copy = try Self.makeCopy(kind, of: source, in: dir)
        let result = Self.verify(source, copy)
        #expect(result.status == 0, "\(source) \(kind): \(result.out) \(result.err)")
    }

    /// An encrypted copy: `--target-encryption-key`.
    @Test func anEncryptedTargetVerifiesWithItsKey() throws {
        let dir = try TemporaryFolder("verify")
        let key = String(repeating: "5a", count: 64)
        let copy = dir.path("copy.realm")
        let made = CapturedOutput.run([
            "export", Self.everyType, "--format", "realm", "--out", copy, "--out-encryption-key", key, "--quiet",
        ])
        try #require(made.status == 0, "\(made.output.stderr)")
        let result = Self.verify(Self.everyType, copy, ["--target-encryption-key", key])
        #expect(result.status == 0, "\(result.out) \(result.err)")
        let keyless = Self.verify(Self.everyType, copy)
        #expect(keyless.status == 1)
        #expect(keyless.err.contains("--encryption-key"), "\(keyless.err)")
    }

    @Test func dateNotesSayWhatTheFormatKeeps() throws {
        let dir = try TemporaryFolder("verify")
        for (kind, floors) in [("bson", true), ("ejson-canonical", true), ("json", false), ("sqlite", false)] {
            let copy = try Self.makeCopy(kind, of: Self.everyType, in: dir)
            let result = Self.verify(Self.everyType, copy)
            #expect(result.status == 0, "\(kind): \(result.out)")
            #expect(
                result.out.contains { $0.hasPrefix("note: dates compared to the millisecond") } == floors, "\(kind)")
        }
    }

    @Test func jsonReport() throws {
        let dir = try TemporaryFolder("verify")
        let copy = try Self.makeCopy("sqlite", of: Self.everyType, in: dir)
        let result = Self.verify(Self.everyType, copy, ["--json"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.out.joined().utf8)) as? [String: Any]
        #expect(json?["passed"] as? Bool == true)
        let classes = json?["classes"] as? [[String: Any]] ?? []
        #expect(classes.map { $0["class"] as? String } == ["Every", "NoPk", "Target"])
        #expect(classes.first?["matched"] as? Int == 3)
    }

    // MARK: planted differences

    static func sql(_ path: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, statement]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "sqlite3 \(statement)")
    }

    /// Rewrites the lines of a dump file.
    static func editLines(_ path: String, _ edit: ([String]) -> [String]) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // `\r\n` (CSV) is one Character: split on newlines, not on "\n".
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        try (edit(lines).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static let changed = "Every[_id=-5].int: source 0, target 42"
    static let missing = "Every[_id=-5]: missing in the target"
    static let extra = "Target[name='t3']: in the target only, not in the source"

    /// Plants `difference` in the copy of one kind and checks the first line and the exit code.
    static func expectFound(_ kind: String, _ difference: String, firstLine: String) throws {
        let dir = try TemporaryFolder("verify")
        var copy: String
        switch kind {
        case "realm":
            // A Realm copy made from a Porter database the difference was planted in.
            let db = try makeCopy("porter", of: everyType, in: dir)
            try plant("porter", difference, in: db)
            copy = dir.path("planted.realm")
            // --skip-check: a deleted object's collection rows stay behind (the Realm file holds none).
            let made = CapturedOutput.run(["export", db, "--format", "realm", "--out", copy, "--quiet", "--skip-check"])
            try #require(made.status == 0, "\(made.output.stderr)")
        default:
            copy = try makeCopy(kind, of: everyType, in: dir)
            try plant(kind, difference, in: copy)
        }
        let before = (snapshot(everyType), snapshot(copy))
        let result = verify(everyType, copy)
        #expect(result.status == 1, "\(kind) \(difference): \(result.out) \(result.err)")
        let first = result.out.first ?? result.err
        #expect(first.contains(firstLine), "\(kind) \(difference): \(first) | \(result.err)")
        #expect((snapshot(everyType), snapshot(copy)) == before, "something was written beside a file")
    }

    static func plant(_ kind: String, _ difference: String, in copy: String) throws {
        switch (kind, difference) {
        case ("sqlite", "changed"): try sql(copy, "UPDATE Every SET \"int\" = 42 WHERE _id = -5")
        case ("sqlite", "missing"): try sql(copy, "DELETE FROM Every WHERE _id = -5")
        case ("sqlite", "extra"): try sql(copy, "INSERT INTO Target VALUES ('t3', 3)")
        case ("sqlite", "dangling"): try sql(copy, "UPDATE Every SET target = 'nobody' WHERE _id = 1")
        case ("porter", "changed"): try sql(copy, "UPDATE class_Every SET \"int\" = 42 WHERE _id = -5")
        case ("porter", "missing"): try sql(copy, "DELETE FROM class_Every WHERE _id = -5")
        case ("porter", "extra"): try sql(copy, "INSERT INTO class_Target(name, n) VALUES ('t3', 3)")
        case ("porter", "dangling"): try sql(copy, "UPDATE class_Every SET target = 999 WHERE _id = 1")
        case ("json", "changed"):
            try editLines(copy + "/Every.json") { lines in
                lines.map {
                    $0.hasPrefix("{\"_id\":-5,") ? $0.replacingOccurrences(of: "\"int\":0,", with: "\"int\":42,") : $0
                }
            }
        case ("json", "missing"): try editLines(copy + "/Every.json") { $0.filter { !$0.hasPrefix("{\"_id\":-5,") } }
        case ("json", "extra"): try editLines(copy + "/Target.json") { $0 + ["{\"name\":\"t3\",\"n\":3}"] }
        case ("json", "dangling"):
            try editLines(copy + "/Every.json") { lines in
                lines.map {
                    $0.hasPrefix("{\"_id\":1,")
                        ? $0.replacingOccurrences(of: "\"target\":\"t1\"", with: "\"target\":\"nobody\"") : $0
                }
            }
        case ("json", "nanosecond"):
            try editLines(copy + "/Every.json") { lines in
                lines.map { $0.replacingOccurrences(of: "59.999999999Z", with: "59.999999998Z") }
            }
        case ("csv", "changed"):
            try editLines(copy + "/Target.csv") { $0.map { $0 == "t1,1" ? "t1,5" : $0 } }
        case ("csv", "missing"): try editLines(copy + "/NoPk.csv") { $0 + ["7,70,new"] }
        case ("csv", "extra"): try editLines(copy + "/Target.csv") { $0 + ["t3,3"] }
        default: Issue.record("no way to plant \(difference) in \(kind)")
        }
    }

    @Test(arguments: ["sqlite", "json", "porter", "realm"])
    func aChangedValueIsNamed(_ kind: String) throws { try Self.expectFound(kind, "changed", firstLine: Self.changed) }

    @Test(arguments: ["sqlite", "json", "porter", "realm"])
    func aMissingObjectIsNamed(_ kind: String) throws { try Self.expectFound(kind, "missing", firstLine: Self.missing) }

    @Test(arguments: ["sqlite", "json", "porter", "realm"])
    func anExtraObjectIsNamed(_ kind: String) throws { try Self.expectFound(kind, "extra", firstLine: Self.extra) }

    /// Plain JSON keeps nanoseconds: a date one nanosecond off is a difference (only BSON and
    /// Extended JSON sides make dates compare to the millisecond).
    @Test func aNanosecondOffInPlainJSONIsNamed() throws {
        try Self.expectFound(
            "json", "nanosecond",
            firstLine: "Every[_id=1].date: source 1969-12-31T23:59:59.999999999Z, target 1969-12-31T23:59:59.999999998Z"
        )
    }

    /// A CSV dump: a changed value, an object only in the target (with and without a primary key).
    @Test func differencesInACSVDumpAreNamed() throws {
        try Self.expectFound("csv", "changed", firstLine: "Target[name='t1'].n: source 1, target 5")
        try Self.expectFound("csv", "missing", firstLine: "NoPk[_key=7]: in the target only, not in the source")
        try Self.expectFound("csv", "extra", firstLine: Self.extra)
    }

    /// A link to nothing cannot be read back: the error names the file, object and field (or, in
    /// a Porter database, the class and the missing object). A Realm copy cannot hold one: Porter
    /// refuses to write it.
    @Test(arguments: [
        ("sqlite", "copy.sqlite:Every#1:target: link to a missing object: no Target with primary key 'nobody'"),
        ("json", "Every.json:1:target: link to a missing object: no Target with primary key 'nobody'"),
        ("porter", "Every: a stored link points to Target(999), which does not exist"),
    ])
    func aDanglingLinkIsNamed(_ kind: String, _ message: String) throws {
        try Self.expectFound(kind, "dangling", firstLine: message)
    }

    /// A SQLite export whose table lost its primary key and holds one object twice: read in place,
    /// the duplicate is found by the comparison's own key check, named with the class and side.
    @Test func aKeyTwiceInASQLiteExportIsAnError() throws {
        let dir = try TemporaryFolder("verify")
        let copy = try Self.makeCopy("sqlite", of: Self.everyType, in: dir)
        try Self.sql(
            copy,
            "CREATE TABLE T2 AS SELECT * FROM Target; DROP TABLE Target; ALTER TABLE T2 RENAME TO Target; INSERT INTO Target SELECT * FROM Target WHERE name = 't1'"
        )
        let result = Self.verify(Self.everyType, copy)
        #expect(result.status == 1)
        #expect(result.out.isEmpty, "\(result.out)")
        #expect(result.err.contains("class Target of the target holds two objects with one key"), "\(result.err)")
    }

    // MARK: errors

    @Test func wrongKeyForAnEncryptedSource() throws {
        let dir = try TemporaryFolder("verify")
        let encrypted = Self.realmDir.appendingPathComponent("every-type-encrypted.realm").path
        let copy = try Self.makeCopy("sqlite", of: encrypted, in: dir, key: ["--encryption-key", Self.encryptedKey])
        let right = Self.verify(encrypted, copy, ["--encryption-key", Self.encryptedKey])
        #expect(right.status == 0, "\(right.out) \(right.err)")
        let wrongKey = String(repeating: "ab", count: 64)
        let wrong = Self.verify(encrypted, copy, ["--encryption-key", wrongKey])
        #expect(wrong.status == 1)
        #expect(wrong.out.isEmpty)
        #expect(wrong.err.split(separator: "\n").count == 1, "\(wrong.err)")
        #expect(wrong.err.hasPrefix("porter: error: "), "\(wrong.err)")
    }

    @Test func aMissingTargetIsAnError() throws {
        let dir = try TemporaryFolder("verify")
        let result = Self.verify(Self.everyType, dir.path("nothing.sqlite"))
        #expect(result.status == 1)
        #expect(result.err.contains("no such file or folder (the target)"), "\(result.err)")
        #expect(dir.listing.isEmpty)
    }

    @Test func argumentErrorsExit64() {
        #expect(CapturedOutput.run(["verify", Self.everyType]).status == 64)
        #expect(
            CapturedOutput.run(["verify", Self.everyType, Self.everyType, "--target-encryption-key", "zz"]).status == 64
        )
    }

    /// The binary: exit code 1, the difference first on stdout, and its temporary folder gone.
    @Test(.enabled(if: PorterExecutable.url != nil, "the porter binary was not built"))
    func theBinaryExitsOneAndLeavesNoTemporaryFolder() throws {
        let dir = try TemporaryFolder("verify")
        let copy = try Self.makeCopy("sqlite", of: Self.everyType, in: dir)
        try Self.plant("sqlite", "changed", in: copy)
        let process = Process()
        process.executableURL = try PorterExecutable.locate()
        process.arguments = ["verify", Self.everyType, copy]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(Self.changed + "\n"))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
        #expect(!leftovers.contains { $0.hasPrefix("porter-realm-\(process.processIdentifier)-") })
    }
}
