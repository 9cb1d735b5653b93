import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter query translate`: the schema from a schema file, a Porter database or a Realm file; the
/// translation on stdout, or one line naming what has none (exit 1).
@Suite struct QueryTranslateCommandTests {
    static let clause =
        "EXISTS (SELECT 1 FROM \"Person\" AS t1 WHERE t1.\"_id\" = \"Dog\".\"owner\" AND (t1.\"age\" IS NOT NULL AND t1.\"age\" > 30))"

    static func translate(_ query: String, _ schema: String, to target: String, _ extra: [String] = []) -> (
        status: Int32, output: CapturedOutput
    ) {
        CapturedOutput.run(["query", "translate", query, "--class", "Dog", "--schema", schema, "--to", target] + extra)
    }

    @Test func readsASchemaFileAPorterDatabaseAndARealmFile() throws {
        let folder = try TemporaryFolder("translate-cmd")
        let database = folder.path("docs.porter")
        let realmFile = folder.path("docs.realm")
        #expect(CapturedOutput.run(["create", database, "--schema", TestFiles.schema]).status == 0)
        #expect(
            CapturedOutput.run(["create", realmFile, "--schema", TestFiles.schema, "--format", "realm"]).status == 0)
        for source in [TestFiles.schema, database, realmFile] {
            let run = Self.translate("owner.age > 30", source, to: "sql")
            #expect(run.status == 0, "\(source): \(run.output.stderr)")
            #expect(run.output.stdout == Self.clause, "\(source)")
        }
        // A Realm file does not name linking objects: --models does.
        let walkers = CapturedOutput.run([
            "query", "translate", "walkers.@count > 0", "--class", "Person", "--schema", realmFile, "--to", "sql",
            "--models", TestFiles.schema,
        ])
        #expect(walkers.status == 0, "\(walkers.output.stderr)")
        #expect(
            walkers.output.stdout
                == "(SELECT count(*) FROM \"Dog\" AS t1 WHERE t1.\"owner\" = \"Person\".\"_id\") > 0")
    }

    @Test func everyTargetPrintsOneLine() {
        let mongo = Self.translate("ANY tags BEGINSWITH[c] 'C' AND breed != nil", TestFiles.schema, to: "mongo")
        #expect(mongo.status == 0, "\(mongo.output.stderr)")
        #expect(
            mongo.output.stdout
                == #"{"$and": [{"tags": {"$elemMatch": {"$in": [{"$regularExpression": {"pattern": "^C", "options": "i"}}]}}}, {"breed": {"$ne": null}}]}"#
        )
        let postgres = Self.translate("name > 'M'", TestFiles.schema, to: "postgres")
        #expect(postgres.status == 0, "\(postgres.output.stderr)")
        #expect(postgres.output.stdout == #"("Dog"."name" IS NOT NULL AND "Dog"."name" COLLATE "C" > 'M')"#)
    }

    @Test func whatHasNoTranslationIsNamedOnOneLine() {
        let run = Self.translate("name == 'Rex' AND owner.name BEGINSWITH[d] 'A'", TestFiles.schema, to: "sql")
        #expect(run.status == 1)
        #expect(run.output.stdout.isEmpty)
        #expect(
            run.output.stderr
                == "porter: error: no translation: `owner.name BEGINSWITH[d] 'A'` — [d] (diacritics ignored) has no exact translation"
        )
        let link = Self.translate("owner.name == 'Ada'", TestFiles.schema, to: "mongo")
        #expect(link.status == 1)
        #expect(
            link.output.stderr.hasPrefix(
                "porter: error: no translation: `owner.name == 'Ada'` — 'owner' links to Person"))
    }

    @Test func badInputIsRefused() {
        let unknown = Self.translate("agee > 3", TestFiles.schema, to: "sql")
        #expect(unknown.status == 1)
        #expect(unknown.output.stderr.contains("unknown property 'Dog.agee' at 1"), "\(unknown.output.stderr)")
        let noClass = CapturedOutput.run([
            "query", "translate", "x > 1", "--class", "Nope", "--schema", TestFiles.schema, "--to", "sql",
        ])
        #expect(noClass.status == 1)
        #expect(noClass.output.stderr == "porter: error: --class Nope: no such top-level class in the schema")
        #expect(Self.translate("name == 'a'", TestFiles.schema, to: "oracle").status == 64)
    }

    @Test func helpListsTheCommand() {
        #expect(PorterCLI.helpMessage().contains("query"))
        #expect(PorterCLI.helpMessage(for: QueryCommand.self).contains("translate"))
        #expect(PorterCLI.helpMessage(for: QueryTranslateCommand.self).contains("--to <to>"))
    }
}
