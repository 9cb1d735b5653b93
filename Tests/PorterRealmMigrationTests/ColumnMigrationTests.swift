import Foundation
import PorterTestSupport
import PorterDiff
import PorterMigration
import PorterModel
import PorterRealmFile
import Testing
@testable import PorterRealm

/// One migration of the fixture, run both ways.
struct ColumnScenario: CustomTestStringConvertible, Sendable {
    let name: String
    let edit: @Sendable (inout [String: [String: Any]]) -> Void
    var renames: [String] = []
    var classRenames: [String] = []
    var fills: [String] = []
    var allowDataLoss = false
    var base = MigrationFixture.Base.columnMigration
    /// Migrate with a plan made as `porter plan` makes it (renames, fills and data loss in the plan).
    var usePlan = false
    var testDescription: String { name }

    /// The plans and the command-line renames the migration is given.
    func plansAndRenames() throws -> (plans: [MigrationPlan], renames: RenameSet) {
        guard usePlan else { return ([], try renameSet) }
        var stored = try RealmFile(path: base.realm).schema
        stored.version = base.version
        let made = try MigrationPlan.make(
            from: stored, to: try schema(), renames: try renameSet,
            fills: try fills.map { try FillArgument(parsing: $0) }, allowDataLoss: allowDataLoss)
        return ([made.plan], RenameSet())
    }

    func schema() throws -> Schema { try MigrationFixture.schema(version: Int(base.version) + 1, base: base, edit) }

    func options(backup: String? = nil) throws -> MigrationOptions {
        // With a plan, the plan covers data loss (and holds the fills), as `porter migrate --plan` runs it.
        MigrationOptions(
            backupPath: backup, allowDataLoss: allowDataLoss && !usePlan,
            fills: usePlan ? [] : try fills.map { try FillArgument(parsing: $0) })
    }

    /// Runs the column path on the file at `path` (fixture version 3); nil when it declines.
    func runColumnPath(
        _ path: String, key: [UInt8]? = nil, options: MigrationOptions? = nil,
        backup: (String) throws -> Void = { _ in }
    ) throws -> MigrationReport? {
        let file = try RealmFile(path: path, encryptionKey: key)
        var stored = file.schema
        stored.version = base.version
        let given = try plansAndRenames()
        return try RealmColumnMigration.migrate(
            file, path: path, key: key, stored: stored, to: try schema(), plans: given.plans,
            renames: given.renames, options: try options ?? self.options(), backup: backup)
    }

    var renameSet: RenameSet {
        get throws {
            RenameSet(
                classes: try classRenames.map { try ClassRename(parsing: $0) },
                properties: try renames.map { try PropertyRename(parsing: $0) })
        }
    }
}

