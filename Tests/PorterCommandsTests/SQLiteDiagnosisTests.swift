import Foundation
import PorterCommands
import PorterStore
import PorterTestSupport
import Testing

/// An SQLite file that is not a Porter database (issue 35): every reading command names it as an
/// SQLite database, and a Porter SQLite export as such, pointed at `porter import`; nothing is written.
@Suite struct SQLiteDiagnosisTests {
    static let readingCommands: [(String, [String])] = [
        ("inspect", []), ("check", []), ("schema", []), ("export", ["--out"]), ("diff", [TestFiles.schema]),
    ]

    /// Runs every reading command on `path`; each must exit 1 with `expected` in its one-line error.
    static func expectRefusals(_ path: String, _ expected: String, in dir: URL) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for (command, extra) in readingCommands {
            let out = dir.appendingPathComponent("out-\(command)").path
            let arguments = [command, path] + (extra == ["--out"] ? ["--out", out] : extra)
            let run = CapturedOutput.run(arguments)
            #expect(run.status == 1, "\(command): \(run.output.stderr)")
            #expect(run.output.stderr.contains("\(path): \(expected)"), "\(command): \(run.output.stderr)")
            #expect(!run.output.stderr.contains("file is not a Porter database"), "\(command): \(run.output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(command) wrote \(out)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func aPlainSQLiteFileIsNamed() throws {
        let tmp = try TemporaryFolder("cmd")
        let path = tmp.url.appendingPathComponent("notes.db").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        do {
            let file = try PlainSQLiteFile(fillingEmpty: path, displayPath: path)
            try file.execute(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi')")
        }
        try Self.expectRefusals(path, "an SQLite database, not a Porter database or a Realm file", in: tmp.url)
    }

    @Test func aPorterSQLiteExportIsNamedAndPointedAtImport() throws {
        let tmp = try TemporaryFolder("cmd")
        let db = tmp.url.appendingPathComponent("a.porter").path
        let export = tmp.url.appendingPathComponent("a.sqlite").path
        #expect(CapturedOutput.run(["create", db, "--schema", TestFiles.schema]).status == 0)
        let exported = CapturedOutput.run(["export", db, "--format", "sqlite", "--out", export, "--quiet"])
        #expect(exported.status == 0, "\(exported.output.stderr)")
        try Self.expectRefusals(
            export,
            "a Porter SQLite export (porter export --format sqlite), not a Porter database or a Realm file: "
                + "load it into a database with 'porter import DB \(export)'", in: tmp.url)
        // The advice works: the export imports into a new database.
        let copy = tmp.url.appendingPathComponent("b.porter").path
        let imported = CapturedOutput.run(["import", copy, export, "--create", "--quiet"])
        #expect(imported.status == 0, "\(imported.output.stderr)")
    }
}
