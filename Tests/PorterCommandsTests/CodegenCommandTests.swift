import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter codegen`: reads a schema file, a Porter database or a Realm file; prints the code.
@Suite struct CodegenCommandTests {
    static let shop = TestFiles.root.appendingPathComponent("Fixtures/codegen/shop.schema.json").path
    static let everyType = TestFiles.root.appendingPathComponent("Fixtures/realm/every-type.realm").path

    /// The checked-in generated classes (compiled and used by RealmSwiftCompatTests) are what
    /// codegen prints today: they cannot drift.
    @Test func checkedInRealmSwiftModelsAreCurrent() throws {
        let run = CapturedOutput.run(["codegen", Self.shop, "--lang", "realmswift"])
        #expect(run.status == 0, "\(run.output.stderr)")
        let checkedIn = try String(
            contentsOf: TestFiles.root.appendingPathComponent("Tests/RealmSwiftCompatTests/GeneratedShopModels.swift"),
            encoding: .utf8)
        #expect(run.output.stdout + "\n" == checkedIn)
    }

    @Test(arguments: ["grdb", "realmswift"])
    func readsARealmFile(_ lang: String) throws {
        let run = CapturedOutput.run(["codegen", Self.everyType, "--lang", lang])
        #expect(run.status == 0, "\(run.output.stderr)")
        #expect(run.output.stdout.contains(lang == "grdb" ? "struct Every: Codable" : "class Every: Object {"))
        #expect(run.output.stdout.contains(lang == "grdb" ? "import GRDB" : "import RealmSwift"))
    }

    @Test func readsAPorterDatabase() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = dir.appendingPathComponent("shop.porter").path
        #expect(CapturedOutput.run(["create", db, "--schema", Self.shop]).status == 0)
        let fromDatabase = CapturedOutput.run(["codegen", db, "--lang", "grdb"])
        let fromSchema = CapturedOutput.run(["codegen", Self.shop, "--lang", "grdb"])
        #expect(fromDatabase.status == 0, "\(fromDatabase.output.stderr)")
        #expect(fromDatabase.output.stdout == fromSchema.output.stdout)
        #expect(fromDatabase.output.stdout.contains("migrator.registerMigration(\"v3\")"))
    }

    @Test func unknownLanguageIsAnArgumentError() {
        let run = CapturedOutput.run(["codegen", Self.shop, "--lang", "kotlin"])
        #expect(run.status == 64)
        #expect(
            run.output.stderr
                == "The value 'kotlin' is invalid for '--lang <lang>'. Please provide one of 'grdb' and 'realmswift'.")
    }

    @Test func missingFileIsRefused() {
        let run = CapturedOutput.run(["codegen", "/nonexistent/x.json", "--lang", "grdb"])
        #expect(run.status == 1)
        #expect(run.output.stderr.contains("/nonexistent/x.json: no such file"))
    }
}
