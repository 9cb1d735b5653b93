import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter export --db/--collection/--validators/--app-config` (issue #40): BSON dumps in the
/// namespaces a backend expects, each collection's metadata carrying a `$jsonSchema` validator that
/// every exported document passes (checked by pymongo's BSON reader and the `jsonschema` package,
/// `Tests/MongoCheck/validate_dump.py`), and every refusal.
@Suite struct DumpNamespaceTests {
    static let links = TestFiles.root.appendingPathComponent("Fixtures/realm/written/links.realm").path
    static let app = TestFiles.root.appendingPathComponent("Fixtures/app-config/links-app").path
    /// The Python with pymongo and jsonschema that `make test` prepares (`.build/python-venv`).
    static let python = TestFiles.root.appendingPathComponent(".build/python-venv/bin/python").path
    static let pythonReady: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run(python, ["-c", "import bson, jsonschema"]).status) == 0
    }()
    static let pythonMissing = "needs .build/python-venv with pymongo and jsonschema (make python-mongomock)"

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Python.runProgram(executable, arguments)
    }

    static func metadata(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func databaseCollectionsAndValidatorsByHand() throws {
        let dir = try TemporaryFolder("dump-ns")
        let out = dir.path("dump")
        let result = CapturedOutput.run([
            "export", Self.links, "--out", out, "--db", "app", "--collection", "P=people", "--collection", "D=dogs",
            "--validators",
        ])
        #expect(result.status == 0, "\(result.output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out + "/app").sorted()
        #expect(files == ["dogs.bson", "dogs.metadata.json", "people.bson", "people.metadata.json"])
        let people = try Self.metadata(out + "/app/people.metadata.json")
        #expect(people["collectionName"] as? String == "people")
        let options = try #require(people["options"] as? [String: Any])
        #expect(options["validationLevel"] as? String == "strict")
        let schema = try #require((options["validator"] as? [String: Any])?["$jsonSchema"] as? [String: Any])
        #expect(schema["title"] as? String == "P")
        let properties = try #require(schema["properties"] as? [String: Any])
        // A link to a class without a primary key is its `_key`; an optional one admits null.
        #expect((properties["dog"] as? [String: Any])?["bsonType"] as? [String] == ["long", "null"])
        #expect((properties["tags"] as? [String: Any])?["uniqueItems"] as? Bool == true)
        #expect((properties["e"] as? [String: Any])?["bsonType"] as? [String] == ["object", "null"])
        // Without --validators, the metadata is as before: no options.
        let plain = dir.path("plain")
        #expect(CapturedOutput.run(["export", Self.links, "--out", plain, "--collection", "P=people"]).status == 0)
        #expect(try Self.metadata(plain + "/people.metadata.json")["options"] == nil)
        #expect(FileManager.default.fileExists(atPath: plain + "/D.bson"))
    }

    /// Every document of every Realm file in Fixtures/realm (the unencrypted ones) passes its
    /// collection's validator, read back by pymongo and checked by jsonschema.
    @Test(.enabled(if: pythonReady, "\(pythonMissing)")) func everyExportedDocumentPassesItsValidator() throws {
        let dir = try TemporaryFolder("dump-validate")
        let folder = TestFiles.root.appendingPathComponent("Fixtures/realm")
        var files = try FileManager.default.contentsOfDirectory(atPath: folder.path).map { "Fixtures/realm/" + $0 }
        files += try FileManager.default.contentsOfDirectory(atPath: folder.path + "/written").map {
            "Fixtures/realm/written/" + $0
        }
        var validated = 0
        for file in files.sorted() where file.hasSuffix(".realm") && !file.contains("encrypted") {
            let out = dir.path(URL(fileURLWithPath: file).lastPathComponent)
            let path = TestFiles.root.appendingPathComponent(file).path
            let result = CapturedOutput.run(["export", path, "--out", out, "--db", "app", "--validators"])
            #expect(result.status == 0, "\(file): \(result.output.stderr)")
            guard FileManager.default.fileExists(atPath: out + "/app") else { continue }  // no classes
            let check = try Self.run(Self.python, [TestFiles.root.path + "/Tests/MongoCheck/validate_dump.py", out])
            #expect(check.status == 0, "\(file): \(check.output)")
            validated += check.output.split(separator: "\n").count
        }
        #expect(validated >= 20, "collections validated: \(validated)")
    }

    @Test(.enabled(if: pythonReady, "\(pythonMissing)")) func appConfigPlacesEachClassAndValidates() throws {
        let dir = try TemporaryFolder("dump-app")
        let out = dir.path("dump")
        let result = CapturedOutput.run(["export", Self.links, "--out", out, "--app-config", Self.app])
        #expect(result.status == 0, "\(result.output.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/links/people.bson"))
        #expect(FileManager.default.fileExists(atPath: out + "/kennel/dogs.bson"))
        let check = try Self.run(Self.python, [TestFiles.root.path + "/Tests/MongoCheck/validate_dump.py", out])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.split(separator: "\n").sorted() == ["kennel.dogs 2", "links.people 3"])
        // The archive holds one database: these classes go to two.
        let archive = CapturedOutput.run([
            "export", Self.links, "--archive", dir.path("a.archive"), "--app-config", Self.app,
        ])
        #expect(archive.status == 1)
        #expect(archive.output.stderr.contains("an archive holds one database"))
    }

    /// The import reads such dumps back through the same mapping: the same objects as a round trip
    /// through a plain, class-named dump (`porter verify` of the two databases).
    @Test func importReadsTheDumpBackThroughTheSameMapping() throws {
        let dir = try TemporaryFolder("dump-import")
        let schema = dir.path("schema.json")
        try Data(CapturedOutput.run(["schema", Self.links]).output.stdout.utf8).write(to: URL(fileURLWithPath: schema))
        #expect(CapturedOutput.run(["export", Self.links, "--out", dir.path("plain")]).status == 0)
        let plain = dir.path("plain.porter")
        let imported = CapturedOutput.run(["import", plain, dir.path("plain"), "--create", "--schema", schema])
        #expect(imported.status == 0, "\(imported.output.stderr)")
        let runs: [(export: [String], import: [String])] = [
            (["--app-config", Self.app], ["--app-config", Self.app]),
            (
                ["--db", "app", "--collection", "P=people", "--collection", "D=dogs"],
                ["--collection", "P=people", "--collection", "D=dogs"]
            ),
        ]
        for (index, run) in runs.enumerated() {
            let dump = dir.path("dump\(index)"), copy = dir.path("copy\(index).porter")
            #expect(CapturedOutput.run(["export", Self.links, "--out", dump] + run.export).status == 0)
            let back = CapturedOutput.run(["import", copy, dump, "--create", "--schema", schema] + run.import)
            #expect(back.status == 0, "\(run.import): \(back.output.stderr)")
            let verify = CapturedOutput.run(["verify", plain, copy])
            #expect(verify.status == 0, "\(run.import): \(verify.output.stdout) \(verify.output.stderr)")
            #expect(verify.output.stdout.contains("5 objects in 2 classes match"), "\(verify.output.stdout)")
        }
        // The same mapping read back from a mongodump archive.
        let archive = dir.path("dump.archive"), fromArchive = dir.path("archive.porter")
        let mapping = ["--collection", "P=people", "--collection", "D=dogs"]
        let exported = CapturedOutput.run(["export", Self.links, "--archive=\(archive)", "--db", "app"] + mapping)
        #expect(exported.status == 0, "\(exported.output.stderr)")
        let back = CapturedOutput.run(
            ["import", fromArchive, "--archive=\(archive)", "--create", "--schema", schema] + mapping)
        #expect(back.status == 0, "archive: \(back.output.stderr)")
        let verify = CapturedOutput.run(["verify", plain, fromArchive])
        #expect(verify.output.stdout.contains("5 objects in 2 classes match"), "archive: \(verify.output.stdout)")
        // Without the mapping, the archive's collections name no class: refused, nothing written.
        let unmappedArchive = CapturedOutput.run([
            "import", dir.path("y.porter"), "--archive=\(archive)", "--create", "--schema", schema,
        ])
        #expect(unmappedArchive.status == 1)
        #expect(unmappedArchive.output.stderr.contains("no class named 'people'"), "\(unmappedArchive.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("y.porter")))
        // Without the mapping, the app's dump is two databases of unknown collections.
        let unmapped = CapturedOutput.run([
            "import", dir.path("x.porter"), dir.path("dump0"), "--create", "--schema", schema,
        ])
        #expect(unmapped.status == 1)
        #expect(unmapped.output.stderr.contains("the dump holds several databases (kennel, links)"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.porter")))
    }

    /// Each refusal: one line, the right exit code, nothing written.
    @Test func refusals() throws {
        let dir = try TemporaryFolder("dump-refuse")
        // An app configuration whose relationship refers by a field Porter does not write links as.
        let app = dir.path("app")
        let dogs = app + "/data_sources/svc/db/dogs"
        let people = app + "/data_sources/svc/db/people"
        try FileManager.default.createDirectory(atPath: dogs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: people, withIntermediateDirectories: true)
        try Data(#"{"title": "D"}"#.utf8).write(to: URL(fileURLWithPath: dogs + "/schema.json"))
        try Data(#"{"title": "P"}"#.utf8).write(to: URL(fileURLWithPath: people + "/schema.json"))
        try Data(##"{"owner": {"ref": "#/relationship/svc/db/people", "foreignKey": "_id", "isList": false}}"##.utf8)
            .write(to: URL(fileURLWithPath: dogs + "/relationships.json"))
        let cases: [([String], Int32, String)] = [
            (
                ["--app-config", app], 1,
                "D.owner refers to P by '_id', but Porter writes links as the target's primary key 'id'"
            ),
            (["--app-config", dir.path("nowhere")], 1, "not an exported App Services app"),
            (["--collection", "P"], 64, "--collection P: write CLASS=NAME"),
            (["--collection", "P=a", "--collection", "P=b"], 64, "class P is named twice"),
            (["--collection", "Nope=x"], 1, "the schema has no class 'Nope'"),
            (["--collection", "P=x", "--collection", "D=x"], 1, "would both be written to the collection '.x'"),
            (["--collection", "P=system.users"], 64, "names starting with 'system.' are MongoDB's own"),
            (["--db", "a/b"], 64, "a database name cannot contain '/'"),
            (["--validators", "--format", "json"], 64, "apply to BSON dumps"),
            (["--app-config", app, "--db", "x"], 64, "--app-config names the databases: leave out --db"),
        ]
        for (arguments, status, message) in cases {
            let out = dir.path("out")
            let result = CapturedOutput.run(["export", Self.links, "--out", out] + arguments)
            #expect(result.status == status, "\(arguments): \(result.output.stderr)")
            #expect(result.output.stderr.contains(message), "\(arguments): \(result.output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments): nothing is written")
        }
    }
}
