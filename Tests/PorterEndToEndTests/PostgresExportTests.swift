import Foundation
import PorterTestSupport
import Testing

/// `porter export --format postgres` and `--to postgresql://…` against a real PostgreSQL server
/// (`make test` starts a private one: `scripts/postgres-server.sh`): every Realm file of
/// `Fixtures/realm` and `../shared/realm-files` loaded with psql and through libpq, read back and
/// compared cell by cell with the `--format sqlite` export of the same file
/// (`Tests/PostgresCheck/compare_export.py`); refusals, a second load, `--mode replace`, a killed load.
@Suite(.serialized) struct PostgresExportTests {
    static let realmFolder = PorterBinary.fixtures.appendingPathComponent("realm")
    static let keyZeroTo63 = (0..<64).map { String(format: "%02x", $0) }.joined()
    static let key100To163 = (100..<164).map { String(format: "%02x", $0) }.joined()
    static let comparer = PorterBinary.packageRoot.appendingPathComponent("Tests/PostgresCheck/compare_export.py").path

    /// A checksum of every table of the `public` schema: each table's name and the MD5 of its rows
    /// (sorted, as XML), so two databases with the same rows give the same text.
    static let digest = """
        SELECT count(*) || ':' || string_agg(tablename || '=' || md5(query_to_xml(format('SELECT * FROM %I porter_row ORDER BY porter_row', tablename), true, false, '')::text), ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'
        """

    /// A Realm file to load, with its key.
    struct RealmInput: CustomTestStringConvertible, Sendable {
        let path: String
        let keyHex: String?
        var testDescription: String { URL(fileURLWithPath: path).lastPathComponent }
        var keyArguments: [String] { keyHex.map { ["--encryption-key", $0] } ?? [] }
    }

    /// Every `.realm` file of `Fixtures/realm` (and its subfolders).
    static let fixtureFiles: [RealmInput] = realmFiles(in: realmFolder.path)

    /// Every `.realm` file of `../shared/realm-files` (empty when the folder is absent).
    static let sharedFiles: [RealmInput] =
        SharedRealmFiles.available ? realmFiles(in: SharedRealmFiles.folder.path) : []

