import Foundation
import PorterTestSupport
import Testing

/// `porter import DB postgresql://…` against a real PostgreSQL server (`make test` starts a
/// private one: `scripts/postgres-server.sh`): every Realm file of `Fixtures/realm` and
/// `../shared/realm-files` loaded with `export --to`, imported back into a new Porter database and
/// compared with the original by `porter verify` (and `porter verify` reading the server itself);
/// a database that is not a Porter export, a missing table and a wrong column type are refused in
/// one line naming them, with no file left behind.
@Suite(.serialized) struct PostgresImportTests {
    typealias RealmInput = PostgresExportTests.RealmInput
    static let everyType = PostgresExportTests.realmFolder.appendingPathComponent("every-type.realm").path

    /// Loads `input` into a new database with `export --to`, imports it into a new Porter
    /// database and verifies that against the Realm file; a file Porter cannot export at all
    /// (the SQLite export refuses it too) is skipped.
    func loadImportVerify(_ input: RealmInput) throws {
        let folder = try TemporaryFolder("pg-import")
        let db = try PostgresServer.createDatabase("import")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        let load = try PorterBinary.run(["export", input.path, "--to", url, "--quiet"] + input.keyArguments)
        if load.status != 0 {
            let lite = try PorterBinary.run(
                ["export", input.path, "--format", "sqlite", "--out", folder.path("x.sqlite"), "--quiet"]
                    + input.keyArguments)
            #expect(lite.status != 0, "only files Porter cannot export are refused: \(load.stderr)")
            return
        }
        let copy = folder.path("copy.porter")
        let imported = try PorterBinary.run(["import", copy, url, "--create", "--quiet"])
        if imported.status != 0 {
            // A schema a Porter database cannot hold (a class named as a type, in old files):
            // the SQLite export is refused by its import with the same message.
            let sqlite = folder.path("x.sqlite")
            let lite = try PorterBinary.run(
                ["export", input.path, "--format", "sqlite", "--out", sqlite, "--quiet"] + input.keyArguments)
            try #require(lite.status == 0, "\(lite.stderr)")
            let liteImport = try PorterBinary.run(["import", folder.path("lite.porter"), sqlite, "--create", "--quiet"])
            #expect(
                liteImport.status != 0, "the SQLite export imports, the PostgreSQL one does not: \(imported.stderr)")
            #expect(imported.stderr == liteImport.stderr)
            #expect(imported.stderr.contains("Schema validation failed"), "\(imported.stderr)")
            #expect(folder.listing == ["x.sqlite"], "no file is left behind")
            return
        }
        #expect(imported.stdout.contains("Imported"), "\(imported.stdout)")
        let verified = try PorterBinary.run(["verify", input.path, copy] + input.keyArguments)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("verified:"), "\(verified.stdout)")
        // verify reads the server itself too.
        let direct = try PorterBinary.run(["verify", input.path, url] + input.keyArguments)
        #expect(direct.status == 0, "\(direct.stdout)\(direct.stderr)")
        #expect(folder.listing == ["copy.porter"])
    }

    @Test(
        "every Realm file of Fixtures/realm: export --to, import postgresql://, verify equal",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"),
        arguments: PostgresExportTests.fixtureFiles)
    func fixtureFile(_ input: RealmInput) throws {
        try loadImportVerify(input)
    }

    @Test(
        "every Realm file of ../shared/realm-files: export --to, import postgresql://, verify equal",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"),
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: PostgresExportTests.sharedFiles)
    func sharedFile(_ input: RealmInput) throws {
        try loadImportVerify(input)
    }

    @Test(
        "the SQL file loaded with psql reads back equal; a planted difference is named by verify",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func sqlFileAndDifference() throws {
        let folder = try TemporaryFolder("pg-import-sql")
        let sql = folder.path("every.sql")
        let export = try PorterBinary.run(["export", Self.everyType, "--format", "postgres", "--out", sql, "--quiet"])
        try #require(export.status == 0, "\(export.stderr)")
        let db = try PostgresServer.createDatabase("importsql")
        defer { PostgresServer.dropDatabase(db) }
        try #require(try PostgresServer.psql(file: sql, database: db).status == 0)
        let same = try PorterBinary.run(["verify", Self.everyType, PostgresServer.url(db)])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        try #require(
            try PostgresServer.psql("UPDATE \"Every\" SET \"int\" = 42 WHERE _id = -5", database: db).status == 0)
        let changed = try PorterBinary.run(["verify", Self.everyType, PostgresServer.url(db)])
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.hasPrefix("Every[_id=-5].int:"), "\(changed.stdout)")
    }

    @Test(
        "?schema= names the schema: export into it and import from it",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func namedSchema() throws {
        let folder = try TemporaryFolder("pg-import-schema")
        let db = try PostgresServer.createDatabase("schema")
        defer { PostgresServer.dropDatabase(db) }
        try #require(try PostgresServer.psql("CREATE SCHEMA app", database: db).status == 0)
        let url = PostgresServer.url(db) + "&schema=app"
        let load = try PorterBinary.run(["export", Self.everyType, "--to", url, "--quiet"])
        try #require(load.status == 0, "\(load.stderr)")
        #expect(try PostgresServer.value("SELECT count(*) FROM app.\"Every\"", database: db) == "3")
        #expect(
            try PostgresServer.value("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: db) == "0")
        // The public schema is empty: not an export.
        let empty = try PorterBinary.run(["import", folder.path("a.porter"), PostgresServer.url(db), "--create"])
        #expect(empty.status == 1, "\(empty.stderr)")
        let copy = folder.path("copy.porter")
        let imported = try PorterBinary.run(["import", copy, url, "--create", "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let verified = try PorterBinary.run(["verify", Self.everyType, copy])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(folder.listing == ["copy.porter"])
    }

    @Test(
        "into an existing Realm file: its objects upserted from the server, the file rewritten equal",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func intoRealmFile() throws {
        let folder = try TemporaryFolder("pg-import-realm")
        let db = try PostgresServer.createDatabase("realm")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        // The classes with primary keys (upsert matches by them).
        let load = try PorterBinary.run(
            ["export", Self.everyType, "--to", url, "--class", "Every", "--class", "Target", "--quiet"])
        try #require(load.status == 0, "\(load.stderr)")
        let target = folder.path("copy.realm")
        try FileManager.default.copyItem(atPath: Self.everyType, toPath: target)
        let imported = try PorterBinary.run(["import", target, url, "--mode", "upsert"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("into the Realm file"), "\(imported.stdout)")
        let verified = try PorterBinary.run(["verify", Self.everyType, target])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // A changed value on the server comes into the file.
        try #require(
            try PostgresServer.psql("UPDATE \"Every\" SET \"int\" = 42 WHERE _id = -5", database: db).status == 0)
        let again = try PorterBinary.run(["import", target, url, "--mode", "upsert"])
        #expect(again.status == 0, "\(again.stderr)")
        let changed = try PorterBinary.run(["verify", Self.everyType, target])
        #expect(changed.status == 1)
        #expect(changed.stdout.hasPrefix("Every[_id=-5].int: source"), "\(changed.stdout)")
    }

    /// Loads every-type.realm, runs `change` on it with psql, and expects the import to fail in
    /// one line holding `message`, with no database file left behind.
    func expectRefused(_ change: String?, _ message: String) throws {
        let folder = try TemporaryFolder("pg-import-bad")
        let db = try PostgresServer.createDatabase("bad")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        if let change {
            let load = try PorterBinary.run(["export", Self.everyType, "--to", url, "--quiet"])
            try #require(load.status == 0, "\(load.stderr)")
            let changed = try PostgresServer.psql(change, database: db)
            try #require(changed.status == 0, "\(changed.stderr)")
        }
        let run = try PorterBinary.run(["import", folder.path("copy.porter"), url, "--create", "--quiet"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(folder.listing.isEmpty, "\(folder.listing)")
    }

    @Test(
        "a database that is not a Porter export, a missing table, a wrong column type: one line, exit 1, no file",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"),
        arguments: [
            (nil, "holds no _porter_schema table"),
            ("DROP TABLE \"Every_intList\"", "the table 'Every_intList' of Every.intList is missing"),
            (
                "ALTER TABLE \"Every\" ALTER COLUMN \"int\" TYPE text",
                "Every.int: a column of type text, where a Porter export writes bigint"
            ),
            ("ALTER TABLE \"Every\" DROP COLUMN \"date_ns\"", "Every.date_ns: the column is missing"),
            ("DELETE FROM _porter_schema", "_porter_schema must hold one row"),
        ] as [(String?, String)])
    func refused(_ change: String?, _ message: String) throws {
        try expectRefused(change, message)
    }

    @Test(
        "an existing database is left as it was when the import is refused",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func existingDatabaseUnchanged() throws {
        let folder = try TemporaryFolder("pg-import-keep")
        let db = try PostgresServer.createDatabase("keep")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        try #require(try PorterBinary.run(["export", Self.everyType, "--to", url, "--quiet"]).status == 0)
        let copy = folder.path("copy.porter")
        try #require(try PorterBinary.run(["import", copy, url, "--create", "--quiet"]).status == 0)
        // A second import of the same objects: duplicate primary keys, all or nothing.
        let again = try PorterBinary.run(["import", copy, url, "--quiet"])
        #expect(again.status == 1, "\(again.stderr)")
        #expect(again.stderr.contains("import failed"), "\(again.stderr)")
        let verified = try PorterBinary.run(["verify", Self.everyType, copy])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(folder.listing == ["copy.porter"])
    }

    /// An import killed half-way, while it reads the server, leaves every Porter database as it
    /// was: a new one is not there (only the killed run's recognisable temporary file, which the
    /// next run removes), an existing one holds what it held. Made deterministic by a lock:
    /// another session holds `Target`, the import waits for it inside its read, and is killed.
    @Test(
        "a killed import leaves no new database and an existing one as it was",
        .enabled(if: PostgresServer.available, "\(PostgresServer.missing)"))
    func killedImport() throws {
        let folder = try TemporaryFolder("pg-import-kill")
        let db = try PostgresServer.createDatabase("killimport")
        defer { PostgresServer.dropDatabase(db) }
        let url = PostgresServer.url(db)
        try #require(try PorterBinary.run(["export", Self.everyType, "--to", url, "--quiet"]).status == 0)
        let existing = folder.path("existing.porter")
        try #require(try PorterBinary.run(["import", existing, url, "--create", "--quiet"]).status == 0)
        let existingBytes = try Data(contentsOf: URL(fileURLWithPath: existing))
        let locker = try PostgresServer.lockTable("\"Target\"", database: db)
        defer { if locker.isRunning { locker.terminate() } }
        let waiting =
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(db)' AND wait_event_type = 'Lock' AND query NOT LIKE '%LOCK TABLE%'"
        let runs: [[String]] = [
            ["import", folder.path("new.porter"), url, "--create", "--quiet"],
            ["import", existing, url, "--mode", "upsert", "--quiet"],
        ]
        var killed: [Int32] = []
        for arguments in runs {
            let load = Process()
            load.executableURL = try PorterExecutable.locate()
            load.arguments = arguments
            load.standardOutput = FileHandle.nullDevice
            load.standardError = FileHandle.nullDevice
            try load.run()
            let waited = try PostgresServer.waitFor(waiting)
            kill(load.processIdentifier, SIGKILL)
            load.waitUntilExit()
            #expect(waited, "\(arguments[1]): the import never waited for the lock")
            #expect(load.terminationReason == .uncaughtSignal)
            killed.append(load.processIdentifier)
            // Besides the killed runs' temporary files, only SQLite's own write-ahead log of the
            // existing database (its uncommitted frames are never read).
            let left = folder.listing.filter {
                !["existing.porter", "existing.porter-wal", "existing.porter-shm"].contains($0)
            }
            #expect(
                left.allSatisfy { name in killed.contains { name.hasPrefix(".new.porter.porter-\($0)-") } },
                "\(arguments[1]): \(left)")
            // A backend blocked on a lock notices its client's death only when the lock is
            // released: ended here, as the server would end it then.
            _ = try PostgresServer.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(db)' AND wait_event_type = 'Lock' AND query NOT LIKE '%LOCK TABLE%'",
                database: "postgres")
            try PostgresServer.waitForNone(waiting)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == existingBytes, "the existing database changed")
        try PostgresServer.endSessions(db)
        locker.waitUntilExit()
        // With nothing holding the lock: the existing database verifies, and the next run makes
        // the new one and removes what the killed run left.
        let checked = try PorterBinary.run(["check", existing])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let verified = try PorterBinary.run(["verify", Self.everyType, existing])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        let again = try PorterBinary.run(["import", folder.path("new.porter"), url, "--create", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            folder.listing.filter { !$0.hasPrefix("existing.porter") } == ["new.porter"], "\(folder.listing)")
    }

    @Test("import with a bad postgresql:// URL: exit 64", arguments: ["postgresql://host:notaport/db"])
    func badURL(_ url: String) throws {
        let folder = try TemporaryFolder("pg-import-url")
        let run = try PorterBinary.run(["import", folder.path("x.porter"), url, "--create"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("PostgreSQL URL"), "\(run.stderr)")
        #expect(folder.listing.isEmpty)
    }

    @Test("import --help mentions postgresql:// sources")
    func help() throws {
        let run = try PorterBinary.run(["import", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("postgresql://"), "\(run.stdout)")
    }
}
