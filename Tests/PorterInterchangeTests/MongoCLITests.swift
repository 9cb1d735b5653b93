import Foundation
import PorterInterchange
import Testing
import PorterTestSupport

/// `porter export` and `porter import` with mongodump layouts, through the built binary.
@Suite struct MongoCLITests {
    typealias CLI = CLITests

    /// A database with the documentation fixture, made by the built binary.
    static func fixtureDatabase(_ dir: TemporaryFolder) throws -> String {
        let db = dir.path("app.realm")
        _ = try CLI.porter(["create", db, "--schema", Files.realmDocsSchema])
        #expect(try CLI.porter(["import", db, Files.realmDocsFixture.path]).status == 0)
        return db
    }

    @Test func archivesRoundTripThroughFilesAndPipes() throws {
        let dir = try TemporaryFolder()
        let db = try Self.fixtureDatabase(dir)
        let file = dir.path("app.archive.gz")
        let exported = try CLI.porter(["export", db, "--archive=\(file)", "--gzip"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stdout.hasPrefix(
                "Exported 14 documents from \(db) as a mongodump archive (gzip) of database 'app' to \(file):"))
        let copy = dir.path("copy.realm")
        let imported = try CLI.porter([
            "import", copy, "--archive=\(file)", "--create", "--schema", Files.realmDocsSchema,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout
                == "Imported 14 documents (AllTypes 2, Dog 3, DogToy 2, Person 2, Task 3, User 2) into \(copy) (mode insert)\n"
        )
        // `--archive` alone: stdout, then stdin.
        let streamed = try CLI.porter(["export", db, "--archive", "--quiet"])
        #expect(streamed.status == 0)
        #expect(streamed.stdoutData.starts(with: [0x6D, 0xE2, 0x99, 0x81]))
        let piped = dir.path("piped.realm")
        let fromStdin = try CLI.porter(
            ["import", piped, "--archive", "--create", "--schema", Files.realmDocsSchema],
            stdin: streamed.stdoutData)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdout.hasPrefix("Imported 14 documents"))
        // No temporary file is left beside the archive.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path("")).filter { $0.contains(".porter-") }
                .isEmpty)
    }

    @Test func aBrokenArchiveIsOneLineAndNothingIsWritten() throws {
        let dir = try TemporaryFolder()
        let db = try Self.fixtureDatabase(dir)
        let file = dir.path("app.archive")
        #expect(try CLI.porter(["export", db, "--archive=\(file)"]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes = bytes.prefix(bytes.count - 40)
        try bytes.write(to: URL(fileURLWithPath: file))
        let target = dir.path("t.realm")
        let run = try CLI.porter(["import", target, "--archive=\(file)", "--create", "--schema", Files.realmDocsSchema])
        #expect(run.status == 1)
        #expect(
            run.stderr.split(separator: "\n").first?.hasPrefix("\(file): truncated archive") == true, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
        // A plain file given as --archive is named for what it is.
        let notArchive = try CLI.porter(["import", db, "--archive=\(Files.realmDocsFixture.path)"])
        #expect(notArchive.status == 1)
        #expect(
            notArchive.stderr.contains("\(Files.realmDocsFixture.path): not a mongodump archive"),
            "\(notArchive.stderr)")
    }

    @Test func gzipDumpFoldersAndMissingFieldsThroughTheCommand() throws {
        let dir = try TemporaryFolder()
        let db = try Self.fixtureDatabase(dir)
        let out = dir.path("dump/app")
        let exported = try CLI.porter(["export", db, "--out", out, "--gzip"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).contains("Dog.metadata.json.gz"))
        // The dump root (one database folder) imports that database.
        let copy = dir.path("copy.realm")
        let imported = try CLI.porter(["import", copy, dir.path("dump"), "--create", "--schema", Files.realmDocsSchema])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 14 documents"))

        let movies = dir.path("User.json")
        try Data("{\"_id\": \"x\"}\n".utf8).write(to: URL(fileURLWithPath: movies))
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let strict = try CLI.porter(["import", copy, movies])
        #expect(strict.status == 1)
        #expect(
            strict.stderr == """
                \(movies):1:name: missing required field 'name' (User.name has no default; pass --fill-missing to use "")
                porter: error: \(copy): import failed with 1 error; nothing was written

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        let filled = try CLI.porter(["import", copy, movies, "--fill-missing"])
        #expect(filled.status == 0)
        #expect(filled.stderr == "warning: --fill-missing gave missing required fields their zero value: User.name 1\n")
    }

    @Test func oneClassGzippedToStdoutIsACompleteGzipStream() throws {
        let dir = try TemporaryFolder()
        let db = try Self.fixtureDatabase(dir)
        let streamed = try CLI.porter(["export", db, "--out", "-", "--class", "Dog", "--gzip"])
        #expect(streamed.status == 0)
        #expect(streamed.stdoutData.starts(with: [0x1F, 0x8B]))
        let copy = dir.path("copy.realm")
        let imported = try CLI.porter(
            ["import", copy, "-", "--class", "Dog", "--create", "--schema", Files.realmDocsSchema],
            stdin: streamed.stdoutData)
        // Dog links to Person, which this copy lacks: the links are the only errors.
        #expect(!imported.stderr.contains("gzip"), "\(imported.stderr)")
        let plain = try CLI.porter(["export", db, "--out", "-", "--class", "DogToy", "--gzip"])
        let toys = try CLI.porter(
            ["import", copy, "-", "--class", "DogToy", "--create", "--schema", Files.realmDocsSchema],
            stdin: plain.stdoutData)
        #expect(toys.status == 0, "\(toys.stderr)")
        #expect(toys.stdout.hasPrefix("Imported 2 documents (DogToy 2)"))
    }

    @Test func usageErrorsAreOneLineAndWriteNothing() throws {
        let dir = try TemporaryFolder()
        let db = try Self.fixtureDatabase(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        // Argument errors ArgumentParser's validation catches exit 64 ("Error: " and usage);
        // the one found while exporting exits 1 with one line.
        let cases: [([String], Int32, String)] = [
            (
                ["export", db, "--archive=\(dir.path("a.archive"))", "--out", dir.path("o")], 64,
                "Error: --archive writes one file: leave out --out\n"
            ),
            (
                ["export", db, "--archive=\(dir.path("a.archive"))", "--format", "json"], 1,
                "porter: error: an archive holds BSON: --archive needs --format bson, not json\n"
            ),
            (
                ["export", db], 64,
                "Error: name where to write: --out FOLDER, --out - (one --class) or --archive[=FILE]\n"
            ),
            (["import", db], 64, "Error: name what to import: a folder, a file, '-', or --archive[=FILE]\n"),
        ]
        for (arguments, status, expected) in cases {
            let run = try CLI.porter(arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(
                status == 64 ? run.stderr.hasPrefix(expected) : run.stderr == expected, "\(arguments): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted() == ["app.realm"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        // An archive read as JSON is named for what it is.
        let archive = dir.path("x.archive")
        #expect(try CLI.porter(["export", db, "--archive=\(archive)"]).status == 0)
        let asJSON = try CLI.porter(["import", db, archive, "--format", "json"])
        #expect(
            asJSON.stderr.hasPrefix(
                "\(archive): this is a mongodump archive, which --format json cannot read (use --format auto or archive)\n"
            ), "\(asJSON.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
