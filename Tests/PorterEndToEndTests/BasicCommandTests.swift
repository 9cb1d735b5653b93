import Foundation
import PorterTestSupport
import Testing

/// End-to-end tests of `create`, `schema`, `validate` and `inspect` through the built binary.
@Suite struct BasicCommandTests {
    let schemaFile = PorterBinary.fixtures.appendingPathComponent("schemas/realm-docs.json").path

    /// Asserts a failed run: exit code 1, one-line error naming `fragment`, no crash output.
    func expectCleanFailure(
        _ run: PorterBinary.Run, mentions fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == 1, "exit status \(run.status), stderr: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(fragment), "stderr was: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(
            !run.stderr.contains("Fatal error") && !run.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
    }

    @Test func createInspectAndPrintSchema() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let db = dir.appendingPathComponent("app.realm").path

        let created = try PorterBinary.run(["create", db, "--schema", schemaFile])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Created"))

        let inspected = try PorterBinary.run(["inspect", db])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let fixture =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: schemaFile))) as? [String: Any]
        let version = fixture?["schemaVersion"] as? Int ?? -1
        #expect(inspected.stdout.contains("Schema version: \(version)"))
        #expect(inspected.stdout.contains("Dog"))
        #expect(inspected.stdout.contains("0 objects"))
        #expect(inspected.stdout.contains("File size:"))

        // The schema stored in the database prints exactly like the normalized schema file.
        let fromDB = try PorterBinary.run(["schema", db])
        let fromFile = try PorterBinary.run(["schema", schemaFile])
        #expect(fromDB.status == 0 && fromFile.status == 0)
        #expect(fromDB.stdout == fromFile.stdout)
        #expect(fromDB.stdout.contains("\"schemaVersion\": \(version)"))
    }

    @Test func createRefusesToOverwrite() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let path = dir.appendingPathComponent("existing.realm")
        try Data("keep me".utf8).write(to: path)
        let run = try PorterBinary.run(["create", path.path, "--schema", schemaFile])
        expectCleanFailure(run, mentions: "refusing to overwrite")
        #expect(try Data(contentsOf: path) == Data("keep me".utf8))
    }

    @Test func createRejectsInvalidSchemaAndWritesNothing() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let db = dir.appendingPathComponent("never.realm").path
        let invalid = PorterBinary.fixtures.appendingPathComponent("schemas/invalid/embedded-primary-key.json").path
        let run = try PorterBinary.run(["create", db, "--schema", invalid])
        expectCleanFailure(run, mentions: "embedded-primary-key.json")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test func validateAcceptsTheFixtureSchema() throws {
        let run = try PorterBinary.run(["validate", schemaFile])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("valid"))
    }

    @Test func validateReportsEveryErrorOfEveryInvalidFixture() throws {
        let folder = PorterBinary.fixtures.appendingPathComponent("schemas/invalid")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count >= 10)
        for file in files {
            let run = try PorterBinary.run(["validate", folder.appendingPathComponent(file).path])
            #expect(run.status == 1, "\(file) was accepted: \(run.stdout)")
            #expect(run.stderr.contains(file), "\(file): \(run.stderr)")
            #expect(!run.stderr.contains("Fatal error"))
        }
    }

    @Test func validateNamesClassAndPropertyForEachError() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let file = dir.appendingPathComponent("two-errors.json")
        try Data(
            """
            { "schemaVersion": 1, "classes": [
              { "name": "Dog", "properties": { "owner": "Person", "weight": { "type": "double", "indexed": true } } },
              { "name": "Person", "properties": { "name": "string" } } ] }
            """.utf8
        ).write(to: file)
        let run = try PorterBinary.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Dog.owner"))
        #expect(run.stderr.contains("Dog.weight"))
        #expect(run.stderr.contains("2 errors"))
    }

    @Test func validateReportsMalformedJSONWithItsPosition() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let file = dir.appendingPathComponent("broken.json")
        try Data("{ \"classes\": [ ".utf8).write(to: file)
        let run = try PorterBinary.run(["validate", file.path])
        expectCleanFailure(run, mentions: "broken.json")
        #expect(run.errorLines.count == 1)
    }

    @Test func nonDatabaseFilesAreRejectedAndLeftUntouched() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let cases: [(String, Data)] = [
            ("text.realm", Data("this is not a database\n".utf8)),
            ("empty.realm", Data()),
            ("random.realm", Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
        ]
        for (name, bytes) in cases {
            let path = dir.appendingPathComponent(name)
            try bytes.write(to: path)
            for command in ["inspect", "schema"] {
                let run = try PorterBinary.run([command, path.path])
                expectCleanFailure(run, mentions: name)
                #expect(run.stderr.contains("not a Porter or Realm file"), "\(name): \(run.stderr)")
            }
            #expect(try Data(contentsOf: path) == bytes, "\(name) was modified")
            #expect(!FileManager.default.fileExists(atPath: path.path + "-wal"))
        }
    }

    @Test func missingFilesAndArgumentErrors() throws {
        let missing = try PorterBinary.run(["inspect", "/nonexistent/porter.realm"])
        expectCleanFailure(missing, mentions: "/nonexistent/porter.realm")
        // Argument errors are reported by swift-argument-parser (usage, exit code 64).
        let usage = try PorterBinary.run(["create", "x.realm"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--schema"))
    }
}
