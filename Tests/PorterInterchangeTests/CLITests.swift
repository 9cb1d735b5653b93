import Foundation
import PorterInterchange
import Testing
import PorterTestSupport

/// `porter export` and `porter import` end to end through the built binary (`swift build
/// --build-tests` builds it; a missing binary fails the tests).
@Suite struct CLITests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    static func porter(_ args: [String], stdin: Data? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try PorterExecutable.locate()
        process.arguments = args
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    static func contents(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(name))
        }
        return out
    }

    @Test func importExportEveryFormatAndRoundTripThroughFolders() throws {
        let dir = try TemporaryFolder()
        let db = dir.path("app.realm")
        let created = try Self.porter(["create", db, "--schema", Files.realmDocsSchema])
        #expect(created.status == 0)
        let imported = try Self.porter(["import", db, Files.realmDocsFixture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout
                == "Imported 14 documents (Dog 3, Person 2, DogToy 2, User 2, Task 3, AllTypes 2) into \(db) (mode insert)\n"
        )
        for format in ["bson", "json", "ejson", "ejson-canonical"] {
            let out = dir.path("out-\(format)")
            let exported = try Self.porter(["export", db, "--out", out, "--format", format])
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("Exported 14 documents"))
            let copy = dir.path("copy-\(format).realm")
            let reimported = try Self.porter(["import", copy, out, "--create"])
            #expect(reimported.status == 0, "\(reimported.stderr)")
            let again = dir.path("again-\(format)")
            #expect(try Self.porter(["export", copy, "--out", again, "--format", format]).status == 0)
            #expect(try Self.contents(out) == Self.contents(again), "\(format)")
        }
    }

    @Test func errorsArePrintedOnePerLineAndNothingIsWritten() throws {
        let dir = try TemporaryFolder()
        let db = dir.path("app.realm")
        _ = try Self.porter(["create", db, "--schema", Files.realmDocsSchema])
        let bad = dir.path("User.json")
        try Data(
            "{\"_id\": \"a\", \"name\": 5}\n{\"_id\": \"b\", \"name\": \"B\", \"nick\": \"x\"}\n{\"_id\": 3, \"name\": \"C\"}\n"
                .utf8
        ).write(to: URL(fileURLWithPath: bad))
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let run = try Self.porter(["import", db, bad])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                \(bad):1:name: expected a string but got an int64 5
                \(bad):2:nick: unknown field (class 'User' has no property 'nick'; use --ignore-unknown to skip it)
                \(bad):3:_id: expected a string but got an int64 3
                porter: error: \(db): import failed with 3 errors; nothing was written

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let limited = try Self.porter(["import", db, bad, "--max-errors", "1"])
        #expect(limited.stderr.split(separator: "\n").count == 2)
        #expect(limited.stderr.contains("stopped at --max-errors 1"))
        let lenient = try Self.porter(["import", db, bad, "--ignore-unknown", "--max-errors", "5"])
        #expect(lenient.stderr.split(separator: "\n").count == 3)
    }

    @Test func streamsOneClassThroughStdoutAndStdin() throws {
        let dir = try TemporaryFolder()
        let db = dir.path("app.realm")
        _ = try Self.porter(["create", db, "--schema", Files.realmDocsSchema])
        #expect(try Self.porter(["import", db, Files.realmDocsFixture.path]).status == 0)
        let users = try Self.porter(["export", db, "--out", "-", "--class", "User", "--format", "json"])
        #expect(
            users.stdout
                == "{\"_id\":\"ada\",\"name\":\"Ada Lovelace\"}\n{\"_id\":\"grace\",\"name\":\"Grace Hopper\"}\n")
        let bson = try Self.porter(["export", db, "--out", "-", "--class", "User"])
        let copy = dir.path("copy.realm")
        let schemaRun = try Self.porter(["schema", db])
        try Data(schemaRun.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("schema.json")))
        let piped = try Self.porter(
            ["import", copy, "-", "--class", "User", "--create", "--schema", dir.path("schema.json")],
            stdin: bson.stdoutData)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("Imported 2 documents (User 2)"))
        let again = try Self.porter(
            ["import", copy, "-", "--class", "User", "--mode", "upsert"], stdin: users.stdoutData)
        #expect(again.status == 0, "\(again.stderr)")
        // Argument errors: exit code 64, ArgumentParser's "Error: " line, then usage.
        for (arguments, message) in [
            (["export", db, "--out", "-"], "--out - streams exactly one class: pass one --class"),
            (["import", copy, "-"], "reading stdin ('-') needs --class to name the documents' class"),
            (
                ["export", db, "--out", dir.path("x"), "--format", "xml"],
                "The value 'xml' is invalid for '--format <format>'. Please provide one of the following:"
            ),
        ] {
            let run = try Self.porter(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("Error: \(message)\n"), "\(run.stderr)")
        }
    }

    @Test func createdDatabaseIsRemovedWhenItsImportFails() throws {
        let dir = try TemporaryFolder()
        let db = dir.path("new.realm")
        let bad = dir.path("fixture.json")
        try Data(#"{"schemaVersion": 3, "User": [{"_id": "a", "name": 1}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let run = try Self.porter(["import", db, bad, "--create", "--schema", Files.realmDocsSchema])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(bad):User#1:name: expected a string but got an int64 1\n"))
        #expect(!FileManager.default.fileExists(atPath: db))
        let missing = try Self.porter(["import", db, bad])
        #expect(
            missing.stderr
                == "porter: error: \(db): no such database file (pass --create, with --schema or an export folder, to create it)\n"
        )
    }
}
