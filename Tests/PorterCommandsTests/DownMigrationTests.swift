import Foundation
import PorterCommands
import PorterDiff
import PorterMigration
import PorterModel
import PorterRealm
import PorterStore
import PorterTestSupport
import Testing

/// Down migrations: `porter plan --reverse`, `migrate --allow-downgrade`, history of downgrades.
@Suite struct DownMigrationTests {
    static func schema(_ version: UInt64, _ classes: String...) throws -> Schema {
        try Schema(jsonString: #"{"schemaVersion": \#(version), "classes": [\#(classes.joined(separator: ","))]}"#)
    }

    static let v1 = try! schema(
        1,
        #"{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "age": "int", "nick": "string", "dog": "Dog?"}}"#,
        #"{"name": "Dog", "properties": {"name": "string", "born": "bool"}}"#)
    /// Every invertible kind: property and class renames, an added property and class, an exact
    /// conversion (int -> string, bool -> int), a property made optional, an index.
    static let v2 = try! schema(
        2,
        #"{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "fullName": "string", "age": "string", "nick": {"type": "string?", "indexed": true}, "email": "string?", "dog": "Pet?"}}"#,
        #"{"name": "Pet", "properties": {"name": "string", "born": "int"}}"#,
        #"{"name": "Note", "properties": {"text": "string"}}"#)

    /// v2 with `Person.nick` (a property in the middle of its class) removed: a lossy plan.
    static let v3 = try! schema(
        3,
        #"{"name": "Person", "primaryKey": "id", "properties": {"id": "int", "fullName": "string", "age": "string", "email": "string?", "dog": "Pet?"}}"#,
        #"{"name": "Pet", "properties": {"name": "string", "born": "int"}}"#,
        #"{"name": "Note", "properties": {"text": "string"}}"#)

    static func makeV1(_ path: String) throws {
        let db = try Database.create(at: path, schema: v1)
        try db.write {
            for i in 0..<20 {
                let dog = try db.create("Dog", ["name": .string("dog \(i)"), "born": .bool(i % 2 == 0)])
                try db.create(
                    "Person",
                    [
                        "id": .int(Int64(i)), "name": .string("person \(i)"), "age": .int(Int64(20 + i)),
                        "nick": .string("n\(i)"), "dog": .link(ObjectLink("Dog", dog)),
                    ])
            }
        }
    }

    static func export(_ path: String, _ dir: URL, _ name: String) throws -> [String: Data] {
        let out = dir.appendingPathComponent(name).path
        let run = CapturedOutput.run(["export", path, "--out", out, "--format", "ejson"])
        #expect(run.status == 0, "\(run.output.stderr)")
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: out) {
            files[file] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + file))
        }
        return files
    }

    @Test func upThenDownGivesTheV1ExportByteForByte() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let path = dir.appendingPathComponent("app.porter").path
        try Self.makeV1(path)
        let before = try Self.export(path, dir, "before")
        let renames = RenameSet(
            classes: [ClassRename(from: "Dog", to: "Pet")],
            properties: [PropertyRename(className: "Person", from: "name", to: "fullName")])
        let (up, warnings) = try MigrationPlan.make(from: Self.v1, to: Self.v2, renames: renames)
        #expect(warnings.isEmpty, "\(warnings)")
        let (down, lost) = try up.reversed(to: Self.v1)
        #expect(lost.isEmpty, "\(lost)")
        #expect(down.fromVersion == 2 && down.toVersion == 1)
        #expect(down.targetSchema == Self.v1)
        // Renames back, the added class and property removed, conversions back.
        #expect(down.operations.contains(.renameClass(from: "Pet", to: "Dog")))
        #expect(down.operations.contains(.renameProperty(className: "Person", from: "fullName", to: "name")))
        #expect(down.operations.contains(.deleteData(className: "Note", property: nil)))
        #expect(down.operations.contains(.deleteData(className: "Person", property: "email")))
        #expect(
            down.operations.contains {
                if case .convert(let c) = $0 { c.subject == "Person.age" && c.to == "int" } else { false }
            })
        // The plan file reads back (a downward plan is a valid plan file).
        #expect(try MigrationPlan(jsonBytes: Array(down.jsonString().utf8)) == down)

