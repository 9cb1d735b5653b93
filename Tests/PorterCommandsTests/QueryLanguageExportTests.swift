import Foundation
import PorterTestSupport
import Testing

/// `porter export --query` with realm-core's `SUBQUERY`, `@links`, `@type`, `@keys`/`@values` and
/// subscripts: the same objects from the every-type Realm file (backlinks from its backlink
/// columns, mixed links included) as from a Porter database it was imported into.
@Suite struct QueryLanguageExportTests {
    static let targetQueries = [
        "@links.@count == 0", "@links.@count >= 5", "@links.@count BETWEEN {1, 4}",
        "@links.Every.targets.@count == 2", "@links.Every.mixed.@count > 0", "@links.Every.mixedList.@count == 1",
        "ANY @links.Every.target._id == 1", "NONE @links.Every.targetMap._id == 1",
        "SUBQUERY(fromTargets, $e, $e._id == 1).@count == 2",
        "SUBQUERY(fromTarget, $e, $e.mixed.@type == 'link').@count > 0",
        "name.@size == 2 AND n.@type == 'int'", "n.@type == 'null'",
    ]
    static let everyQueries = [
        "mixed.@type == 'link'", "mixed.@type == 'null'", "ANY mixedList.@type == 'uuid'",
        "ALL mixedList.@type IN {'numeric', 'null', 'bool', 'string', 'binary', 'date', 'objectId', 'uuid', 'link'}",
        "ANY mixedMap.@type == 'decimal'", "mixedMap['i'] > 0", "mixedMap['s'] == ''", "mixedMap['x'] == nil",
        "mixedMap.@keys == 'l'", "intMap.@keys == 'ʄ'", "ANY intMap.@values < 0", "intMap['a'] == 1",
        "intMap.@count == 3", "boolMap['t'] == true", "targetMap['a'].name == 't1'",
        "SUBQUERY(intList, $i, $i < 0).@count == 4", "SUBQUERY(targets, $t, $t.name == 't1').@count == 2",
        "SUBQUERY(mixedList, $m, $m.@type == 'link').@count >= 2", "string.@size > 10", "data.@size == 0",
        "SUBQUERY(targetMap, $t, $t.n == 1).@count == 1", "@links.@count == 0",
    ]

    @Test func theNewOperatorsSelectTheSameObjectsOnARealmFileAndADatabase() throws {
        let folder = try TemporaryFolder("query-language-export")
        let models = try RealmLinkingQueryTests.models(in: folder)
        let db = folder.path("every.porter")
        let created = CapturedOutput.run(["create", db, "--schema", models])
        try #require(created.status == 0, "\(created.output.stderr)")
        let imported = CapturedOutput.run(["import", db, RealmLinkingQueryTests.realm, "--quiet"])
        try #require(imported.status == 0, "\(imported.output.stderr)")
        var selecting = 0
        for (className, queries) in [("Target", Self.targetQueries), ("Every", Self.everyQueries)] {
            for query in queries {
                let fromDatabase = try RealmLinkingQueryTests.exported([db], className, query)
                let fromRealm = try RealmLinkingQueryTests.exported(
                    [RealmLinkingQueryTests.realm, "--models", models], className, query)
                #expect(fromRealm == fromDatabase, "\(className) \(query)")
                if !fromDatabase.isEmpty { selecting += 1 }
            }
        }
        #expect(selecting > (Self.targetQueries.count + Self.everyQueries.count) * 3 / 4)
    }

    /// Known answers on the Realm file: t1 is linked by `Every 1`'s target, targets (twice),
    /// targetSet, targetMap, mixed and mixedSet (7 links); t2 by its targets, targetSet and mixedList.
    @Test func knownAnswers() throws {
        let folder = try TemporaryFolder("query-language-export")
        let models = try RealmLinkingQueryTests.models(in: folder)
        let source = [RealmLinkingQueryTests.realm, "--models", models]
        let t1 = try RealmLinkingQueryTests.exported(source, "Target", "@links.@count == 7")
        #expect(t1.count == 1 && t1.first?.contains("\"name\":\"t1\"") == true, "\(t1)")
        let t2 = try RealmLinkingQueryTests.exported(source, "Target", "@links.@count == 3")
        #expect(t2.count == 1 && t2.first?.contains("\"name\":\"t2\"") == true, "\(t2)")
        let linked = try RealmLinkingQueryTests.exported(source, "Every", "mixed.@type == 'link'")
        #expect(linked.count == 2, "\(linked)")
    }

    @Test(
        arguments: [
            (
                "SUBQUERY(targets, t, t.n > 1).@count > 0",
                "--query: expected the SUBQUERY's variable ($x) at 19 near 't, t.n > 1).'"
            ),
            ("mixed.@type == 'strng'", "--query: 'mixed.@type' at 1: 'strng' is not a type name"),
            (
                "@links.Every.int.@count > 0",
                "--query: '@links.Every.int.@count' at 1: Every.int is not a property linking to Target"
            ),
        ])
    func errorsNameThePosition(_ query: String, _ message: String) throws {
        let folder = try TemporaryFolder("query-language-export")
        let models = try RealmLinkingQueryTests.models(in: folder)
        let className = query.contains("@links") ? "Target" : "Every"
        let run = CapturedOutput.run([
            "export", RealmLinkingQueryTests.realm, "--models", models, "--class", className, "--query", query,
            "--format", "json", "--out", folder.path("out"), "--quiet",
        ])
        #expect(run.status == (query.contains(", t,") ? 64 : 1), "\(run.output.stderr)")
        #expect(run.output.stderr.contains(message), "\(run.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "nothing written")
    }
}
