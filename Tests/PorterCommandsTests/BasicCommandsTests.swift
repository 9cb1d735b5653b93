import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// In-process tests of the basic commands (the end-to-end target runs the same through the binary).
@Suite struct BasicCommandsTests {
    @Test func createThenInspectCountsEveryClass() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("a.realm").path
        let created = CapturedOutput.run(["create", db, "--schema", TestFiles.schema])
        #expect(created.status == 0, "\(created.output.stderr)")
        let inspected = CapturedOutput.run(["inspect", db])
        #expect(inspected.status == 0)
        for name in ["Dog", "Person", "Address", "DogToy"] {
            #expect(inspected.output.stdout.contains(name))
        }
        #expect(inspected.output.stdout.contains("(embedded)"))
        #expect(inspected.output.stdout.contains("(primary key: _id)"))
    }

    @Test func schemaOfDatabaseMatchesSchemaFile() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("a.realm").path
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let a = CapturedOutput.run(["schema", db])
        let b = CapturedOutput.run(["schema", TestFiles.schema])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.output.stdout == b.output.stdout)
    }

    @Test func validateFailureListsErrorsOnStderr() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let file = dir.appendingPathComponent("bad.json")
        try Data(#"{"classes":[{"name":"A","primaryKey":"x","properties":{"x":"double"}}]}"#.utf8).write(to: file)
        let run = CapturedOutput.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("A.x"))
        #expect(run.output.stdout.isEmpty)
    }

    @Test func errorsBecomeOneLineOnStderrWithExitCode1() throws {
        let run = CapturedOutput.run(["inspect", "/nonexistent/x.realm"])
        #expect(run.status == 1)
        #expect(run.output.stderr == "porter: error: /nonexistent/x.realm: no such file")
    }

    @Test func argumentErrorsAreUsageErrors() {
        #expect(CapturedOutput.run(["create", "only-db.realm"]).status == 64)
        #expect(CapturedOutput.run(["no-such-command"]).status == 64)
    }
}
