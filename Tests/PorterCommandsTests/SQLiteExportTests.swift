import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter export --format sqlite` (a relational SQLite file) and its import back: every type and
/// collection, SQLite's own checks, Python's `sqlite3` reading it, and every refusal.
@Suite struct SQLiteExportTests {
    static let realmDir = TestFiles.root.appendingPathComponent("Fixtures/realm")
    static let sharedDir = TestFiles.root.deletingLastPathComponent().appendingPathComponent("shared/realm-files")

    /// The project's own Realm files.
    static let realmFiles = ["every-type.realm", "inner-nodes.realm"].map { realmDir.appendingPathComponent($0).path }

    /// The unencrypted Realm files of `../shared/realm-files` (none where it is absent: their test
    /// is then reported as skipped).
    static let sharedRealmFiles: [String] = {
        let shared = (try? FileManager.default.contentsOfDirectory(atPath: sharedDir.path)) ?? []
        return shared.filter { $0.hasSuffix(".realm") && !$0.contains("encrypted") }.sorted().map {
            sharedDir.appendingPathComponent($0).path
        }
    }()

    /// Every file of two export folders, byte for byte.
    static func expectSameFolders(_ a: String, _ b: String, _ what: String) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: a).sorted()
        #expect(files == (try FileManager.default.contentsOfDirectory(atPath: b).sorted()), "\(what)")
        for file in files where file != "schema.json" {
            let x = try Data(contentsOf: URL(fileURLWithPath: a + "/" + file))
            let y = try Data(contentsOf: URL(fileURLWithPath: b + "/" + file))
            #expect(x == y, "\(what): \(file) differs")
        }
    }

    /// Export to SQLite, import into a new Porter database, export both as BSON: same bytes.
    static func roundTrip(_ source: String, in dir: URL) throws {
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let copy = dir.appendingPathComponent("copy.porter").path
        let exported = CapturedOutput.run(["export", source, "--format", "sqlite", "--out", sqlite, "--quiet"])
        try #require(exported.status == 0, "\(source): \(exported.output.stderr)")
        let imported = CapturedOutput.run(["import", copy, sqlite, "--create", "--quiet"])
        try #require(imported.status == 0, "\(source): \(imported.output.stderr)")
        let a = dir.appendingPathComponent("source-bson").path, b = dir.appendingPathComponent("copy-bson").path
        #expect(CapturedOutput.run(["export", source, "--out", a, "--quiet"]).status == 0)
        #expect(CapturedOutput.run(["export", copy, "--out", b, "--quiet"]).status == 0)
        try expectSameFolders(a, b, source)
        // The copy's schema is the source's.
        let s1 = CapturedOutput.run(["schema", source]), s2 = CapturedOutput.run(["schema", copy])
        #expect(s1.output.stdout == s2.output.stdout, "\(source): schemas differ")
    }

    @Test(arguments: realmFiles)
    func realmFileRoundTripsThroughSQLite(_ path: String) throws { try Self.expectRoundTripLeavesTheSource(path) }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"), arguments: sharedRealmFiles)
    func sharedRealmFileRoundTripsThroughSQLite(_ path: String) throws {
        try Self.expectRoundTripLeavesTheSource(path)
    }

    static func expectRoundTripLeavesTheSource(_ path: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try roundTrip(path, in: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the Realm file was changed")
    }

    @Test(arguments: ["every-type", "inner-nodes"])
    func porterDatabaseRoundTripsThroughSQLite(_ name: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("source.porter").path
        let made = CapturedOutput.run([
            "import", db, Self.realmDir.appendingPathComponent("\(name).realm").path, "--create", "--quiet",
        ])
        try #require(made.status == 0, "\(made.output.stderr)")
        try Self.roundTrip(db, in: dir)
    }

    /// The layout: tables, types, keys, foreign keys and indexes, as SQLite reports them.
    @Test func tablesAreRelational() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--format", "sqlite",
            "--out", sqlite, "--quiet",
        ])
        try #require(run.status == 0, "\(run.output.stderr)")
        #expect(run.output.stdout.contains("Exported"))
        guard let python = Python.path else {
            print("skipped: python3 is not installed, the layout is not inspected")
            return
        }
        let result = try Python.run(
            python,
            """
            import sqlite3, sys, json, datetime
            db = sqlite3.connect(sys.argv[1])
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
            assert db.execute("PRAGMA user_version").fetchone()[0] == 7
            schema = json.loads(db.execute("SELECT schema FROM _porter_schema").fetchone()[0])
            assert schema["schemaVersion"] == 7
            cols = {r[1]: (r[2], r[3], r[5]) for r in db.execute('PRAGMA table_info("Every")')}
            assert cols["_id"] == ("INT", 1, 1), cols["_id"]
            assert cols["bool"] == ("INTEGER", 1, 0)
            assert cols["boolOpt"] == ("INTEGER", 0, 0)
            assert cols["string"] == ("TEXT", 1, 0)
            assert cols["data"] == ("BLOB", 1, 0)
            assert cols["date"] == ("TEXT", 1, 0)
            assert cols["mixed"][0] == "ANY" and cols["mixed_type"][0] == "TEXT"
            assert "intList" not in cols
            sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'Every'").fetchone()[0]
            assert sql.endswith("STRICT"), sql
            idx = [r[1] for r in db.execute('PRAGMA index_list("Every")')]
            assert "Every_indexedString" in idx, idx
            lcols = [r[1] for r in db.execute('PRAGMA table_info("Every_intList")')]
            assert lcols == ["owner", "position", "value"], lcols
            mcols = [r[1] for r in db.execute('PRAGMA table_info("Every_intMap")')]
            assert mcols == ["owner", "key", "value"], mcols
            fks = db.execute('PRAGMA foreign_key_list("Every_intList")').fetchall()
            assert fks[0][2] == "Every" and fks[0][4] == "_id", fks
            n = db.execute("SELECT count(*) FROM Every").fetchone()[0]
            parsed = 0
            for (d,) in db.execute("SELECT date FROM Every UNION ALL SELECT value FROM Every_dateList"):
                assert d.endswith("Z"), d
                if d[0] in "+-":
                    continue  # a year outside 0000-9999: the expanded form, which Python's datetime cannot hold
                assert len(d) == 30, d
                t = datetime.datetime.fromisoformat(d)
                assert t.tzinfo == datetime.timezone.utc, d
                parsed += 1
            assert parsed >= 4, parsed
            assert datetime.datetime.fromisoformat(db.execute("SELECT value FROM Every_dateList WHERE value LIKE '2024%'").fetchone()[0]) == datetime.datetime(2024, 2, 29, 12, 34, 56, 0, datetime.timezone.utc)
            print(n)
            """, sqlite)
        #expect(result.status == 0, "\(result.output)")
        #expect(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(result.output)")
    }

    /// Python's `sqlite3` reads the export: counts per class match the export's report, and
    /// values read as Python values.
    @Test func pythonReadsTheExport() throws {
        guard let python = Python.path else {
            print("skipped: python3 is not installed")
            return
        }
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let source = Self.realmDir.appendingPathComponent("inner-nodes.realm").path
        let run = CapturedOutput.run(["export", source, "--format", "sqlite", "--out", sqlite, "--quiet"])
        try #require(run.status == 0, "\(run.output.stderr)")
        // "  Class  count" lines of the report.
        var expected: [String: Int] = [:]
        for line in run.output.stdout.split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { expected[String(parts[0])] = n }
        }
        #expect(!expected.isEmpty)
        let counts = try Python.run(
            python,
            """
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            schema = json.loads(db.execute("SELECT schema FROM _porter_schema").fetchone()[0])
            for c in schema["classes"]:
                if not c.get("embedded"):
                    print(c["name"], db.execute('SELECT count(*) FROM "%s"' % c["name"]).fetchone()[0])
            """, sqlite)
        #expect(counts.status == 0, "\(counts.output)")
        var found: [String: Int] = [:]
        for line in counts.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { found[String(parts[0])] = n }
        }
        #expect(found == expected)
    }

    /// Values as Python reads them from the every-type fixture (whose first object is known).
    @Test func pythonReadsValues() throws {
        guard let python = Python.path else {
            print("skipped: python3 is not installed")
            return
        }
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--format", "sqlite",
            "--out", sqlite, "--quiet",
        ])
        try #require(run.status == 0, "\(run.output.stderr)")
        let result = try Python.run(
            python,
            """
            import sqlite3, sys, math
            db = sqlite3.connect(sys.argv[1])
            row = db.execute('SELECT "int", "intOpt", "float", "double", "doubleOpt", "decimal128", "objectId", "uuid", "stringOpt" FROM Every WHERE _id = 1').fetchone()
            assert row[0] == -9223372036854775808 and row[1] == 9223372036854775807, row
            assert row[2] == float("-inf"), row
            assert row[3] == 0.0 and math.copysign(1, row[3]) == -1, row
            assert row[4] == "NaN", row
            assert row[5] == "1.50" and row[6] == "0" * 24 and row[7] == "00000000-0000-0000-0000-000000000000", row
            assert row[8] == "a\\x00b", repr(row[8])
            print("ok")
            """, sqlite)
        #expect(result.status == 0 && result.output.contains("ok"), "\(result.output)")
    }

    /// `--class` exports only those tables; the file still imports back.
    @Test func someClassesOnly() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--format", "sqlite",
            "--class", "Target", "--class", "NoPk", "--out", sqlite,
        ])
        try #require(run.status == 0, "\(run.output.stderr)")
        #expect(
            run.output.stdout.contains("  Target  2") && run.output.stdout.contains("  NoPk  2")
                && !run.output.stdout.contains("Every"))
        let copy = dir.appendingPathComponent("copy.porter").path
        let imported = CapturedOutput.run(["import", copy, sqlite, "--create"])
        #expect(imported.status == 0, "\(imported.output.stderr)")
        #expect(imported.output.stdout.contains("Imported 4 documents"), "\(imported.output.stdout)")
    }

    // MARK: Refusals

    @Test func refusesToOverwriteWithoutForce() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: sqlite))
        let source = Self.realmDir.appendingPathComponent("inner-nodes.realm").path
        let refused = CapturedOutput.run(["export", source, "--format", "sqlite", "--out", sqlite, "--quiet"])
        #expect(refused.status == 1)
        #expect(
            refused.output.stderr.contains("already exists") && refused.output.stderr.contains("--force"),
            "\(refused.output.stderr)")
        #expect(try String(contentsOfFile: sqlite, encoding: .utf8) == "keep me")
        let forced = CapturedOutput.run(["export", source, "--format", "sqlite", "--out", sqlite, "--force", "--quiet"])
        #expect(forced.status == 0, "\(forced.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sqlite)).starts(with: Data("SQLite format 3".utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["app.sqlite"])
    }

    @Test func refusesToReplaceTheSourceItself() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("db.porter").path
        #expect(
            CapturedOutput.run([
                "import", db, Self.realmDir.appendingPathComponent("inner-nodes.realm").path, "--create", "--quiet",
            ]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let refused = CapturedOutput.run(["export", db, "--format", "sqlite", "--out", db, "--force", "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.output.stderr.contains("--out is the exported file itself"), "\(refused.output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test(arguments: [
        (["--out", "-"], "--format sqlite writes one file"),
        ([], "--format sqlite writes one file"),
        (["--out", "x.sqlite", "--gzip"], "--gzip does not apply to --format sqlite"),
        (["--out", "x.sqlite", "--array"], "--array does not apply to --format sqlite"),
        (["--out", "x.sqlite", "--archive", "a"], "--archive does not apply to --format sqlite"),
    ])
    func refusesOptionsThatDoNotApply(_ arguments: [String], _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let source = Self.realmDir.appendingPathComponent("inner-nodes.realm").path
        let args = arguments.map { $0 == "x.sqlite" ? dir.appendingPathComponent($0).path : $0 }
        let run = CapturedOutput.run(["export", source, "--format", "sqlite", "--quiet"] + args)
        #expect(run.status == 64)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func refusesForceWithOtherFormats() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("inner-nodes.realm").path, "--out",
            dir.appendingPathComponent("out").path, "--force",
        ])
        #expect(run.status == 64)
        #expect(run.output.stderr.contains("--force applies to --format sqlite"), "\(run.output.stderr)")
    }

    @Test func refusesAFolderAsOutput() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("inner-nodes.realm").path, "--format", "sqlite",
            "--out", dir.path, "--force", "--quiet",
        ])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("is a folder"), "\(run.output.stderr)")
    }

    /// Schemas SQLite tables cannot hold: refused before anything is written.
    @Test(arguments: [
        (
            """
            {"classes": [{"name": "Dog", "properties": {"tags": "string[]"}}, {"name": "Dog_tags", "properties": {"x": "int"}}]}
            """, "the table 'Dog_tags' for Dog.tags has the name of another table"
        ),
        (
            """
            {"classes": [{"name": "Dog", "properties": {"_row": "int"}}]}
            """, "Dog._row has the name of a column Porter adds"
        ),
        (
            """
            {"classes": [{"name": "Dog", "properties": {"m": "mixed", "m_type": "string"}}]}
            """, "Dog.m_type has the name of a column Porter adds"
        ),
    ])
    func refusesSchemasTablesCannotHold(_ schema: String, _ message: String) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let schemaPath = dir.appendingPathComponent("schema.json").path
        try Data(schema.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let db = dir.appendingPathComponent("db.porter").path
        let created = CapturedOutput.run(["create", db, "--schema", schemaPath])
        try #require(created.status == 0, "\(created.output.stderr)")
        let out = dir.appendingPathComponent("app.sqlite").path
        let run = CapturedOutput.run(["export", db, "--format", "sqlite", "--out", out, "--quiet"])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["db.porter", "schema.json"])
    }

    /// A tampered export: each bad cell is an error naming the file, the object and the column,
    /// and nothing is imported.
    @Test(
        arguments: [
            (
                "UPDATE Every SET \"date\" = 'yesterday' WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:date: invalid ISO 8601 date 'yesterday'"
            ),
            (
                "UPDATE Every SET \"mixed_type\" = 'wombat', \"mixed\" = 1 WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:mixed_type: unknown type 'wombat'"
            ),
            (
                "UPDATE Every SET \"mixed_type\" = 'list', \"mixed\" = '{' WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:mixed: invalid JSON"
            ),
            (
                "UPDATE Every SET \"mixed_type\" = 'link', \"mixed\" = 'Nope:1' WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:mixed: expected 'Class:key'"
            ),
            (
                "UPDATE Every SET \"uuid\" = 'xyz' WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:uuid: expected TEXT holding a UUID"
            ),
            (
                "UPDATE Every SET \"bool\" = 7 WHERE rowid = (SELECT min(rowid) FROM Every)",
                "Every#1:bool: expected INTEGER 0 or 1 for a bool, found INTEGER 7"
            ),
            ("UPDATE _porter_schema SET layout = 99", "layout 99 is not one this Porter reads"),
            ("UPDATE _porter_schema SET schema = '{'", "_porter_schema:"),
            ("DROP TABLE Every_intMap", "the table 'Every_intMap' of Every.intMap is missing"),
        ] as [(String, String)])
    func tamperedExportIsRefused(_ sql: String, _ message: String) throws {
        guard let python = Python.path else {
            print("skipped: python3 is not installed (it tampers with the export)")
            return
        }
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let sqlite = dir.appendingPathComponent("app.sqlite").path
        let run = CapturedOutput.run([
            "export", Self.realmDir.appendingPathComponent("every-type.realm").path, "--format", "sqlite",
            "--out", sqlite, "--quiet",
        ])
        try #require(run.status == 0, "\(run.output.stderr)")
        let tamper = try Python.run(
            python,
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute(sys.argv[2])
            db.commit()
            """, sqlite, sql)
        try #require(tamper.status == 0, "\(tamper.output)")
        let copy = dir.appendingPathComponent("copy.porter").path
        let schemaPath = dir.appendingPathComponent("schema.json").path
        let schema = CapturedOutput.run(["schema", Self.realmDir.appendingPathComponent("every-type.realm").path])
        try Data(schema.output.stdout.utf8).write(to: URL(fileURLWithPath: schemaPath))
        let imported = CapturedOutput.run(["import", copy, sqlite, "--create", "--schema", schemaPath, "--quiet"])
        #expect(imported.status == 1)
        #expect(imported.output.stderr.contains(message), "\(imported.output.stderr)")
        #expect(imported.output.stderr.contains(sqlite), "\(imported.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy))
    }
}

/// Runs short Python scripts (python3 is on every Debian machine; tests skip without it).
enum Python {
    static let path: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `script` with `arguments`; returns the exit status and stdout plus stderr.
    static func run(_ python: String, _ script: String, _ arguments: String...) throws -> (
        status: Int32, output: String
    ) {
        try runProgram(python, ["-c", script] + arguments)
    }

    /// Runs `executable` (a Python, or any program) with `arguments`; the exit status and stdout
    /// plus stderr.
    static func runProgram(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
