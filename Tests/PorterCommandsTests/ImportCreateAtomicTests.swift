import Foundation
import PorterCommands
import PorterTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `porter import NEW --create` fills the new database under a temporary name beside NEW and puts
/// it in place only when complete: a failed, raced or killed import leaves nothing at NEW.
@Suite struct ImportCreateAtomicTests {
    /// The `porter` executable next to the test bundle (`swift build` puts both in one folder).
    static let porter: URL? = PorterExecutable.url

    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "label": "string"}}]}
        """

    /// A folder with `schema.json` and `Item.json` holding `count` plain JSON documents.
    static func sources(_ dir: TemporaryFolder, count: Int, bad: Int? = nil) throws -> (schema: String, items: String) {
        let schema = dir.path("schema.json")
        try schemaJSON.write(toFile: schema, atomically: true, encoding: .utf8)
        var text = ""
        for i in 0..<count {
            text +=
                i == bad ? "{\"id\": \"x\(i)\", \"label\": \"bad\"}\n" : "{\"id\": \(i), \"label\": \"item \(i)\"}\n"
        }
        let items = dir.path("Item.json")
        try text.write(toFile: items, atomically: true, encoding: .utf8)
        return (schema, items)
    }

    /// The names in the folder other than the sources: the database and any temporary file.
    static func made(_ dir: TemporaryFolder) -> [String] {
        dir.listing.filter { !["schema.json", "Item.json", "Item.fifo"].contains($0) }
    }

    @Test func aSuccessfulImportPutsTheCompleteDatabaseInPlace() throws {
        let dir = try TemporaryFolder("create-atomic")
        let (schema, items) = try Self.sources(dir, count: 50)
        let db = dir.path("new.porter")
        let run = CapturedOutput.run([
            "import", db, items, "--class", "Item", "--schema", schema, "--create", "--quiet",
        ])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(Self.made(dir) == ["new.porter"])
        let count = CapturedOutput.run(["inspect", db])
        #expect(count.status == 0, "\(count.output.stderr)")
        #expect(count.output.stdout.contains(" 50 objects"), "\(count.output.stdout)")
    }

    @Test func aFailedImportLeavesNoFileAndNoTemporary() throws {
        let dir = try TemporaryFolder("create-atomic")
        let (schema, items) = try Self.sources(dir, count: 50, bad: 40)
        let db = dir.path("new.porter")
        let run = CapturedOutput.run([
            "import", db, items, "--class", "Item", "--schema", schema, "--create", "--quiet",
        ])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("\(items):41:id:"), "\(run.output.stderr)")
        #expect(Self.made(dir) == [], "left behind: \(Self.made(dir))")
    }

    /// A file that appears at NEW while the import runs is neither replaced nor removed: the
    /// import reads a FIFO, so the file is made while the import waits for its documents.
    @Test func aFileThatAppearsMeanwhileIsNotReplaced() throws {
        let dir = try TemporaryFolder("create-atomic")
        let (schema, items) = try Self.sources(dir, count: 20)
        let fifo = dir.path("Item.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let db = dir.path("new.porter")
        let arguments = ["import", db, fifo, "--class", "Item", "--format", "json", "--schema", schema, "--create"]
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (status: Int32, output: CapturedOutput)?
        Thread.detachNewThread {
            result = CapturedOutput.run(arguments + ["--quiet"])
            finished.signal()
        }
        // The import has made its temporary database and waits on the FIFO.
        let deadline = Date().addingTimeInterval(60)
        while !Self.made(dir).contains(where: { $0.hasPrefix(".new.porter.porter-") }), Date() < deadline {
            usleep(10_000)
        }
        #expect(Self.made(dir).contains { $0.hasPrefix(".new.porter.porter-") }, "\(Self.made(dir))")
        try "the user's own file".write(toFile: db, atomically: false, encoding: .utf8)
        // Opening the FIFO for writing waits for the import to open it for reading.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
        handle.write(try Data(contentsOf: URL(fileURLWithPath: items)))
        try handle.close()
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let run = try #require(result)
        #expect(run.status == 1)
        #expect(
            run.output.stderr == "porter: error: \(db): refusing to overwrite an existing file", "\(run.output.stderr)")
        #expect(try String(contentsOfFile: db, encoding: .utf8) == "the user's own file")
        #expect(Self.made(dir) == ["new.porter"], "\(Self.made(dir))")
    }

    /// `porter import --create` killed with SIGKILL at several moments: NEW is absent or complete,
    /// never an empty or partial database; what a killed run left beside it is only its
    /// recognisable temporary file, removed by the next run.
    @Test(.enabled(if: ImportCreateAtomicTests.porter != nil, "needs the built porter binary"))
    func killedImportLeavesNothingAtTheDestination() throws {
        let dir = try TemporaryFolder("create-kill")
        let count = 150_000
        let (schema, items) = try Self.sources(dir, count: count)
        let db = dir.path("new.porter")
        let arguments = ["import", db, items, "--class", "Item", "--schema", schema, "--create", "--quiet"]
        var killedMidRun = 0
        for delay in [0.05, 0.2, 0.4, 0.7] {
            let run = try PorterExecutable.run(arguments, killAfter: delay)
            if run.status == nil { killedMidRun += 1 }
            let left = Self.made(dir)
            if left.contains("new.porter") {
                // The run finished before the kill: the database is complete.
                let counted = CapturedOutput.run(["inspect", db])
                #expect(
                    counted.output.stdout.contains(" \(count) objects"), "after \(delay) s: \(counted.output.stdout)")
                for name in left where name != "new.porter" {
                    try FileManager.default.removeItem(atPath: dir.path(name))
                }
                try FileManager.default.removeItem(atPath: db)
            } else {
                #expect(
                    left.allSatisfy { $0.hasPrefix(".new.porter.porter-\(run.pid)-") },
                    "after \(delay) s: \(left)")
            }
        }
        #expect(killedMidRun > 0, "no run was killed before it finished")
        // The next run removes the killed runs' temporary files and makes the database.
        #expect(try PorterExecutable.run(arguments, killAfter: nil).status == 0)
        #expect(Self.made(dir) == ["new.porter"], "\(Self.made(dir))")
    }
}
