import Foundation
import PorterTestSupport
import PorterCommands
import Testing

/// The commands on real Realm files (Fixtures/realm: files written by realm-core and the SDKs,
/// and files made with realm-core 14.14.0 through the realm-oracle tool, with its dumps).
@Suite struct RealmFileCommandsTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")

    /// A fixture file, its key (hex) when encrypted, and its realm-core dump when there is one.
    struct Fixture: CustomStringConvertible, Sendable {
        var path: String
        var keyHex: String?
        var dump: String?
        var description: String { URL(fileURLWithPath: path).lastPathComponent }
        var keyArguments: [String] { keyHex.map { ["--encryption-key", $0] } ?? [] }
    }

    static let keyZeroTo63 = (0..<64).map { String(format: "%02x", $0) }.joined()
    static let key100To163 = (100..<164).map { String(format: "%02x", $0) }.joined()

    static func at(_ name: String) -> String { realmDir.appendingPathComponent(name).path }

    /// The fixtures in the repository, read everywhere.
    static let ownFixtures: [Fixture] = [
        Fixture(path: at("every-type.realm"), dump: at("every-type.expected.json")),
        Fixture(
            path: at("every-type-encrypted.realm"), keyHex: key100To163,
            dump: at("every-type-encrypted.expected.json")),
        Fixture(path: at("inner-nodes.realm"), dump: at("inner-nodes.expected.json")),
    ]

    /// Real files of other projects in `../shared/realm-files`; their tests are separate, so that
    /// where the folder is absent they are reported as skipped with the reason, never dropped.
    static let sharedFixtures: [Fixture] = [
        Fixture(
            path: SharedRealmFiles.path("dev-encrypted-realm-docs.realm"), keyHex: keyZeroTo63,
            dump: at("dev-encrypted-realm-docs.expected.json")),
        Fixture(
            path: SharedRealmFiles.path("js-bundled.realm"), dump: SharedRealmFiles.path("js-bundled.expected.json")
        ),
        Fixture(
            path: SharedRealmFiles.path("js-simple.realm"), dump: SharedRealmFiles.path("js-simple.expected.json")),
        Fixture(
            path: SharedRealmFiles.path("swift-migration-default-v5.realm"),
            dump: SharedRealmFiles.path("swift-migration-default-v5.expected.json")),
        Fixture(path: SharedRealmFiles.path("core-upgrade-20.realm")),
        Fixture(path: SharedRealmFiles.path("core-upgrade-1000-22.realm")),
        Fixture(path: SharedRealmFiles.path("core-upgrade-1000-23.realm")),
        Fixture(path: SharedRealmFiles.path("core-sync-client-history-011.realm")),
    ]

    /// Exporting a Realm file gives, byte for byte, the export of a Porter database holding the
    /// same objects (imported from that file), in every format.
    @Test(arguments: ownFixtures)
    func realmExportEqualsTheExportOfTheSameObjectsInAPorterDatabase(_ fixture: Fixture) throws {
        try Self.expectRealmExportEqualsPorterExport(fixture)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"), arguments: sharedFixtures)
    func sharedRealmExportEqualsTheExportOfTheSameObjectsInAPorterDatabase(_ fixture: Fixture) throws {
        try Self.expectRealmExportEqualsPorterExport(fixture)
    }

    static func expectRealmExportEqualsPorterExport(_ fixture: Fixture) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let db = dir.appendingPathComponent("copy.porter").path
        let schema = dir.appendingPathComponent("schema.json").path
        let printed = CapturedOutput.run(["schema", fixture.path] + fixture.keyArguments)
        #expect(printed.status == 0, "\(printed.output.stderr)")
        try Data(printed.output.stdout.utf8).write(to: URL(fileURLWithPath: schema))
        #expect(CapturedOutput.run(["create", db, "--schema", schema]).status == 0)
        let imported = CapturedOutput.run(["import", db, fixture.path] + fixture.keyArguments)
        #expect(imported.status == 0, "\(imported.output.stderr)")
        for format in ["bson", "ejson", "ejson-canonical", "json"] {
            let fromRealm = dir.appendingPathComponent("realm-\(format)").path
            let fromPorter = dir.appendingPathComponent("porter-\(format)").path
            let a = CapturedOutput.run(
                ["export", fixture.path, "--out", fromRealm, "--format", format] + fixture.keyArguments)
            let b = CapturedOutput.run(["export", db, "--out", fromPorter, "--format", format])
            #expect(a.status == 0 && b.status == 0, "\(a.output.stderr) \(b.output.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: fromRealm).sorted()
            #expect(files == (try FileManager.default.contentsOfDirectory(atPath: fromPorter).sorted()))
            for file in files {
                let x = try Data(contentsOf: URL(fileURLWithPath: fromRealm + "/" + file))
                let y = try Data(contentsOf: URL(fileURLWithPath: fromPorter + "/" + file))
                #expect(x == y, "\(fixture) \(format) \(file) differs")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
    }

    /// `porter export` of each file equals realm-core's own dump of it, compared as documents:
    /// numbers by value, dates to the millisecond (BSON's unit), sets as multisets.
    @Test(arguments: ownFixtures.filter { $0.dump != nil })
    func exportEqualsRealmCoresDump(_ fixture: Fixture) throws {
        try Self.expectExportEqualsRealmCoresDump(fixture)
    }

    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: sharedFixtures.filter { $0.dump != nil })
    func sharedExportEqualsRealmCoresDump(_ fixture: Fixture) throws {
        try Self.expectExportEqualsRealmCoresDump(fixture)
    }

    static func expectExportEqualsRealmCoresDump(_ fixture: Fixture) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let out = dir.appendingPathComponent("out").path
        let run = CapturedOutput.run(
            ["export", fixture.path, "--out", out, "--format", "ejson-canonical"] + fixture.keyArguments)
        #expect(run.status == 0, "\(run.output.stderr)")
        let dump = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.dump!)))
                as? [String: Any])
        let objects = try #require(dump["objects"] as? [String: [Any]])
        let setFields = Self.setFields(dump)
        for (className, documents) in objects {
            let file = out + "/\(className).json"
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            let exported = try lines.map {
                try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed])
            }
            let left = exported.map { NormalJSON($0, sets: setFields, className: className) }.sorted {
                $0.text < $1.text
            }
            let right = documents.map { NormalJSON($0, sets: setFields, className: className) }.sorted {
                $0.text < $1.text
            }
            #expect(left.count == right.count, "\(fixture) \(className)")
            for (a, b) in zip(left, right) where a != b {
                Issue.record("\(fixture) \(className): exported \(a.text) but realm-core dumps \(b.text)")
                break
            }
        }
    }

    /// Class name -> names of its set properties, from the dump's schema (embedded classes too).
    static func setFields(_ dump: [String: Any]) -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        let classes = ((dump["schema"] as? [String: Any])?["classes"] as? [[String: Any]]) ?? []
        for cls in classes {
            guard let name = cls["name"] as? String, let properties = cls["properties"] as? [String: Any] else {
                continue
            }
            var fields: [String: String] = [:]
            for (property, type) in properties {
                let shorthand = (type as? String) ?? ((type as? [String: Any])?["type"] as? String) ?? ""
                // The element class of an embedded or link property, "<>" for sets.
                fields[property] = shorthand
            }
            out[name] = fields
        }
        return out
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func inspectSaysWhatTheFileIs()
        throws
    {
        let shared = SharedRealmFiles.folder
        let swift = CapturedOutput.run([
            "inspect", shared.appendingPathComponent("swift-migration-default-v5.realm").path,
        ])
        #expect(swift.status == 0)
        for line in [
            "File format: 20 (realm-core 10, Realm Swift 10.0–10.7)", "Schema version: 5", "History: local (in-realm)",
            "File size: 4096 bytes", "Internal tables skipped: metadata",
        ] {
            #expect(swift.output.stdout.contains(line), "\(line) missing in \(swift.output.stdout)")
        }
        #expect(swift.output.stdout.contains("Address          1 objects (embedded)"))
        #expect(swift.output.stdout.contains("Person           3 objects"))
        let synced = CapturedOutput.run([
            "inspect", shared.appendingPathComponent("core-sync-client-history-011.realm").path,
        ])
        #expect(synced.output.stdout.contains("History: sync client (synced realm; history not read)"))
        #expect(synced.output.stdout.contains("File format: 22"))
        let encrypted = CapturedOutput.run([
            "inspect", shared.appendingPathComponent("dev-encrypted-realm-docs.realm").path, "--encryption-key",
            Self.keyZeroTo63,
        ])
        #expect(encrypted.status == 0, "\(encrypted.output.stderr)")
        #expect(encrypted.output.stdout.contains("Encrypted: yes"))
        #expect(encrypted.output.stdout.contains("File format: 24"))
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func schemaReportsBacklinksAndModelsNameThem() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let file = SharedRealmFiles.folder.appendingPathComponent("swift-migration-default-v5.realm").path
        let bare = CapturedOutput.run(["schema", file])
        #expect(bare.status == 0)
        #expect(
            bare.output.stderr.contains(
                #"note: Pet is linked from Person.pets: declare {"type": "linkingObjects", "objectType": "Person", "property": "pets"} in --models to name it"#
            ))
        let models = dir.appendingPathComponent("models.json")
        try Data(
            #"{"classes": [{"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string", "residents": {"type": "linkingObjects", "objectType": "Person", "property": "address"}}}, {"name": "Pet", "properties": {"name": {"type": "string", "default": "Rex"}, "kind": "int"}}]}"#
                .utf8
        ).write(to: models)
        let named = CapturedOutput.run(["schema", file, "--models", models.path])
        #expect(named.status == 0, "\(named.output.stderr)")
        #expect(named.output.stdout.contains(#""residents": {"#))
        #expect(named.output.stdout.contains(#""default": "Rex""#))
        #expect(!named.output.stderr.contains("Address is linked from"))
        #expect(named.output.stderr.contains("Pet is linked from Person.pets"))
    }

    @Test(arguments: ownFixtures)
    func checkPassesOnEveryFixture(_ fixture: Fixture) { Self.expectCheckPasses(fixture) }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"), arguments: sharedFixtures)
    func checkPassesOnEverySharedFile(_ fixture: Fixture) { Self.expectCheckPasses(fixture) }

    static func expectCheckPasses(_ fixture: Fixture) {
        let run = CapturedOutput.run(["check", fixture.path] + fixture.keyArguments)
        #expect(run.status == 0, "\(run.output.stdout) \(run.output.stderr)")
        #expect(run.output.stdout == "ok")
    }

    /// Refusals: one line naming the file, exit code 1, the file unchanged, nothing beside it.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func brokenAndEncryptedFilesAreRefusedUntouched() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let source = SharedRealmFiles.folder.appendingPathComponent("dev-encrypted-realm-docs.realm")
        let encrypted = dir.appendingPathComponent("app.realm")
        try FileManager.default.copyItem(at: source, to: encrypted)
        let plain = Self.realmDir.appendingPathComponent("every-type.realm")
        let truncated = dir.appendingPathComponent("truncated.realm")
        try Data(try Data(contentsOf: plain).prefix(4000)).write(to: truncated)
        let wrongKey = String(repeating: "ab", count: 64)
        let cases: [([String], String)] = [
            (
                ["inspect", encrypted.path],
                "\(encrypted.path): not a Porter or Realm file, unless it is an encrypted Realm file as its layout suggests (no \"T-DB\" header, size a multiple of 4096, an IV table on page 0): pass --encryption-key"
            ),
            (
                ["export", encrypted.path, "--out", dir.appendingPathComponent("out").path],
                "\(encrypted.path): not a Porter or Realm file, unless it is an encrypted Realm file as its layout suggests (no \"T-DB\" header, size a multiple of 4096, an IV table on page 0): pass --encryption-key"
            ),
            (
                ["inspect", encrypted.path, "--encryption-key", wrongKey],
                "\(encrypted.path): the wrong encryption key: the HMAC of the first page matches neither of its two stored HMACs (or the first page is damaged)"
            ),
            (
                ["inspect", encrypted.path, "--encryption-key", "abc"],
                "--encryption-key: expected 128 hex digits (a 64-byte key), got 3 characters"
            ),
            (
                ["inspect", encrypted.path, "--encryption-key", String(repeating: "zz", count: 64)],
                "--encryption-key: 'zz' at position 1 is not hex"
            ),
            (
                ["inspect", plain.path, "--encryption-key", Self.keyZeroTo63],
                "\(plain.path): this Realm file is not encrypted: drop --encryption-key"
            ),
        ]
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let bytes = try Data(contentsOf: encrypted)
        for (arguments, message) in cases {
            let run = CapturedOutput.run(arguments)
            // Errors of the arguments alone (no file named) exit 64 through ArgumentParser's validation.
            let usage = message.hasPrefix("--") || message.hasPrefix("The value")
            #expect(run.status == (usage ? 64 : 1), "\(arguments)")
            #expect(run.output.stderr == (usage ? message : "porter: error: \(message)"), "\(arguments)")
        }
        for command in [
            ["inspect"], ["schema"], ["check"], ["export", "--out", dir.appendingPathComponent("out").path],
        ] {
            let run = CapturedOutput.run([command[0], truncated.path] + command.dropFirst())
            #expect(run.status == 1, "\(command)")
            #expect(
                run.output.stderr.hasPrefix("porter: error: \(truncated.path): "), "\(command): \(run.output.stderr)")
            #expect(!run.output.stderr.contains("\n"), "\(command): \(run.output.stderr)")
        }
        #expect(try Data(contentsOf: encrypted) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == listing)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func aKeyFileHoldsRawBytesOrHex()
        throws
    {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let file = SharedRealmFiles.folder.appendingPathComponent("dev-encrypted-realm-docs.realm").path
        let raw = dir.appendingPathComponent("key.bin")
        try Data((0..<64).map { UInt8($0) }).write(to: raw)
        let hex = dir.appendingPathComponent("key.txt")
        try Data((Self.keyZeroTo63 + "\n").utf8).write(to: hex)
        for keyFile in [raw, hex] {
            let run = CapturedOutput.run(["inspect", file, "--encryption-key-file", keyFile.path])
            #expect(run.status == 0, "\(run.output.stderr)")
        }
        let both = CapturedOutput.run([
            "inspect", file, "--encryption-key-file", raw.path, "--encryption-key", Self.keyZeroTo63,
        ])
        #expect(both.status == 64)
        #expect(both.output.stderr == "pass --encryption-key or --encryption-key-file, not both")
    }

    /// A Realm file as an import source is all or nothing like any other.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func importFromARealmFileIsAllOrNothing() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("app.porter").path
        let schema = dir.appendingPathComponent("schema.json")
        // Person without Pet: the Realm file's Pet objects have nowhere to go.
        try Data(
            #"{"schemaVersion": 5, "classes": [{"name": "Person", "properties": {"fullName": "string", "age": "int"}}]}"#
                .utf8
        ).write(to: schema)
        #expect(CapturedOutput.run(["create", db, "--schema", schema.path]).status == 0)
        let file = SharedRealmFiles.folder.appendingPathComponent("swift-migration-default-v5.realm").path
        let run = CapturedOutput.run(["import", db, file])
        #expect(run.status == 1)
        #expect(
            run.output.stderr.contains("class 'Pet' of the Realm file is not in the database's schema"),
            "\(run.output.stderr)")
        let inspect = CapturedOutput.run(["inspect", db])
        #expect(inspect.output.stdout.contains("Person          0 objects"), "\(inspect.output.stdout)")
    }

    /// Options that do not fit the files they are given: one line, exit code 1, nothing written.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func optionsThatDoNotApplyAreRefused() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let realm = SharedRealmFiles.folder.appendingPathComponent("js-simple.realm").path
        let db = dir.appendingPathComponent("app.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let app = dir.appendingPathComponent("app.realm").path
        try FileManager.default.copyItem(atPath: realm, toPath: app)
        let before = try Data(contentsOf: URL(fileURLWithPath: app))
        let out = dir.appendingPathComponent("out.realm").path
        let cases: [([String], String)] = [
            (
                ["export", db, "--format", "realm", "--out", out, "--gzip"],
                "--gzip does not apply to --format realm (a Realm file holds every class)"
            ),
            (
                ["export", db, "--format", "realm", "--out", out, "--class", "Dog"],
                "--class does not apply to --format realm (a Realm file holds every class)"
            ),
            (
                ["export", db, "--format", "realm", "--out", "-"],
                "--format realm writes one file: pass --out FILE.realm"
            ),
            (
                ["create", out, "--schema", TestFiles.schema, "--format", "sqlite"],
                "The value 'sqlite' is invalid for '--format <format>'. Please provide one of 'porter' and 'realm'."
            ),
            (
                ["create", out, "--schema", TestFiles.schema, "--encryption-key", Self.keyZeroTo63],
                "--encryption-key applies to --format realm"
            ),
            (
                ["import", app, db, "--schema", TestFiles.schema],
                "\(app): --schema does not apply to a Realm file: change its schema with 'porter migrate'"
            ),
            (
                ["inspect", db, "--encryption-key", Self.keyZeroTo63],
                "\(db): --encryption-key applies to Realm files; this is a Porter database"
            ),
        ]
        for (arguments, message) in cases {
            let run = CapturedOutput.run(arguments)
            // Errors of the arguments alone (no file named) exit 64 through ArgumentParser's validation.
            let usage = message.hasPrefix("--") || message.hasPrefix("The value")
            #expect(run.status == (usage ? 64 : 1), "\(arguments)")
            #expect(run.output.stderr == (usage ? message : "porter: error: \(message)"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try Data(contentsOf: URL(fileURLWithPath: app)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["app.porter", "app.realm"])
    }
}