/// The column path (a Realm file rewritten column by column) against the general path (a private
/// Porter database migrated by the runtime, then written anew): same objects, same schema, same
/// report, for every kind of change the column path takes; and the general path, with the file
/// untouched by the column path, for everything it does not take.
@Suite struct ColumnMigrationTests {
    static let scenarios: [ColumnScenario] = [
        // realm-core's own bench migration: a rename, a new optional property, int -> string.
        ColumnScenario(
            name: "rename, add, convert",
            edit: { p in
                p["Person"]!["nickname"] = p["Person"]!.removeValue(forKey: "nick")
                p["Person"]!["age"] = "string"
                p["Person"]!["rank"] = "double?"
            }, renames: ["Person.nick=nickname"]),
        ColumnScenario(
            name: "fills",
            edit: { p in
                p["Person"]!["level"] = "int"
                p["Person"]!["score"] = "double"
                p["Person"]!["code"] = "string?"
                p["Dog"]!["name"] = "string?"
            }, fills: ["Person.level=7", "Person.score=0.5"]),
        // `Note` sorts before `Person` and `Tag`: their table keys shift, so `Tag`'s mixed values
        // (links to Person and Dog) and `Dog.pals` (typed links) are written anew.
        ColumnScenario(
            name: "indexes, new classes and links",
            edit: { p in
                p["Person"]!["age"] = ["type": "int", "indexed": true]
                p["Person"]!["name"] = "string"
                p["Person"]!["best"] = "Dog?"
                p["Person"]!["pets"] = "Dog[]"
                p["Person"]!["labels"] = "string<>"
                p["Person"]!["code"] = ["type": "int?", "indexed": true]
                p["Note"] = ["title": "string", "about": "Person?"]
            }),
        ColumnScenario(
            name: "removals with data",
            edit: { p in
                p["Person"]!["blob"] = nil
                p["Person"]!["uid"] = nil
                p["Person"]!["tags"] = nil
                p["Person"]!["dog"] = nil
                p["Dog"]!["walkers"] = nil
            }, allowDataLoss: true),
        ColumnScenario(
            name: "class renames",
            edit: { p in
                p["Label"] = p.removeValue(forKey: "Tag")
                p["Label"]!["_primaryKey"] = "code"
                p["Label"]!["count"] = p["Label"]!.removeValue(forKey: "uses")
                p["Owner"] = p.removeValue(forKey: "Person")
                p["Owner"]!["_primaryKey"] = "_id"
                p["Owner"]!["friends"] = "Owner[]"
                p["Dog"]!["owner"] = "Owner?"
                p["Dog"]!["pals"] = "Owner?{}"
                p["Dog"]!["walkers"] = "Owner<>"
            }, renames: ["Label.uses=count"], classRenames: ["Tag=Label", "Person=Owner"]),
        ColumnScenario(
            name: "conversions between scalars",
            edit: { p in
                p["Person"]!["active"] = "int"
                p["Person"]!["age"] = "double"
                p["Person"]!["score"] = "string?"
                p["Tag"]!["uses"] = "string"
            }),
        // Mixed values (scalars, links to two classes) copied as they are: every table keeps its key.
        ColumnScenario(
            name: "every type: rename, add, convert",
            edit: { p in
                p["Every"]!["integer"] = p["Every"]!.removeValue(forKey: "int")
                p["Every"]!["added"] = "string?"
                p["NoPk"]!["n"] = "string"
            }, renames: ["Every.int=integer"], base: .everyType),
        // A new class after the others: every table keeps its key, mixed values are copied.
        ColumnScenario(
            name: "every type: a new class",
            edit: { p in
                p["Zeta"] = ["a": "int", "target": "Target?"]
            }, base: .everyType),
        // A plan as `porter plan --allow-data-loss` writes it: the removals are covered by `deleteData`.
        ColumnScenario(
            name: "a plan: rename, convert, fill, covered removals",
            edit: { p in
                p["Person"]!["nickname"] = p["Person"]!.removeValue(forKey: "nick")
                p["Person"]!["age"] = "string"
                p["Person"]!["level"] = "int"
                p["Person"]!["blob"] = nil
                p["Dog"]!["walkers"] = nil
            }, renames: ["Person.nick=nickname"], fills: ["Person.level=3"], allowDataLoss: true, usePlan: true),
        // Older formats: the file is upgraded to 24 on the way (sets re-sorted, 22's dictionaries
        // re-encoded, backlink lists made B+trees, indexes rebuilt).
        ColumnScenario(
            name: "format 23 (Realm JS): rename an indexed property, add one",
            edit: { p in
                p["Person"]!["years"] = p["Person"]!.removeValue(forKey: "age")
                p["Person"]!["nickname"] = "string?"
            }, renames: ["Person.age=years"], base: .shared("js-simple")),
        ColumnScenario(
            name: "format 23 (realm-core): sets, indexed mixed, links",
            edit: { p in
                p["table_for_mixed"]!["strings"] = p["table_for_mixed"]!.removeValue(forKey: "stringSet")
                p["table"]!["added"] = "int"
            }, renames: ["table_for_mixed.stringSet=strings"], base: .shared("core-upgrade-1000-23")),
        ColumnScenario(
            name: "format 22 (realm-core): dictionary and set of mixed",
            edit: { p in
                p["target"]!["label"] = "string?"
            }, base: .shared("core-upgrade-1000-22")),
    ]

