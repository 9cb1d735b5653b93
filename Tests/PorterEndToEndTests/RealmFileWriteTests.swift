import Foundation
import PorterTestSupport
import Testing

/// Writing Realm files through the built binary: export --format realm, migrate, import into and
/// create a Realm file. The written files were checked with realm-core 14.14.0 (realm-oracle
/// `check` and `dump`) while this was developed; here each is read back by Porter's own reader.
@Suite struct RealmFileWriteTests {
    static let realm = PorterBinary.fixtures.appendingPathComponent("realm")
    static let swiftV5 = SharedRealmFiles.folder.appendingPathComponent("swift-migration-default-v5.realm")

    /// Every file of an export folder, by name.
    private func exported(_ source: String, _ dir: URL, _ name: String, extra: [String] = []) throws -> [String: Data] {
        let out = dir.appendingPathComponent(name)
        let run = try PorterBinary.run(["export", source, "--out", out.path, "--format", "ejson-canonical"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            files[file] = try Data(contentsOf: out.appendingPathComponent(file))
        }
        return files
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func aRealmFileRewrittenAsFormat24HoldsTheSameObjects() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        for name in [
            "every-type.realm", "inner-nodes.realm", "shared/swift-migration-default-v5.realm",
            "shared/js-simple.realm",
            "shared/core-upgrade-1000-22.realm", "shared/core-upgrade-20.realm",
        ] {
            let source = SharedRealmFiles.resolve(name, in: Self.realm)
            let written = dir.appendingPathComponent(URL(fileURLWithPath: name).lastPathComponent).path
            let run = try PorterBinary.run(["export", source, "--format", "realm", "--out", written])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let inspect = try PorterBinary.run(["inspect", written])
            #expect(inspect.stdout.contains("File format: 24"), "\(name): \(inspect.stdout)")
            let before = try exported(source, dir, "a-\(URL(fileURLWithPath: name).lastPathComponent)")
            let after = try exported(written, dir, "b-\(URL(fileURLWithPath: name).lastPathComponent)")
            #expect(before.keys.sorted() == after.keys.sorted())
            for (file, data) in before where file != "schema.json" || !name.hasPrefix("shared/core") {
                #expect(after[file] == data, "\(name): \(file) differs after the rewrite")
            }
            #expect(try PorterBinary.run(["check", written]).stdout == "ok\n")
        }
    }

    @Test func aPorterDatabaseExportedAsARealmFileReadsBackTheSame() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let db = dir.appendingPathComponent("app.porter").path
        // Every type of the docs schema, an indexed mixed holding a link among them.
        let schema = PorterBinary.fixtures.appendingPathComponent("schemas/realm-docs.json").path
        let data = PorterBinary.fixtures.appendingPathComponent("data/realm-docs-fixture.json").path
        #expect(try PorterBinary.run(["import", db, data, "--create", "--schema", schema]).status == 0)
        let key = String(repeating: "0f", count: 64)
        let plain = dir.appendingPathComponent("app.realm").path
        let encrypted = dir.appendingPathComponent("enc.realm").path
        #expect(try PorterBinary.run(["export", db, "--format", "realm", "--out", plain]).status == 0)
        #expect(
            try PorterBinary.run(["export", db, "--format", "realm", "--out", encrypted, "--out-encryption-key", key])
                .status == 0)
        let again = dir.appendingPathComponent("again.realm").path
        #expect(try PorterBinary.run(["export", db, "--format", "realm", "--out", again]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: plain)) == Data(contentsOf: URL(fileURLWithPath: again)),
            "not deterministic")
        let fromDB = try exported(db, dir, "db")
        // The same documents; and with the schema file as --models (defaults and linkingObjects are
        // not stored in a Realm file), the same schema.json too.
        var documents = fromDB
        documents["schema.json"] = nil
        var plainFiles = try exported(plain, dir, "plain")
        plainFiles["schema.json"] = nil
        #expect(plainFiles == documents)
        #expect(try exported(plain, dir, "models", extra: ["--models", schema]) == fromDB)
        #expect(try exported(encrypted, dir, "enc", extra: ["--encryption-key", key, "--models", schema]) == fromDB)
        // Never over an existing file.
        let refused = try PorterBinary.run(["export", db, "--format", "realm", "--out", plain])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "porter: error: \(plain): already exists: Porter does not overwrite a file with an export; remove it or choose another --out\n"
        )
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func migratingARealmSwiftFileRenamesConvertsAndFills() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let app = dir.appendingPathComponent("app.realm")
        try FileManager.default.copyItem(at: Self.swiftV5, to: app)
        let original = try Data(contentsOf: app)
        let v6 = dir.appendingPathComponent("v6.json")
        try Data(
            """
            {"schemaVersion": 6, "classes": [
             {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string"}},
             {"name": "Person", "properties": {"name": "string", "age": "string", "email": "string", "address": "Address?", "pets": "Pet[]"}},
             {"name": "Pet", "properties": {"name": "string", "kind": "int"}}]}
            """.utf8
        ).write(to: v6)
        let args = [
            "migrate", app.path, "--to", v6.path, "--rename", "Person.fullName=name", "--fill",
            "Person.email=none@example.com",
        ]
        let dry = try PorterBinary.run(args + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("dry run from schema version 5 to 6 passed all checks"))
        #expect(try Data(contentsOf: app) == original)
        let backup = dir.appendingPathComponent("app.v5.realm")
        let run = try PorterBinary.run(args + ["--backup", backup.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("migrated from schema version 5 to 6"))
        #expect(try Data(contentsOf: backup) == original)
        let inspect = try PorterBinary.run(["inspect", app.path])
        #expect(
            inspect.stdout.contains("Schema version: 6") && inspect.stdout.contains("File format: 24"),
            "\(inspect.stdout)")
        let person = try exported(app.path, dir, "out")["Person.json"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(person.contains(#""name" : "John Doe", "age" : "42", "email" : "none@example.com""#), "\(person)")
        #expect(
            try Set(FileManager.default.contentsOfDirectory(atPath: dir.path)) == [
                "app.realm", "app.realm.lock", "app.v5.realm", "v6.json", "out",
            ])
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func aFailedMigrationLeavesTheRealmFileByteForByteUnchanged() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let app = dir.appendingPathComponent("app.realm")
        try FileManager.default.copyItem(at: Self.swiftV5, to: app)
        let original = try Data(contentsOf: app)
        let cases: [(String, String)] = [
            // Names are not numbers: the conversion fails, naming the objects.
            (
                #"{"name": "Pet", "properties": {"name": "int", "kind": "int"}}"#,
                "cannot convert 4 values from string to int"
            ),
            // Slinkey has no owner: Pet cannot become embedded.
            (#"{"name": "Pet", "embedded": true, "properties": {"name": "string", "kind": "int"}}"#, "Pet"),
        ]
        for (pet, phrase) in cases {
            let v6 = dir.appendingPathComponent("v6.json")
            try Data(
                """
                {"schemaVersion": 6, "classes": [
                 {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string"}},
                 {"name": "Person", "properties": {"fullName": "string", "age": "int", "address": "Address?", "pets": "Pet[]"}},
                 \(pet)]}
                """.utf8
            ).write(to: v6)
            let run = try PorterBinary.run([
                "migrate", app.path, "--to", v6.path, "--backup", dir.appendingPathComponent("b.realm").path,
            ])
            #expect(run.status == 1, "\(pet): \(run.stdout)")
            #expect(run.stderr.hasPrefix("porter: error: ") && run.stderr.contains(phrase), "\(run.stderr)")
            #expect(try Data(contentsOf: app) == original)
            // The lock file is realm-core's convention (the Safety guide), and stays.
            #expect(
                try Set(FileManager.default.contentsOfDirectory(atPath: dir.path)).subtracting(["app.realm.lock"]) == [
                    "app.realm", "v6.json",
                ])
        }
    }

    @Test func importIntoARealmFileAndCreateOne() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let schema = dir.appendingPathComponent("s.json")
        try Data(
            #"{"schemaVersion": 3, "classes": [{"name": "Dog", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}}]}"#
                .utf8
        ).write(to: schema)
        let app = dir.appendingPathComponent("app.realm").path
        let created = try PorterBinary.run(["create", app, "--schema", schema.path, "--format", "realm"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try PorterBinary.run(["inspect", app]).stdout.contains("Schema version: 3"))
        let dogs = dir.appendingPathComponent("Dog.json")
        try Data(#"[{"_id": 1, "name": "Rex"}, {"_id": 2, "name": "Fido"}]"#.utf8).write(to: dogs)
        let imported = try PorterBinary.run(["import", app, dogs.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try PorterBinary.run(["inspect", app]).stdout.contains("Dog          2 objects (primary key: _id)"))
        // A duplicate primary key: all or nothing, the file unchanged.
        let before = try Data(contentsOf: URL(fileURLWithPath: app))
        let again = try PorterBinary.run(["import", app, dogs.path])
        #expect(again.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: app)) == before)
        #expect(
            try Set(FileManager.default.contentsOfDirectory(atPath: dir.path)) == [
                "app.realm", "app.realm.lock", "s.json", "Dog.json",
            ])
        let overwrite = try PorterBinary.run(["create", app, "--schema", schema.path, "--format", "realm"])
        #expect(overwrite.stderr == "porter: error: \(app): file already exists\n")
    }

    /// The issue's scenario: a plan with a rename, a conversion, a fill and a class made embedded
    /// (its orphans deleted), applied to a real Realm Swift file.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func aPlanMakesAClassEmbeddedInARealmFile() throws {
        let tmp = try TemporaryFolder("e2e")
        let dir = tmp.url
        let app = dir.appendingPathComponent("app.realm")
        try FileManager.default.copyItem(at: Self.swiftV5, to: app)
        let v6 = dir.appendingPathComponent("v6.json")
        try Data(
            """
            {"schemaVersion": 6, "classes": [
             {"name": "Address", "embedded": true, "properties": {"street": "string", "city": "string"}},
             {"name": "Person", "properties": {"name": "string", "age": "string", "email": "string", "address": "Address?", "pets": "Pet[]"}},
             {"name": "Pet", "embedded": true, "properties": {"name": "string", "kind": "int"}}]}
            """.utf8
        ).write(to: v6)
        let plan = dir.appendingPathComponent("plan.json")
        let made = try PorterBinary.run([
            "plan", app.path, v6.path, "--rename", "Person.fullName=name", "--fill", "Person.email=x", "-o", plan.path,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        // Without deleting the pet nobody owns, the plan is refused, naming the user's file.
        let original = try Data(contentsOf: app)
        let refused = try PorterBinary.run(["migrate", app.path, "--to", v6.path, "--plan", plan.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("porter: error: \(app.path): Refusing to lose data"), "\(refused.stderr)")
        #expect(try Data(contentsOf: app) == original)
        // The reviewed plan deletes the orphan first.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: plan)) as? [String: Any])
        var operations = try #require(json["operations"] as? [[String: Any]])
        let change = try #require(operations.firstIndex { $0["op"] as? String == "changeClassType" })
        operations.insert(["op": "deleteOrphans", "class": "Pet"], at: change)
        json["operations"] = operations
        try JSONSerialization.data(withJSONObject: json).write(to: plan)
        let run = try PorterBinary.run(["migrate", app.path, "--to", v6.path, "--plan", plan.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("deleted 1 Pet objects without a parent"))
        let inspect = try PorterBinary.run(["inspect", app.path])
        #expect(
            inspect.stdout.contains("Schema version: 6")
                && inspect.stdout.contains("Pet              3 objects (embedded)"), "\(inspect.stdout)")
        let person = try exported(app.path, dir, "out")["Person.json"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(person.contains(#""pets" : [ { "name" : "Marley", "kind" : { "$numberLong" : "1" } }"#), "\(person)")
    }
}
