import Foundation
import Porter
import Testing
import PorterTestSupport

/// A database is untrusted: a trigger planted with the `sqlite3` command never fires in any Porter
/// command or in the Swift API, and `porter check` names it.
@Suite(
    .serialized,
    .enabled(
        if: Hardening.binariesBuilt && SQLiteCommand.path != nil,
        "needs the built porter (swift build) and the sqlite3 command (Debian's sqlite3)"))
struct PlantedTriggerTests {

    /// Runs `sqlite3 FILE SQL` and returns its output.
    private func sql(_ file: String, _ statement: String) throws -> String {
        let result = try RunningChild.run(SQLiteCommand.path!, [file, statement])
        guard result.status == 0 else { throw PorterError(.io, "sqlite3 failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A database of the every-type fixture with a marker table and a trigger that writes to it
    /// on any insert, update or delete of the classes a command writes.
    private func plantedDatabase(_ dir: TemporaryFolder) throws -> String {
        let db = dir.path("planted.porter")
        let realm = Hardening.fixtures.appendingPathComponent("realm/every-type.realm").path
        #expect(try Hardening.porter(["import", db, realm, "--create", "--quiet"]).status == 0)
        _ = try sql(
            db,
            """
            CREATE TABLE marker (what TEXT);
            CREATE TRIGGER planted_insert AFTER INSERT ON "class_NoPk" BEGIN INSERT INTO marker VALUES ('insert'); END;
            CREATE TRIGGER planted_update AFTER UPDATE ON "class_Every" BEGIN INSERT INTO marker VALUES ('update'); END;
            CREATE TRIGGER planted_meta AFTER UPDATE ON "_porter_meta" BEGIN INSERT INTO marker VALUES ('meta'); END;
            """)
        return db
    }

    @Test func plantedTriggerNeverFires() throws {
        let dir = try TemporaryFolder("trigger")
        let db = try plantedDatabase(dir)
        let source = dir.path("NoPk.json")
        try Data(#"{"n": 42}"#.utf8).write(to: URL(fileURLWithPath: source))
        let corpus = try DamagedCorpus()
        let newSchema = corpus.nextSchema
        let runs: [[String]] = [
            ["import", db, source], ["import", db, source, "--skip-check"],
            ["migrate", db, "--to", newSchema], ["migrate", db, "--to", newSchema, "--skip-check"],
        ]
        for args in runs {
            let result = try Hardening.porter(args)
            #expect(result.status == 1, "\(args): exit \(String(describing: result.status))")
            #expect(result.stderr.contains("trigger 'planted_"), "\(args): \(result.stderr)")
        }
        // Without the trigger, the same migration goes through: the refusal above was the trigger's.
        let copy = dir.path("copy.porter")
        try FileManager.default.copyItem(atPath: corpus.sound, toPath: copy)
        #expect(try Hardening.porter(["migrate", copy, "--to", newSchema]).status == 0)
        #expect(throws: PorterError.self) { _ = try Database.open(at: db) }
        var configuration = Realm.Configuration()
        configuration.fileURL = URL(fileURLWithPath: db)
        #expect(throws: (any Error).self) { _ = try Realm(configuration: configuration) }
        #expect(try sql(db, "SELECT count(*) FROM marker") == "0")
        #expect(try sql(db, "SELECT count(*) FROM class_NoPk") == "2")

        let check = try Hardening.porter(["check", db])
        #expect(check.status == 1)
        for name in ["planted_insert", "planted_update", "planted_meta"] {
            #expect(check.stdout.contains("trigger '\(name)'"), "\(check.stdout)")
        }
        #expect(check.stdout.contains("table 'marker'"))
        // Readers still read it (a trigger cannot fire on a read).
        #expect(try Hardening.porter(["export", db, "--out", dir.path("out"), "--skip-check"]).status == 0)
        #expect(try sql(db, "SELECT count(*) FROM marker") == "0")
    }

    /// Without its foreign objects the same database is written normally.
    @Test func databaseWithoutForeignObjectsIsWritten() throws {
        let dir = try TemporaryFolder("trigger")
        let db = try plantedDatabase(dir)
        _ = try sql(
            db,
            """
            DROP TRIGGER planted_insert; DROP TRIGGER planted_update; DROP TRIGGER planted_meta; DROP TABLE marker;
            """)
        let source = dir.path("NoPk.json")
        try Data(#"{"n": 42}"#.utf8).write(to: URL(fileURLWithPath: source))
        let result = try Hardening.porter(["import", db, source])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sql(db, "SELECT count(*) FROM class_NoPk") == "3")
    }

    /// A view is refused on open for writing, as a trigger is.
    @Test func plantedViewIsRefused() throws {
        let dir = try TemporaryFolder("trigger")
        let db = dir.path("view.porter")
        let realm = Hardening.fixtures.appendingPathComponent("realm/every-type.realm").path
        #expect(try Hardening.porter(["import", db, realm, "--create", "--quiet"]).status == 0)
        _ = try sql(db, "CREATE VIEW planted_view AS SELECT * FROM class_NoPk")
        let error = #expect(throws: PorterError.self) { _ = try Database.open(at: db) }
        #expect(error?.message.contains("view 'planted_view'") == true, "\(String(describing: error))")
        let check = try Hardening.porter(["check", db])
        #expect(check.stdout.contains("view 'planted_view'"))
    }
}

/// The `sqlite3` command, when installed.
enum SQLiteCommand {
    static let path: String? =
        (["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"]
        + DamagedCorpus.pathCandidates("sqlite3"))
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