/// A JSON value normalised for comparing an export with realm-core's dump: numbers by value
/// (Extended JSON number wrappers unwrapped), dates in milliseconds, set elements sorted.
struct NormalJSON: Equatable {
    let text: String

    init(_ value: Any, sets: [String: [String: String]], className: String) {
        text = Self.render(value, sets: sets, className: className, property: nil)
    }

    private static func render(_ value: Any, sets: [String: [String: String]], className: String?, property: String?)
        -> String
    {
        switch value {
        case let dict as [String: Any]:
            if let long = dict["$numberLong"] as? String, dict.count == 1 { return "i" + long }
            if let double = dict["$numberDouble"] as? String, dict.count == 1 {
                guard let d = Double(double) else { return "d" + double }
                return d.isNaN ? "dNaN" : "d\(d.bitPattern)"
            }
            if let date = dict["$date"] as? [String: Any], let ms = date["$numberLong"] as? String { return "t" + ms }
            if let decimal = dict["$numberDecimal"] as? String, dict.count == 1 { return "m" + decimal }
            // An embedded object: its fields are of the class its property links to.
            let target = className.flatMap { sets[$0]?[property ?? ""] }.map(elementClass)
            let fields = dict.keys.sorted().map { key -> String in
                let child = render(
                    dict[key]!, sets: sets, className: target ?? (property == nil ? className : nil), property: key)
                return "\(key)=\(child)"
            }
            return "{" + fields.joined(separator: ",") + "}"
        case let array as [Any]:
            let shorthand = className.flatMap { sets[$0]?[property ?? ""] } ?? ""
            let target = elementClass(shorthand)
            var elements = array.map { element -> String in
                // Elements of a list of embedded objects are documents of the element class.
                if element is [String: Any], sets[target] != nil {
                    return render(element, sets: sets, className: target, property: nil)
                }
                return render(element, sets: sets, className: nil, property: nil)
            }
            if shorthand.hasSuffix("<>") { elements.sort() }
            return "[" + elements.joined(separator: ",") + "]"
        case let number as NSNumber:
            if String(describing: type(of: number)).contains("Boolean") { return "b\(number.boolValue)" }
            return "n\(number)"
        case let string as String:
            return "s" + string.debugDescription
        default:
            return "null"
        }
    }

    /// `Inner?`, `Inner[]`, `Inner?{}` -> `Inner`.
    private static func elementClass(_ shorthand: String) -> String {
        var name = shorthand
        for suffix in ["{}", "<>", "[]", "?"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        if name.hasSuffix("?") { name.removeLast() }
        return name
    }
}
