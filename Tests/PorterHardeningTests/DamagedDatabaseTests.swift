import Foundation
import Porter
import Testing
import PorterTestSupport

/// The damaged-database corpus (`Fixtures/damaged/make-damaged-databases.py`, built from the
/// every-type fixture in a temporary folder): `porter check` names each damage, and `migrate`,
/// `export` and `import` refuse every file and leave it byte for byte as it was.
@Suite(
    .serialized,
    .enabled(
        if: Hardening.binariesBuilt && DamagedCorpus.python != nil,
        "needs the built porter (swift build) and python3 with its sqlite3 module"))
struct DamagedDatabaseTests {
    @Test func checkNamesEveryDamageAndWritingCommandsRefuseIt() throws {
        let corpus = try DamagedCorpus()
        #expect(corpus.entries.count >= 38)
        let schema = corpus.nextSchema
        let source = corpus.dir.path("NoPk.json")
        try Data(#"{"n": 42}"#.utf8).write(to: URL(fileURLWithPath: source))
        for (name, expected) in corpus.entries {
            let file = corpus.dir.path("\(name).porter")
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let check = try Hardening.porter(["check", file])
            #expect(check.status == 1, "\(name): check exit \(String(describing: check.status))")
            let said = check.stdout + check.stderr
            #expect(said.contains(expected), "\(name): check says \(said.prefix(400))")
            let out = corpus.dir.path("\(name)-export")
            let runs: [(String, [String])] = [
                ("migrate", ["migrate", file, "--to", schema]),
                ("export", ["export", file, "--out", out, "--format", "json"]),
                ("import", ["import", file, source]),
            ]
            for (command, args) in runs {
                let result = try Hardening.porter(args)
                let said = "\(name): \(command) exit \(String(describing: result.status)): \(result.stderr.prefix(300))"
                #expect(result.status == 1, "\(said)")
                #expect(result.stderr.hasPrefix("porter: error: "), "\(said)")
                #expect(!result.stderr.contains("Schema validation"), "\(said)")
            }
            #expect(!FileManager.default.fileExists(atPath: out), "\(name): export left \(out)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(name): the file changed")
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: file + suffix), "\(name): left \(suffix)")
            }
        }
    }

    /// Files that open but fail a check are refused with the check's first finding and a pointer
    /// to `porter check`; `--skip-check` lets a user who knows better go on.
    @Test func refusalNamesTheFindingAndSkipCheckGoesOn() throws {
        let corpus = try DamagedCorpus()
        let file = corpus.dir.path("corpus/set-duplicate-int.porter")
        let refused = try Hardening.porter(["export", file, "--out", corpus.dir.path("refused"), "--format", "json"])
        #expect(refused.status == 1)
        let finding = "refused: the file fails its check: Every.intSet: 1 set holding an element more than once"
        #expect(
            refused.stderr.contains(finding),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("'porter check \(file)' lists every problem"))
        #expect(refused.stderr.contains("--skip-check"))
        let skipped = try Hardening.porter([
            "export", file, "--out", corpus.dir.path("skipped"), "--format", "json",
            "--skip-check",
        ])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(FileManager.default.fileExists(atPath: corpus.dir.path("skipped/Every.json")))
        let migrated = try Hardening.porter([
            "migrate", corpus.dir.path("corpus/bool-seven.porter"), "--skip-check",
            "--to", corpus.nextSchema,
        ])
        #expect(!migrated.stderr.contains("refused: the file fails its check"), "\(migrated.stderr)")
    }

    /// A sound database passes its check and every writing command still works on it.
    @Test func soundDatabaseIsNotRefused() throws {
        let corpus = try DamagedCorpus()
        #expect(try Hardening.porter(["check", corpus.sound]).stdout == "ok\n")
        let source = corpus.dir.path("NoPk.json")
        try Data(#"{"n": 42}"#.utf8).write(to: URL(fileURLWithPath: source))
        let imported = try Hardening.porter(["import", corpus.sound, source])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try Hardening.porter(["export", corpus.sound, "--out", corpus.dir.path("sound-out")])
        #expect(exported.status == 0, "\(exported.stderr)")
    }
}

/// The corpus built in a temporary folder: the sound database, then the script's damaged copies.
struct DamagedCorpus {
    /// `python3` with its sqlite3 module, when installed.
    static let python: String? = {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] + pathCandidates("python3")
        where FileManager.default.isExecutableFile(atPath: candidate) {
            if (try? RunningChild.run(candidate, ["-c", "import sqlite3"]).status) == 0 { return candidate }
        }
        return nil
    }()

    static func pathCandidates(_ name: String) -> [String] {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
    }

    let dir: TemporaryFolder
    let sound: String
    /// The sound database's schema at the next version (a migration target).
    let nextSchema: String
    /// (name, text `porter check` must print), from the script's manifest.
    let entries: [(String, String)]

    init() throws {
        dir = try TemporaryFolder("damaged")
        sound = dir.path("sound.porter")
        let realm = Hardening.fixtures.appendingPathComponent("realm/every-type.realm").path
        let created = try Hardening.porter(["import", sound, realm, "--create", "--quiet"])
        guard created.status == 0 else { throw PorterError(.io, "cannot build the sound database: \(created.stderr)") }
        let exported = try Hardening.porter([
            "export", sound, "--out", dir.path("schema"), "--format", "json",
            "--quiet",
        ])
        guard exported.status == 0 else {
            throw PorterError(.io, "cannot export the sound database: \(exported.stderr)")
        }
        let schemaText = try String(contentsOfFile: dir.path("schema/schema.json"), encoding: .utf8)
        nextSchema = dir.path("next-schema.json")
        try Data(schemaText.replacingOccurrences(of: #""schemaVersion": 7"#, with: #""schemaVersion": 8"#).utf8)
            .write(to: URL(fileURLWithPath: nextSchema))
        let script = Hardening.fixtures.appendingPathComponent("damaged/make-damaged-databases.py").path
        let made = try RunningChild.run(DamagedCorpus.python!, [script, sound, dir.path("corpus")])
        guard made.status == 0 else { throw PorterError(.io, "the corpus script failed: \(made.stderr)") }
        let manifest = try String(contentsOfFile: dir.path("corpus/manifest.tsv"), encoding: .utf8)
        entries = manifest.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return ("corpus/" + parts[0], String(parts[1]))
        }
    }
}