        _ = try Migrator.migrate(databaseAt: path, to: Self.v2, plans: [up])
        #expect(try Database.open(at: path, readOnly: true).schemaVersion == 2)
        // Without --allow-downgrade, realm-core's message stays.
        #expect(throws: PorterError.self) { try Migrator.migrate(databaseAt: path, to: Self.v1, plans: [down]) }
        do {
            _ = try Migrator.migrate(databaseAt: path, to: Self.v1, plans: [down])
        } catch let error as PorterError {
            #expect(error.message == "Provided schema version 1 is less than last set version 2.")
        }
        var options = MigrationOptions()
        options.allowDowngrade = true
        _ = try Migrator.migrate(databaseAt: path, to: Self.v1, plans: [down], options: options)
        #expect(try Self.export(path, dir, "after") == before)
        let history = try Database.open(at: path, readOnly: true).history()
        #expect(history.map { "\($0.fromVersion)->\($0.toVersion)" } == ["1->2", "2->1"])
    }

    @Test func nonInvertibleOperationsAreListed() throws {
        let v1 = try Self.schema(
            1, #"{"name": "A", "properties": {"x": "double", "gone": "string", "keep": "int"}}"#,
            #"{"name": "Old", "properties": {"v": "int"}}"#)
        let v2 = try Self.schema(2, #"{"name": "A", "properties": {"x": "int", "keep": "int"}}"#)
        let (up, _) = try MigrationPlan.make(from: v1, to: v2, allowDataLoss: true)
        let (_, lost) = try up.reversed(to: v1)
        #expect(lost.contains { $0.hasPrefix("A.gone: the forward plan deleted its values") }, "\(lost)")
        #expect(lost.contains { $0.hasPrefix("Old: the forward plan deleted its objects") }, "\(lost)")
        // double -> int is not exact both ways (the plan's rule decides; the default is exact, which
        // still cannot be undone for values it rounded away: int -> double is not in the invertible list).
        #expect(lost.contains { $0.hasPrefix("A.x: the forward conversion double -> int") }, "\(lost)")
        // A fill for the removed values makes that one invertible.
        let (_, filled) = try up.reversed(to: v1, fills: [FillArgument(parsing: "A.gone=?")])
        #expect(!filled.contains { $0.hasPrefix("A.gone") })
        // Another schema than the plan's source is refused.
        #expect(throws: PorterError.self) { try up.reversed(to: v2) }
    }

    /// A Realm file goes down too, through the same runtime, keeping the v1 export.
    @Test func aRealmFileGoesBackDown() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let porter = dir.appendingPathComponent("app.porter").path
        try Self.makeV1(porter)
        let realm = dir.appendingPathComponent("app.realm").path
        #expect(CapturedOutput.run(["export", porter, "--format", "realm", "--out", realm]).status == 0)
        let before = try Self.export(realm, dir, "before")
        let renames = RenameSet(
            classes: [ClassRename(from: "Dog", to: "Pet")],
            properties: [PropertyRename(className: "Person", from: "name", to: "fullName")])
        let (up, _) = try MigrationPlan.make(from: Self.v1, to: Self.v2, renames: renames)
        let (down, _) = try up.reversed(to: Self.v1)
        _ = try RealmFileMigration.migrate(
            realm, key: nil, to: Self.v2, plans: [up], renames: RenameSet(), options: MigrationOptions())
        #expect(throws: PorterError.self) {
            try RealmFileMigration.migrate(
                realm, key: nil, to: Self.v1, plans: [down], renames: RenameSet(), options: MigrationOptions())
        }
        var options = MigrationOptions()
        options.allowDowngrade = true
        options.backupPath = dir.appendingPathComponent("v2.realm").path
        _ = try RealmFileMigration.migrate(
            realm, key: nil, to: Self.v1, plans: [down], renames: RenameSet(), options: options)
        #expect(try Self.export(realm, dir, "after") == before)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("v2.realm").path))
    }

    @Test func embeddingIsReversedToTopLevel() throws {
        let v1 = try Self.schema(
            1, #"{"name": "Person", "properties": {"name": "string", "address": "Address?"}}"#,
            #"{"name": "Address", "properties": {"street": "string"}}"#)
        let v2 = try Self.schema(
            2, #"{"name": "Person", "properties": {"name": "string", "address": "Address?"}}"#,
            #"{"name": "Address", "embedded": true, "properties": {"street": "string"}}"#)
        let (up, _) = try MigrationPlan.make(from: v1, to: v2, allowDataLoss: true)
        #expect(up.operations.contains(.deleteOrphans(className: "Address")))
        let (down, lost) = try up.reversed(to: v1)
        #expect(
            down.operations.contains {
                if case .change(let c) = $0 {
                    c.operation == "changeClassType" && c.className == "Address"
                } else {
                    false
                }
            })
        // The orphans the forward plan deleted cannot come back.
        #expect(
            lost == [
                "Address: the forward plan deleted its objects without a parent (deleteOrphans); they cannot come back: pass --allow-data-loss"
            ])
    }

    /// The commands through the built binary: `plan --reverse`, `plan` downward, `migrate --allow-downgrade`.
    @Test(.enabled(if: RealmFileCareKillTests.porter != nil, "needs the built porter binary"))
    func theCommandsGoDown() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Data(Self.v1.jsonString().utf8).write(to: URL(fileURLWithPath: path("v1.json")))
        try Data(Self.v2.jsonString().utf8).write(to: URL(fileURLWithPath: path("v2.json")))
        try Self.makeV1(path("app.porter"))
        let before = try Self.export(path("app.porter"), dir, "before")
        func porter(_ arguments: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = RealmFileCareKillTests.porter
            process.arguments = arguments
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let renames = ["--rename-class", "Dog=Pet", "--rename", "Person.name=fullName"]
        #expect(try porter(["plan", path("v1.json"), path("v2.json")] + renames + ["-o", path("up.json")]).0 == 0)
        let reverse = try porter(["plan", "--reverse", path("up.json"), path("v1.json"), "-o", path("down.json")])
        #expect(reverse.0 == 0, "\(reverse.1)")
        #expect(
            try porter([
                "plan", path("v2.json"), path("v1.json"), "--rename-class", "Pet=Dog", "--rename",
                "Person.fullName=name", "--allow-data-loss", "-o", path("down2.json"),
            ]).0 == 0)
        #expect(try porter(["migrate", path("app.porter"), "--to", path("v2.json"), "--plan", path("up.json")]).0 == 0)
        let refused = try porter(["migrate", path("app.porter"), "--to", path("v1.json"), "--plan", path("down.json")])
        #expect(refused.0 == 1)
        #expect(refused.1.contains("Provided schema version 1 is less than last set version 2."), "\(refused.1)")
        let down = try porter([
            "migrate", path("app.porter"), "--to", path("v1.json"), "--plan", path("down.json"),
            "--allow-downgrade", "--backup", path("v2.porter"),
        ])
        #expect(down.0 == 0, "\(down.1)")
        #expect(try Self.export(path("app.porter"), dir, "after") == before)
        // A plan that deleted data cannot be reversed without a fill or --allow-data-loss.
        try Data(Self.v3.jsonString().utf8).write(to: URL(fileURLWithPath: path("v3.json")))
        #expect(
            try porter(["plan", path("v2.json"), path("v3.json"), "--allow-data-loss", "-o", path("lossy.json")]).0 == 0
        )
        let lossy = try porter(["plan", "--reverse", path("lossy.json"), path("v2.json"), "-o", path("back.json")])
        #expect(lossy.0 == 1)
        #expect(lossy.1.contains("cannot be inverted") && lossy.1.contains("Person.nick"), "\(lossy.1)")
        #expect(!FileManager.default.fileExists(atPath: path("back.json")))
        #expect(
            try porter([
                "plan", "--reverse", path("lossy.json"), path("v2.json"), "--fill", "Person.nick=none",
                "-o", path("back.json"),
            ]).0 == 0)
    }

    /// `porter plan --reverse PLAN -o OUT` (issue 35): the plan you applied alone is inverted, its source
    /// schema rebuilt from the plan and checked by the plan's checksum; argument errors exit 64.
    @Test func aPlanFileAloneIsReversed() throws {
        let tmp = try TemporaryFolder("cmd")
        func path(_ name: String) -> String { tmp.url.appendingPathComponent(name).path }
        try Data(Self.v1.jsonString().utf8).write(to: URL(fileURLWithPath: path("v1.json")))
        try Data(Self.v2.jsonString().utf8).write(to: URL(fileURLWithPath: path("v2.json")))
        let renames = ["--rename-class", "Dog=Pet", "--rename", "Person.name=fullName"]
        #expect(
            CapturedOutput.run(["plan", path("v1.json"), path("v2.json")] + renames + ["-o", path("up.json")]).status
                == 0)
        #expect(try MigrationPlan(contentsOfFile: path("up.json")).sourceSchema() == Self.v1)
        let alone = CapturedOutput.run(["plan", "--reverse", path("up.json"), "-o", path("down.json")])
        #expect(alone.status == 0, "\(alone.output.stderr)")
        #expect(alone.output.stderr.contains("schema version 2 -> 1 (the inverse of"), "\(alone.output.stderr)")
        // The same plan as the form naming the old schema.
        #expect(
            CapturedOutput.run(["plan", "--reverse", path("up.json"), path("v1.json"), "-o", path("down2.json")]).status
                == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("down.json")))
                == Data(contentsOf: URL(fileURLWithPath: path("down2.json"))))

        // A schema where the plan belongs, a missing NEW, a plan and two schemas: argument errors.
        let schema = CapturedOutput.run(["plan", "--reverse", path("v1.json"), "-o", path("x.json")])
        #expect(schema.status == 64)
        #expect(
            schema.output.stderr.contains("not a migration plan") && schema.output.stderr.contains("v1.json"),
            "\(schema.output.stderr)")
        let one = CapturedOutput.run(["plan", path("v1.json"), "-o", path("x.json")])
        #expect(one.status == 64)
        #expect(one.output.stderr.contains("missing the new schema"), "\(one.output.stderr)")
        let three = CapturedOutput.run(["plan", "--reverse", path("up.json"), path("v1.json"), path("v2.json")])
        #expect(three.status == 64, "\(three.output.stderr)")
        // A plan that removed a property in the middle of its class cannot tell where it was: OLD is asked for.
        try Data(Self.v3.jsonString().utf8).write(to: URL(fileURLWithPath: path("v3.json")))
        #expect(
            CapturedOutput.run([
                "plan", path("v2.json"), path("v3.json"), "--allow-data-loss", "-o", path("lossy.json"),
            ])
            .status == 0)
        let lossy = CapturedOutput.run([
            "plan", "--reverse", path("lossy.json"), "--allow-data-loss", "-o", path("x.json"),
        ])
        #expect(lossy.status == 64)
        #expect(lossy.output.stderr.contains("porter plan --reverse PLAN OLD.json"), "\(lossy.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("x.json")))
    }
}