    static func isShared(_ scenario: ColumnScenario) -> Bool {
        scenario.base.realm.hasPrefix(SharedRealmFiles.folder.path)
    }

    @Test(arguments: scenarios.filter { !isShared($0) })
    func sameOutcomeAsTheGeneralPath(_ scenario: ColumnScenario) throws {
        try Self.expectSameOutcomeAsTheGeneralPath(scenario)
    }

    /// The scenarios on shared files apart, so that where `../shared` is absent they are reported
    /// as skipped.
    @Test(
        .enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"),
        arguments: scenarios.filter { isShared($0) })
    func sameOutcomeAsTheGeneralPathOnSharedFiles(_ scenario: ColumnScenario) throws {
        try Self.expectSameOutcomeAsTheGeneralPath(scenario)
    }

    static func expectSameOutcomeAsTheGeneralPath(_ scenario: ColumnScenario) throws {
        let schema = try scenario.schema()
        let columnTmp = try TemporaryFolder("column-migration"), generalTmp = try TemporaryFolder("column-migration")
        let columnDir = columnTmp.url, generalDir = generalTmp.url
        let columnPath = try MigrationFixture.copy(in: columnDir, base: scenario.base)
        let generalPath = try MigrationFixture.copy(in: generalDir, base: scenario.base)
        let column = try scenario.runColumnPath(columnPath)
        let report = try #require(column, "\(scenario.name): the column path should take this migration")
        let given = try scenario.plansAndRenames()
        let general = try RealmFileMigration.migrate(
            generalPath, key: nil, to: schema, plans: given.plans, renames: given.renames,
            options: try scenario.options(), columnPath: false)
        #expect(MigrationFixture.comparable(report) == MigrationFixture.comparable(general))
        let columnDump = try MigrationFixture.canonicalDump(columnPath),
            generalDump = try MigrationFixture.canonicalDump(generalPath)
        #expect(columnDump.keys.sorted() == generalDump.keys.sorted())
        for key in generalDump.keys.sorted() {
            let a = columnDump[key] ?? [], b = generalDump[key] ?? []
            #expect(a.count == b.count, "\(key): \(a.count) objects, the general path \(b.count)")
            if let i = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) {
                Issue.record(
                    "\(key): first difference at \(i):\n  column:  \(a[i].prefix(600))\n  general: \(b[i].prefix(600))")
            }
        }
        // Nothing left beside the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: columnDir.path) == ["app.realm"])
        // Readable as a whole, as the reader checks files.
        _ = try RealmFile(path: columnPath).check()
    }

    /// The bytes of a column migration, against a golden that realm-core 14 accepted (`realm-oracle
    /// check`, and its `dump` equals the source's with the migration applied; see
    /// Fixtures/realm/column-migration/README.md). `PORTER_UPDATE_WRITER_GOLDENS=1` rewrites it.
    @Test(arguments: [(0, "migrated-rename-add-convert.realm"), (4, "migrated-class-renames.realm")])
    func matchesGolden(_ index: Int, _ golden: String) throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        #expect(try Self.scenarios[index].runColumnPath(path) != nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let goldenURL = MigrationFixture.directory.appendingPathComponent(golden)
        if ProcessInfo.processInfo.environment["PORTER_UPDATE_WRITER_GOLDENS"] == "1" { try bytes.write(to: goldenURL) }
        #expect(bytes == (try Data(contentsOf: goldenURL)), "\(golden): the migrated file differs from its golden")
    }

    /// Migrations the column path leaves to the general path: it returns nil and the file is
    /// byte for byte as it was, with nothing beside it.
    static let declined: [ColumnScenario] = [
        ColumnScenario(
            name: "a conversion that fails (names are not numbers)", edit: { p in p["Person"]!["name"] = "int" }),
        ColumnScenario(name: "required without a fill, nulls present", edit: { p in p["Person"]!["score"] = "double" }),
        ColumnScenario(name: "a removal with data not covered", edit: { p in p["Person"]!["blob"] = nil }),
        ColumnScenario(name: "a removed class with objects", edit: { p in p["Tag"] = nil }, allowDataLoss: true),
    ]

    @Test(arguments: declined)
    func declinesWithoutTouchingTheFile(_ scenario: ColumnScenario) throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var backupCalled = false
        let report = try scenario.runColumnPath(
            path, options: try scenario.options(backup: dir.appendingPathComponent("b.realm").path),
            backup: { _ in backupCalled = true })
        #expect(report == nil)
        #expect(!backupCalled)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["app.realm"])
    }

    @Test func dryRunIsTheGeneralPaths() throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        #expect(try Self.scenarios[0].runColumnPath(path, options: MigrationOptions(dryRun: true)) == nil)
    }

    /// A failing conversion: the column path gives up before the file is replaced, the general
    /// path names the objects, and the file is unchanged.
    @Test func failingConversionIsReportedByTheGeneralPath() throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let schema = try MigrationFixture.schema(version: 4) { p in p["Person"]!["name"] = "int" }
        let error = try #require(throws: PorterError.self) {
            try RealmFileMigration.migrate(
                path, key: nil, to: schema, plans: [], renames: RenameSet(), options: MigrationOptions())
        }
        #expect(error.message.contains("cannot convert 700 values from string to int"), "\(error.message)")
        #expect(error.location?.hasPrefix(path) == true, "\(error.location ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["app.realm"])
    }

    /// The migrated file keeps the permissions of the one it replaces, on either path.
    @Test(arguments: [true, false])
    func permissionsAreKept(_ columnPath: Bool) throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let scenario = Self.scenarios[0]
        _ = try RealmFileMigration.migrate(
            path, key: nil, to: try scenario.schema(), plans: [], renames: try scenario.renameSet,
            options: try scenario.options(), columnPath: columnPath)
        #expect(try RealmFile(path: path).schemaVersion == 4)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    /// The backup is made once the new file is complete, before it replaces the old one.
    @Test func backupHoldsTheOldFile() throws {
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let path = try MigrationFixture.copy(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let backup = dir.appendingPathComponent("old.realm").path
        let scenario = Self.scenarios[0]
        let report = try RealmFileMigration.migrate(
            path, key: nil, to: try scenario.schema(), plans: [], renames: try scenario.renameSet,
            options: try scenario.options(backup: backup))
        #expect(report.backupPath == backup)
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == before)
        #expect(try RealmFile(path: path).schemaVersion == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["app.realm", "old.realm"])
    }

    /// An encrypted file stays encrypted with its key, and holds what the plain one does after the same migration.
    @Test func encryptedFileKeepsItsKey() throws {
        let key = Array(UInt8(100)...UInt8(163))
        let tmp = try TemporaryFolder("column-migration")
        let dir = tmp.url
        let encrypted = dir.appendingPathComponent("enc.realm").path
        try FileManager.default.copyItem(
            atPath: MigrationFixture.directory.appendingPathComponent("column-migration-encrypted.realm").path,
            toPath: encrypted)
        let plain = try MigrationFixture.copy(in: dir)
        let scenario = Self.scenarios[0]
        #expect(try scenario.runColumnPath(encrypted, key: key) != nil)
        _ = try RealmFileMigration.migrate(
            plain, key: nil, to: try scenario.schema(), plans: [], renames: try scenario.renameSet,
            options: try scenario.options())
        #expect(throws: PorterError.self) { try RealmFile(path: encrypted) }
        let a = try MigrationFixture.canonicalDump(encrypted, key: key), b = try MigrationFixture.canonicalDump(plain)
        for k in b.keys.sorted() where a[k] != b[k] {
            let i = (b[k] ?? []).indices.first { $0 >= (a[k] ?? []).count || a[k]![$0] != b[k]![$0] } ?? 0
            Issue.record(
                "\(k): \((a[k] ?? []).count) vs \((b[k] ?? []).count): \(a[k]?.dropFirst(i).first?.prefix(300) ?? "-") | \(b[k]?.dropFirst(i).first?.prefix(300) ?? "-")"
            )
        }
    }
}