    static func realmFiles(in folder: String) -> [RealmInput] {
        let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".realm") }.sorted()
        return names.map { name in
            let key: String? =
                name.hasSuffix("every-type-encrypted.realm") || name.hasSuffix("column-migration-encrypted.realm")
                ? key100To163 : name.hasSuffix("dev-encrypted-realm-docs.realm") ? keyZeroTo63 : nil
            return RealmInput(path: folder + "/" + name, keyHex: key)
        }
    }

    /// Exports `input` both ways, loads the SQL file with psql and the same file through `--to`,
    /// and compares both databases with the SQLite export. A file Porter cannot export at all
    /// (the SQLite export refuses it) must be refused by `--format postgres` with the same message.
    func loadAndCompare(_ input: RealmInput) throws {
        let folder = try TemporaryFolder("pg-export")
        let sqlite = folder.path("out.sqlite"), sql = folder.path("out.sql")
        let lite = try PorterBinary.run(
            ["export", input.path, "--format", "sqlite", "--out", sqlite, "--quiet"] + input.keyArguments)
        let pg = try PorterBinary.run(
            ["export", input.path, "--format", "postgres", "--out", sql, "--quiet"] + input.keyArguments)
        if lite.status != 0 {
            // Not a file Porter exports (e.g. an encrypted file of another format): the same refusal.
            #expect(pg.status == lite.status, "\(pg.stderr)")
            #expect(
                pg.stderr.replacingOccurrences(of: sql, with: "OUT")
                    == lite.stderr.replacingOccurrences(
                        of: sqlite, with: "OUT"))
            #expect(!FileManager.default.fileExists(atPath: sql))
            return
        }
        #expect(pg.status == 0, "\(pg.stderr)")
        #expect(pg.stdout.contains("as a PostgreSQL SQL file to \(sql)"))
        let text = try String(contentsOfFile: sql, encoding: .utf8)
        #expect(text.contains("\nBEGIN;\n") && text.hasSuffix("COMMIT;\n"))
        // Nothing but the two exports in the folder (no spool or temporary file left).
        #expect(folder.listing == ["out.sql", "out.sqlite"])

        let viaFile = try PostgresServer.createDatabase("file")
        defer { PostgresServer.dropDatabase(viaFile) }
        let loaded = try PostgresServer.psql(file: sql, database: viaFile)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stderr.isEmpty, "\(loaded.stderr)")
        let compared = try PostgresServer.run("python3", [Self.comparer, sqlite, PostgresServer.socket, viaFile])
        #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("\nOK "), "\(compared.stdout)")

        let viaLibpq = try PostgresServer.createDatabase("libpq")
        defer { PostgresServer.dropDatabase(viaLibpq) }
        let direct = try PorterBinary.run(
            ["export", input.path, "--to", PostgresServer.url(viaLibpq), "--quiet"] + input.keyArguments)
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdout.contains("into PostgreSQL at \(PostgresServer.url(viaLibpq))"))
        let comparedDirect = try PostgresServer.run(
            "python3", [Self.comparer, sqlite, PostgresServer.socket, viaLibpq])
        #expect(comparedDirect.status == 0, "\(comparedDirect.stdout)\(comparedDirect.stderr)")
        // The two loads hold the same rows: one checksum over every table of each.
        #expect(
            try PostgresServer.value(Self.digest, database: viaFile)
                == PostgresServer.value(Self.digest, database: viaLibpq))
    }

    @Test(
        "every Realm file of Fixtures/realm: psql -f and --to load what the SQLite export holds",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"), arguments: fixtureFiles)
    func fixtureFile(_ input: RealmInput) throws {
        try loadAndCompare(input)
    }

    @Test(
        "every Realm file of ../shared/realm-files: psql -f and --to load what the SQLite export holds",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"),
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"), arguments: sharedFiles)
    func sharedFile(_ input: RealmInput) throws {
        try loadAndCompare(input)
    }

    @Test("Fixtures/realm holds the files this suite loads") func fixturesListed() {
        #expect(Self.fixtureFiles.map(\.testDescription).contains("every-type.realm"))
    }

    /// Values of every type, read back with psql: PostgreSQL's own types, nanoseconds beside
    /// timestamptz, decimal128 as numeric, uuid, bytea, jsonb for mixed, U+0000 in a string.
    @Test(
        "every-type.realm: PostgreSQL types and values as psql reads them",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func everyTypeValues() throws {
        let folder = try TemporaryFolder("pg-values")
        let sql = folder.path("every.sql")
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let run = try PorterBinary.run(["export", path, "--format", "postgres", "--out", sql, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        let db = try PostgresServer.createDatabase("values")
        defer { PostgresServer.dropDatabase(db) }
        try #require(try PostgresServer.psql(file: sql, database: db).status == 0)
        func value(_ query: String) throws -> String { try PostgresServer.value(query, database: db) }
        func type(_ table: String, _ column: String) throws -> String {
            try value(
                "SELECT data_type FROM information_schema.columns WHERE table_name = '\(table)' AND column_name = '\(column)'"
            )
        }
        #expect(try type("Every", "_id") == "bigint")
        #expect(try type("Every", "bool") == "boolean")
        #expect(try type("Every", "float") == "real")
        #expect(try type("Every", "double") == "double precision")
        #expect(try type("Every", "uuid") == "uuid")
        #expect(try type("Every", "data") == "bytea")
        #expect(try type("Every", "date") == "timestamp with time zone")
        #expect(try type("Every", "date_ns") == "smallint")
        #expect(try type("Every", "mixed") == "jsonb")
        #expect(try type("Every", "objectId") == "text")
        #expect(try value("SELECT count(*) FROM \"Every\"") == "3")
        #expect(try value("SELECT count(*) FROM \"Target\"") != "0")
        // Foreign keys and indexes exist (added after the data).
        #expect(
            try Int(value("SELECT count(*) FROM pg_constraint WHERE contype = 'f'")) ?? 0 > 5)
        #expect(
            try value("SELECT count(*) FROM pg_indexes WHERE tablename = 'Every' AND indexdef LIKE '%indexedString%'")
                == "1")
        // The schema as Porter wrote it.
        #expect(try value("SELECT layout FROM _porter_schema") == "1")
        #expect(try value("SELECT (schema::jsonb)->>'schemaVersion' FROM _porter_schema") == "7")
        // Every value of every row equals the fixture's own dump (the oracle's), for a few types.
        let dump = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.realmFolder.appendingPathComponent("every-type.expected.json")))
        let every = ((dump as? [String: Any])?["objects"] as? [String: Any])?["Every"] as? [[String: Any]] ?? []
        try #require(every.count == 3)
        for object in every {
            guard let idText = (object["_id"] as? [String: Any])?["$numberLong"] as? String else { continue }
            let row = "FROM \"Every\" WHERE _id = \(idText)"
            // uuid
            if let uuid = (object["uuid"] as? [String: Any]).flatMap({ $0["$uuid"] as? String }) {
                #expect(try value("SELECT uuid \(row)") == uuid.lowercased())
            }
            // decimal128: numeric where exact, compared by value
            if let decimal = (object["decimal128"] as? [String: Any])?["$numberDecimal"] as? String,
                try type("Every", "decimal128") == "numeric", Double(decimal)?.isFinite == true
            {
                #expect(try value("SELECT decimal128 = '\(decimal)'::numeric \(row)") == "t")
            }
            // date: milliseconds from the timestamptz, nanoseconds below the millisecond from both columns
            if let date = object["date"] as? [String: Any],
                let ms = (date["$date"] as? [String: Any])?["$numberLong"] as? String
            {
                let nanos = (date["$nanos"] as? Int) ?? 0
                let got = try value(
                    "SELECT floor(extract(epoch FROM date) * 1000)::bigint, (extract(microseconds FROM date)::bigint % 1000) * 1000 + date_ns \(row)"
                )
                #expect(got == "\(ms)|\(nanos)", "date of Every \(idText)")
            }
            // bool
            if let b = object["bool"] as? Bool { #expect(try value("SELECT bool \(row)") == (b ? "t" : "f")) }
        }
        // A string holding U+0000 is a bytea column of its UTF-8 bytes (text cannot hold it).
        let nulColumns = try value(
            "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns WHERE table_name = 'Every' AND data_type = 'bytea' AND column_name LIKE 'string%'"
        )
        #expect(!nulColumns.isEmpty, "every-type.realm has strings with U+0000 (Fixtures/realm/README.md)")
        // mixed as canonical Extended JSON with its kind beside it.
        #expect(try value("SELECT count(*) FROM \"Every\" WHERE mixed_type IS NOT NULL") != "0")
        #expect(
            try value(
                "SELECT count(*) FROM \"Every_mixedList\" WHERE jsonb_typeof(value) IS NULL AND value_type IS NOT NULL")
                == "0")
    }

    /// COPY text escaping: backslash, tab, newline, carriage return, `\N` and `\.` as text.
    @Test(
        "strings with backslash, tab, newline, CR, \\N and \\. come back byte for byte",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func escaping() throws {
        let folder = try TemporaryFolder("pg-escape")
        let schema = folder.path("schema.json")
        try
            #"{"schemaVersion": 1, "classes": [{"name": "Note", "primaryKey": "id", "properties": {"id": "string", "text": "string?", "tags": "string[]", "blob": "data?"}}]}"#
            .write(toFile: schema, atomically: true, encoding: .utf8)
        let strings = [
            "a\\b", "tab\there", "line\nbreak", "cr\rhere", "\\N", "\\.", "\n\\.\n", "é ☃ \u{1F600}", "", "\t\\\t",
        ]
        var objects: [[String: Any]] = []
        for (i, s) in strings.enumerated() {
            objects.append([
                "id": "k\(i)\t\\", "text": s, "tags": [s, "\\"],
                "blob": ["$binary": ["base64": Data(s.utf8).base64EncodedString(), "subType": "00"]],
            ])
        }
        var lines = Data()
        for object in objects { lines += try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8) }
        try lines.write(to: folder.file("Note.json"))
        let db = folder.path("notes.porter")
        let made = try PorterBinary.run(["import", db, folder.path("Note.json"), "--schema", schema, "--create"])
        try #require(made.status == 0, "\(made.stderr)")
        let sql = folder.path("notes.sql")
        let run = try PorterBinary.run(["export", db, "--format", "postgres", "--out", sql, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        let database = try PostgresServer.createDatabase("escape")
        defer { PostgresServer.dropDatabase(database) }
        try #require(try PostgresServer.psql(file: sql, database: database).status == 0)
        for (i, s) in strings.enumerated() {
            // Compared as hex of the UTF-8 bytes: psql's own output escapes nothing.
            let hex = Data(s.utf8).map { String(format: "%02x", $0) }.joined()
            let key = "'k\(i)' || chr(9) || '\\'"
            #expect(
                try PostgresServer.value(
                    "SELECT encode(convert_to(text, 'UTF8'), 'hex') FROM \"Note\" WHERE id = \(key)", database: database
                )
                    == hex, "string \(i)")
            #expect(
                try PostgresServer.value(
                    "SELECT encode(blob, 'hex') FROM \"Note\" WHERE id = \(key)", database: database)
                    == hex, "data \(i)")
            #expect(
                try PostgresServer.value(
                    "SELECT encode(convert_to(value, 'UTF8'), 'hex') FROM \"Note_tags\" WHERE owner = \(key) AND position = 0",
                    database: database) == hex, "list element \(i)")
        }
        #expect(try PostgresServer.value("SELECT count(*) FROM \"Note\" WHERE text IS NULL", database: database) == "0")
    }

    /// A second load into a schema that holds tables is refused (nothing changes); `--mode replace`
    /// replaces this export's tables in one transaction.
    /// Queries over every-type.realm's values (NaN, -0, infinities, nulls, mixed kinds, links to
    /// a class with a primary key and without, embedded objects), most of them translated to SQL.
    static let selectionQueries = [
        "double == 0", "double < 0", "double >= 0", "doubleOpt > 1", "doubleOpt == nil", "float < 0",
        "float >= 0", "floatOpt > 0", "NOT (double < 0)", "ANY doubleList > 0", "ALL floatList >= 0",
        "ANY doubleOptList == nil", "floatSet.@count > 1", "doubleMap.@count == 0", "mixed == nil",
        "mixed.@type == 'double'", "mixed.@type IN {'float', 'data', 'date', 'decimal128', 'objectId', 'uuid'}",
        "mixed.@type IN {'link', 'list', 'dictionary', 'bool', 'int', 'string'}", "mixed == true", "mixed == 'a'",
        "ANY mixedList.@type == 'string'", "mixedMap.@count > 0", "target == nil", "target.name == 'a'",
        "target.n > 0", "ANY targets.n > 0", "targets.@count > 1", "plain.n > 0", "ANY plains.n == 1",
        "emb.label == 'x'", "emb.inner.v > 0", "ANY embList.inners.v > 0", "ANY embList.label == 'b'",
        "embList.@count > 0", "boolOpt == false", "NOT (intOpt > 0)", "intOptList.@sum > 0", "stringOpt == nil",
        "ANY stringList BEGINSWITH 'a'",
    ]

    /// The `_id`s of the `Every` rows a `--format postgres` file holds (its first column).
    static func copiedKeys(_ path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "COPY \"Every\" FROM stdin;"))
        return lines[(start + 1)...].prefix { $0 != "\\." }.map { String($0.prefix { $0 != "\t" }) }
    }

    @Test(
        "--query of a Porter database exported into PostgreSQL selects what the SQLite export's evaluator selects",
        arguments: selectionQueries)
    func querySelection(_ query: String) throws {
        let folder = try TemporaryFolder("pg-query")
        let database = folder.path("copy.porter")
        let source = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let made = try PorterBinary.run(["import", database, source, "--create", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        let selection = ["--class", "Every", "--query", query, "--quiet"]
        let lite = try PorterBinary.run(
            ["export", database, "--format", "sqlite", "--out", folder.path("s.sqlite")] + selection)
        try #require(lite.status == 0, "\(lite.stderr)")
        let keys = try PostgresServer.run(
            "sqlite3", [folder.path("s.sqlite"), "SELECT \"_id\" FROM \"Every\" ORDER BY rowid"])
        let expected = keys.stdout.split(separator: "\n").map(String.init)
        let pg = try PorterBinary.run(
            ["export", database, "--format", "postgres", "--out", folder.path("p.sql")] + selection)
        try #require(pg.status == 0, "\(pg.stderr)")
        #expect(try Self.copiedKeys(folder.path("p.sql")) == expected, "\(query)")
        guard PostgresServer.available else { return }
        let db = try PostgresServer.createDatabase("query")
        defer { PostgresServer.dropDatabase(db) }
        let to = try PorterBinary.run(["export", database, "--to", PostgresServer.url(db)] + selection)
        try #require(to.status == 0, "\(to.stderr)")
        let loaded = try PostgresServer.psql("SELECT \"_id\" FROM \"Every\" ORDER BY 1", database: db)
        #expect(loaded.stdout.split(separator: "\n").map(String.init) == expected.sorted { Int($0)! < Int($1)! })
    }

    @Test("most selection queries select some but not all objects of every-type.realm")
    func selectionQueriesDiscriminate() throws {
        let folder = try TemporaryFolder("pg-query-counts")
        let source = Self.realmFolder.appendingPathComponent("every-type.realm").path
        var some = 0
        for query in Self.selectionQueries {
            let run = try PorterBinary.run(
                [
                    "export", source, "--class", "Every", "--query", query, "--format", "postgres", "--out",
                    folder.path("c.sql"), "--force", "--quiet",
                ])
            try #require(run.status == 0, "\(query): \(run.stderr)")
            let count = try Self.copiedKeys(folder.path("c.sql")).count
            if count > 0 && count < 3 { some += 1 }
        }
        #expect(some > Self.selectionQueries.count / 2)
    }

    @Test(
        "a second --to load is refused unless --mode replace",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func secondLoad() throws {
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let db = try PostgresServer.createDatabase("second")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        let first = try PorterBinary.run(["export", path, "--to", url, "--quiet"])
        try #require(first.status == 0, "\(first.stderr)")
        _ = try PostgresServer.psql("INSERT INTO \"Target\" (name) VALUES ('added by hand')", database: db)
        let count = "SELECT count(*) FROM \"Target\""
        let before = try PostgresServer.value(count, database: db)
        let second = try PorterBinary.run(["export", path, "--to", url, "--quiet"])
        #expect(second.status == 1)
        #expect(second.errorLines.count == 1, "\(second.stderr)")
        #expect(second.stderr.contains("the schema 'public' already holds"), "\(second.stderr)")
        #expect(second.stderr.contains("--mode replace"), "\(second.stderr)")
        #expect(try PostgresServer.value(count, database: db) == before)
        // A table of the user's own survives a replace; this export's tables are loaded afresh.
        _ = try PostgresServer.psql("CREATE TABLE mine (x int); INSERT INTO mine VALUES (7)", database: db)
        let replaced = try PorterBinary.run(["export", path, "--to", url, "--mode", "replace", "--quiet"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try PostgresServer.value(count, database: db) == String((Int(before) ?? 0) - 1))
        #expect(try PostgresServer.value("SELECT x FROM mine", database: db) == "7")
    }

    /// A load killed half-way leaves the database as it was: the server rolls its transaction
    /// back. Made deterministic by a lock: a `--mode replace` load drops the export's tables in
    /// its transaction, then waits for `_porter_schema`, which another session holds, and is
    /// killed while it waits; the dropped tables are all still there, with their rows.
    @Test(
        "a killed --to load leaves the database as before",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func killedLoad() throws {
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let database = try PostgresServer.createDatabase("kill")
        defer { PostgresServer.dropDatabase(database) }
        let url = PostgresServer.url(database)
        let first = try PorterBinary.run(["export", path, "--to", url, "--quiet"])
        try #require(first.status == 0, "\(first.stderr)")
        let digest = Self.digest
        let before = try PostgresServer.value(digest, database: database)
        let rowsBefore = try PostgresServer.value("SELECT count(*) FROM \"Every_intList\"", database: database)
        // Another session holds _porter_schema.
        let locker = try PostgresServer.lockTable("_porter_schema", database: database)
        defer { if locker.isRunning { locker.terminate() } }
        let load = Process()
        load.executableURL = try PorterExecutable.locate()
        load.arguments = ["export", path, "--to", url, "--mode", "replace", "--quiet"]
        load.standardOutput = FileHandle.nullDevice
        load.standardError = FileHandle.nullDevice
        try load.run()
        // The load is inside its transaction, its drops done, waiting for the lock.
        let waiting = try PostgresServer.waitFor(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock' AND query LIKE 'DROP TABLE%_porter_schema%'"
        )
        kill(load.processIdentifier, SIGKILL)
        load.waitUntilExit()
        #expect(waiting, "the load never waited for the lock")
        #expect(load.terminationReason == .uncaughtSignal)
        try PostgresServer.endSessions(database)
        locker.waitUntilExit()
        // The server rolled the killed load back: every table and row as before.
        try PostgresServer.waitForNone("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'")
        #expect(try PostgresServer.value(digest, database: database) == before)
        #expect(try PostgresServer.value("SELECT count(*) FROM \"Every_intList\"", database: database) == rowsBefore)
        // And the load runs to its end once nothing holds the lock.
        let again = try PorterBinary.run(["export", path, "--to", url, "--mode", "replace", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try PostgresServer.value(digest, database: database) == before)
    }

    // MARK: Refusals (no server needed for the argument checks)

    @Test(
        "--to with a bad URL: exit 64, nothing written",
        arguments: [
            "mysql://localhost/db", "postgresql://host:notaport/db", "postgresql://x:99999/db",
            "postgresql://x/db?nosuchoption=1", "postgresql://[::1/db",
        ])
    func badURL(_ url: String) throws {
        let folder = try TemporaryFolder("pg-url")
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let run = try PorterBinary.run(["export", path, "--to", url], in: folder.url)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("PostgreSQL URL"), "\(run.stderr)")
        #expect(folder.listing.isEmpty)
    }

    @Test("--to an unreachable server: exit 1, one line naming it, nothing written")
    func unreachable() throws {
        let folder = try TemporaryFolder("pg-down")
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let url = "postgresql://porter:secret@/db?host=\(folder.path)&connect_timeout=5"
        let run = try PorterBinary.run(["export", path, "--to", url])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("cannot connect to PostgreSQL"), "\(run.stderr)")
        #expect(run.stderr.contains("porter:***@"), "the password is not shown: \(run.stderr)")
        #expect(!run.stderr.contains("secret"))
        #expect(folder.listing.isEmpty)
    }

    @Test(
        "argument refusals of --format postgres and --to: exit 64",
        arguments: [
            (["--format", "postgres"], "pass --out FILE.sql"),
            (["--format", "postgres", "--out", "x.sql", "--gzip"], "--gzip does not apply to --format postgres"),
            (["--format", "postgres", "--out", "x.sql", "--mode", "replace"], "--mode applies to --to"),
            (["--out", "x", "--mode", "replace"], "--mode applies to --to"),
            (["--to", "postgresql:///db", "--out", "x.sql"], "leave out --out"),
            (["--to", "postgresql:///db", "--format", "csv"], "leave out --format csv"),
            (["--to", "postgresql:///db", "--mode", "sideways"], "sideways"),
        ])
    func refusals(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder("pg-args")
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        let run = try PorterBinary.run(["export", path] + arguments, in: folder.url)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(folder.listing.isEmpty)
    }

    @Test("--out FILE.sql that exists is refused without --force; a folder gets NAME.sql")
    func outputFile() throws {
        let folder = try TemporaryFolder("pg-out")
        let path = Self.realmFolder.appendingPathComponent("every-type.realm").path
        try "keep".write(toFile: folder.path("x.sql"), atomically: true, encoding: .utf8)
        let refused = try PorterBinary.run(["export", path, "--format", "postgres", "--out", folder.path("x.sql")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already exists"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: folder.path("x.sql"), encoding: .utf8) == "keep")
        #expect(folder.listing == ["x.sql"])
        let forced = try PorterBinary.run(
            ["export", path, "--format", "postgres", "--out", folder.path("x.sql"), "--force", "--quiet"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: folder.path("x.sql"), encoding: .utf8).hasSuffix("COMMIT;\n"))
        let intoFolder = try PorterBinary.run(["export", path, "--format", "postgres", "--out", folder.path, "--quiet"])
        #expect(intoFolder.status == 0, "\(intoFolder.stderr)")
        #expect(folder.listing == ["every-type.sql", "x.sql"])
    }

    @Test("export --help lists --format postgres, --to and --mode")
    func help() throws {
        let run = try PorterBinary.run(["export", "--help"])
        #expect(run.status == 0)
        for word in [
            "--format postgres", "--to <postgresql-url>", "--mode <new|replace>", "psql -v", "sqlite, postgres, realm",
        ] {
            #expect(run.stdout.contains(word), "\(word)")
        }
    }
}
