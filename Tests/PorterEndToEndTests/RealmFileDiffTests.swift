import Foundation
import PorterTestSupport
import Testing

/// `porter diff app.realm new.json` reads the data facts from the Realm file itself: no copy into
/// a temporary database, nothing written beside the file or under the temporary folder.
@Suite struct RealmFileDiffTests {
    static let fixture = PorterBinary.fixtures.appendingPathComponent("realm/column-migration/column-migration.realm")
    static let schema = PorterBinary.fixtures.appendingPathComponent(
        "realm/column-migration/column-migration.v3.json")

    /// The v3 schema with `Person.name` retyped to `int` (every value unconvertible), `Person.nick`
    /// made required (null values block it) and `Person.age` made the primary key (ages repeat).
    static func changedSchema() throws -> String {
        var text = try String(contentsOf: schema, encoding: .utf8)
        for (old, new) in [
            (#""type": "string",\#n          "indexed": true"#, #""type": "int",\#n          "indexed": true"#),
            (#""nick": "string?""#, #""nick": "string""#),
            (#""primaryKey": "_id""#, #""primaryKey": "age""#),
        ] {
            #expect(text.contains(old), "the v3 schema changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    /// The key `column-migration-encrypted.realm` was made with: bytes 100…163, in hex.
    static let encryptionKey = (100..<164).map { String(format: "%02x", $0) }.joined()

    /// The names in a folder.
    static func listing(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func diffOfARealmFileWritesNothingAnywhere() throws {
        let folder = try TemporaryFolder("diff-realm")
        let realm = folder.path("app.realm"), v4 = folder.path("v4.json")
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: realm)
        try Self.changedSchema().write(toFile: v4, atomically: true, encoding: .utf8)
        let before = try Self.listing(folder.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: realm))
        // A temporary folder that does not exist: any temporary file or database would fail the
        // command (the copy diff made before could not be created there).
        let environment = ["TMPDIR": folder.path("no-such-folder")]
        for format in ["text", "json"] {
            let run = try PorterBinary.run(
                ["diff", realm, v4, "--format", format, "--exit-code"], environment: environment)
            #expect(run.status == 2, "\(format): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            // The data facts are there: values the retyping loses (named by the file's objects),
            // nulls blocking the required property, duplicates blocking the primary key.
            #expect(run.stdout.contains("Person("), "\(run.stdout)")
            #expect(run.stdout.contains("null"), "\(run.stdout)")
            #expect(run.stdout.contains("duplicate"), "\(run.stdout)")
        }
        #expect(try Self.listing(folder.path) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == bytes)
    }

    @Test func diffOfAnEncryptedRealmFileWritesNothingEither() throws {
        let folder = try TemporaryFolder("diff-realm-encrypted")
        let realm = folder.path("app.realm"), v4 = folder.path("v4.json")
        try FileManager.default.copyItem(
            atPath: Self.fixture.deletingLastPathComponent().appendingPathComponent("column-migration-encrypted.realm")
                .path,
            toPath: realm)
        try Self.changedSchema().write(toFile: v4, atomically: true, encoding: .utf8)
        let before = try Self.listing(folder.path)
        let plain = try PorterBinary.run(["diff", Self.fixture.path, v4])
        let run = try PorterBinary.run(
            ["diff", realm, v4, "--encryption-key", Self.encryptionKey],
            environment: ["TMPDIR": folder.path("no-such-folder")])
        #expect(run.status == 0, "\(run.stderr)")
        // The same report as the plain file's (same objects), apart from the file's name.
        #expect(
            run.stdout.replacingOccurrences(of: realm, with: "F")
                == plain.stdout.replacingOccurrences(of: Self.fixture.path, with: "F"))
        #expect(try Self.listing(folder.path) == before)
    }
}
