import Foundation
import GRDB
import PorterTestSupport
import Testing

/// `porter codegen --lang grdb` compiled and run: `Generated/EveryTypeRecords.swift` is the
/// generator's output for the every-type Realm file (checked byte for byte, so it cannot drift;
/// only a first line telling swift-format to skip it is added),
/// built against GRDB 7; its migrator and records run on that file's `--format sqlite` export.
@Suite struct GRDBCodegenTests {
    static let root = SharedRealmFiles.projectRoot
    static let fixture = "Fixtures/realm/every-type.realm"
    static let generated = "Tests/PorterGRDBCodegenTests/Generated/EveryTypeRecords.swift"
    /// The generated file's first line, so `make lint` and `make format` leave the generator's text alone.
    static let ignoreDirective = "// swift-format-ignore-file\n"
    static let regenerate =
        "(echo '\(ignoreDirective.dropLast())'; porter codegen \(fixture) --lang grdb) > \(generated)"
    /// Tables of the export that are not the app's data (the migrator does not create them).
    static let porterTables: Set<String> = ["_porter_schema", "_porter_null_entries"]

    /// What one run of the porter binary printed.
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs `porter arguments…` from the package root.
    static func porter(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try PorterExecutable.locate()
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes read before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The fixture exported with `--format sqlite` into `folder`.
    static func export(into folder: TemporaryFolder) throws -> String {
        let path = folder.path("every-type.sqlite")
        let run = try porter(["export", fixture, "--format", "sqlite", "--out", path, "--quiet"])
        try #require(run.status == 0, "porter export failed: \(run.stderr)")
        return path
    }

    /// The app's tables and indexes of a database: (type, name, table, SQL), by name.
    static func schemaRows(_ db: Database) throws -> [[String?]] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").compactMap {
            row -> [String?]? in
            let table: String = row["tbl_name"]
            guard !porterTables.contains(table), !table.hasPrefix("grdb_") else { return nil }
            return [row["type"], row["name"], table, row["sql"]]
        }
    }

    /// The generated record type of a table (`Codegen.typeName`: the table name, first letter upper).
    static func recordType(_ table: String) -> (any (FetchableRecord & PersistableRecord).Type)? {
        let typeName = table.prefix(1).uppercased() + table.dropFirst()
        // Looked up by its mangled name (module, type, `V` for a struct), so no list can drift.
        let module = "PorterGRDBCodegenTests"
        return _typeByName("\(module.utf8.count)\(module)\(typeName.utf8.count)\(typeName)V")
            as? any (FetchableRecord & PersistableRecord).Type
    }

    /// Reads every row of `table` in `source` as `type`'s records and inserts them into `target`.
    static func copy<Record: FetchableRecord & PersistableRecord>(
        _ type: Record.Type, table: String, from source: Database, to target: Database
    ) throws -> Int {
        let records = try Record.fetchAll(source, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid")
        for record in records { try record.insert(target) }
        return records.count
    }

    @Test func committedRecordsAreTheGeneratorsOutput() throws {
        let run = try Self.porter(["codegen", Self.fixture, "--lang", "grdb"])
        try #require(run.status == 0, "porter codegen failed: \(run.stderr)")
        let committed = try Data(contentsOf: Self.root.appendingPathComponent(Self.generated))
        #expect(
            Data(Self.ignoreDirective.utf8) + run.stdout == committed,
            "\(Self.generated) is not what porter codegen prints now; regenerate it from the package root: \(Self.regenerate)"
        )
    }

    @Test func migratorCreatesExactlyTheExportsTables() throws {
        let folder = try TemporaryFolder("grdb-codegen")
        let exported = try DatabaseQueue(path: try Self.export(into: folder))
        let fresh = try DatabaseQueue(path: folder.path("fresh.sqlite"))
        try PorterMigrations.migrator.migrate(fresh)
        let expected = try exported.read { try Self.schemaRows($0) }
        #expect(expected.contains { $0[0] == "table" && $0[1] == "Every" })
        #expect(try fresh.read { try Self.schemaRows($0) } == expected)
        // On the export itself the migration is recorded and changes nothing.
        try PorterMigrations.migrator.migrate(exported)
        #expect(try exported.read { try Self.schemaRows($0) } == expected)
        #expect(try exported.read { try PorterMigrations.migrator.hasCompletedMigrations($0) })
    }

    /// Every row of every table of the export read as the generated records and written by them
    /// into a database the migrator made: the same rows, but for the two values GRDB's decoding
    /// cannot carry (the Leaving Realm guide, "Moving an app to GRDB"), which the fixture holds and the test counts.
    @Test func everyRecordReadsBackAndWritesTheSameRows() throws {
        let folder = try TemporaryFolder("grdb-codegen")
        let exported = try DatabaseQueue(path: try Self.export(into: folder))
        var configuration = Configuration()
        // Records go in table by table; links between tables are checked once all are in.
        configuration.foreignKeysEnabled = false
        let copy = try DatabaseQueue(path: folder.path("copy.sqlite"), configuration: configuration)
        try PorterMigrations.migrator.migrate(copy)
        let tables = try exported.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .filter { !Self.porterTables.contains($0) }
        }
        #expect(tables.count > 50, "the every-type export has a table per class and per collection")
        var records = 0
        var nanLosses = 0
        var nulLosses = 0
        try exported.read { source in
            try copy.write { target in
                for table in tables {
                    guard let type = Self.recordType(table) else {
                        Issue.record("no generated record type for table \(table)")
                        continue
                    }
                    records += try Self.copy(type, table: table, from: source, to: target)
                }
            }
        }
        #expect(records > 100)
        let (foreignKeyProblems, integrity) = try copy.read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"),
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(foreignKeyProblems.isEmpty, "\(foreignKeyProblems)")
        #expect(integrity == ["ok"])
        for table in tables {
            let (before, after) = (try Self.rows(table, exported), try Self.rows(table, copy))
            #expect(before.count == after.count, "\(table): \(before.count) rows exported, \(after.count) copied")
            for (row, (old, new)) in zip(before, after).enumerated() {
                for (column, (a, b)) in zip(
                    old.keys.sorted(), zip(old.sorted { $0.key < $1.key }, new.sorted { $0.key < $1.key }))
                where a.value != b.value {
                    switch (a.value.value.storage, b.value.value.storage) {
                    case (.string("NaN"), .double(0)):
                        nanLosses += 1  // a NaN double (kept as text) decodes as 0.0
                    case (.string, .string) where a.value.bytes.contains(0):
                        // A string decodes up to its first NUL character.
                        #expect(
                            b.value.bytes == Array(a.value.bytes.prefix { $0 != 0 }), "\(table)[\(row)].\(column)")
                        nulLosses += 1
                    default:
                        Issue.record(
                            "\(table) row \(row + 1), column \(column): exported \(a.value), GRDB wrote \(b.value)")
                    }
                }
            }
        }
        // The fixture holds both values GRDB cannot carry (the Leaving Realm guide says so): the test would notice a fix.
        #expect(nanLosses > 0 && nulLosses > 0, "NaN losses \(nanLosses), NUL losses \(nulLosses)")
    }

    /// One stored value: as GRDB reads it, and its bytes as SQLite holds them (`hex`; GRDB's text
    /// reading stops at a NUL character, so only the bytes show such a string whole).
    struct Stored: Equatable, CustomStringConvertible {
        var value: DatabaseValue
        var bytes: [UInt8]
        var description: String { "\(value) (bytes \(bytes))" }
    }

    /// The rows of `table` in `queue` by rowid, each as its stored values by column.
    static func rows(_ table: String, _ queue: DatabaseQueue) throws -> [[String: Stored]] {
        try queue.read { db in
            let columns = try db.columns(in: table).map(\.name)
            let hex = columns.map { "hex(\"\($0)\")" }.joined(separator: ", ")
            let sql = "SELECT *, \(hex) FROM \"\(table)\" ORDER BY rowid"
            return try Row.fetchAll(db, sql: sql).map { row in
                var out: [String: Stored] = [:]
                for (i, column) in columns.enumerated() {
                    let text: String = row[columns.count + i]
                    let digits = Array(text.utf8)
                    let bytes = stride(from: 0, to: digits.count, by: 2).map {
                        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
                    }
                    out[column] = Stored(value: row[i], bytes: bytes)
                }
                return out
            }
        }
    }

    /// A few fields of an `Every` object of Porter's JSON export.
    struct EveryObject: Decodable {
        var _id: Int64
        var string: String
        var int: Int64
        var bool: Bool
        var target: String?
    }

    /// A `Target` object of Porter's JSON export.
    struct TargetObject: Decodable {
        var name: String
    }

    /// Any object of Porter's JSON export (counted only).
    struct SomeObject: Decodable {}

    /// The records of the top-level classes are the objects of Porter's own JSON export of the file.
    @Test func topLevelRecordsAreTheExportedObjects() throws {
        let folder = try TemporaryFolder("grdb-codegen")
        let exported = try DatabaseQueue(path: try Self.export(into: folder))
        let json = folder.path("json")
        let run = try Self.porter(["export", Self.fixture, "--format", "json", "--out", json, "--quiet"])
        try #require(run.status == 0, "porter export --format json failed: \(run.stderr)")
        func objects<Object: Decodable>(_ className: String, as type: Object.Type) throws -> [Object] {
            let text = try String(contentsOfFile: folder.path("json/\(className).json"), encoding: .utf8)
            return try text.split(separator: "\n").map { try JSONDecoder().decode(type, from: Data($0.utf8)) }
        }
        let (every, targets, plains) = try exported.read { db in
            (try Every.fetchAll(db), try Target.fetchAll(db), try NoPk.fetchAll(db))
        }
        let everyJSON = try objects("Every", as: EveryObject.self)
        #expect(!every.isEmpty && every.count == everyJSON.count)
        #expect(every.map(\.id).sorted() == everyJSON.map(\._id).sorted())
        var nulCut = 0
        for record in every {
            let object = try #require(everyJSON.first { $0._id == record.id })
            if object.string.contains("\0") {
                #expect(record.string == String(object.string.prefix { $0 != "\0" }))
                nulCut += 1
            } else {
                #expect(record.string == object.string)
            }
            #expect(record.int == object.int && record.bool == object.bool && record.target == object.target)
        }
        #expect(nulCut < every.count)
        let targetJSON = try objects("Target", as: TargetObject.self)
        #expect(targets.map(\.name).sorted() == targetJSON.map(\.name).sorted())
        #expect(plains.count == (try objects("NoPk", as: SomeObject.self)).count)
    }
}
