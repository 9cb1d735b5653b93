import Foundation
import PorterTestSupport
import Testing

/// `porter export --query` through linking objects: on a Realm file (answered from its backlink
/// columns, the linkingObjects named by `--models`) as on a Porter database of the same objects.
@Suite struct RealmLinkingQueryTests {
    static let realm = TestFiles.root.appendingPathComponent("Fixtures/realm/every-type.realm").path

    /// The every-type file's schema (`porter schema`) with linkingObjects on `Target` from each kind of link to it (to-one,
    /// list, set, dictionary; `Every 1`'s `targets` holds t1 twice).
    static func models(in folder: TemporaryFolder) throws -> String {
        let printed = CapturedOutput.run(["schema", Self.realm])
        try #require(printed.status == 0, "\(printed.output.stderr)")
        var schema = try #require(
            JSONSerialization.jsonObject(with: Data(printed.output.stdout.utf8)) as? [String: Any])
        var classes = try #require(schema["classes"] as? [[String: Any]])
        let index = try #require(classes.firstIndex { $0["name"] as? String == "Target" })
        var properties = try #require(classes[index]["properties"] as? [String: Any])
        for (name, origin) in [
            ("fromTarget", "target"), ("fromTargets", "targets"), ("fromTargetSet", "targetSet"),
            ("fromTargetMap", "targetMap"),
        ] {
            properties[name] = ["type": "linkingObjects", "objectType": "Every", "property": origin]
        }
        classes[index]["properties"] = properties
        schema["classes"] = classes
        let path = folder.path("models.json")
        try JSONSerialization.data(withJSONObject: schema).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let targetQueries = [
        "fromTarget.@count > 0", "fromTarget.@count == 0", "fromTargets.@count == 2", "fromTargets.@count >= 1",
        "ANY fromTargets._id == 1", "ALL fromTargets._id > 0", "NONE fromTargets._id == 1",
        "fromTargetSet.@count > 0", "ANY fromTargetSet.int > 0", "fromTargetMap.@count >= 1",
        "ANY fromTargetMap.string BEGINSWITH ''", "fromTargets._id == 1 AND fromTarget.@count == 0",
        "fromTargets.@count BETWEEN {1, 2}",
    ]
    static let everyQueries = [
        "ANY target.fromTargets._id == 1", "target.fromTargets.@count > 1", "ANY targets.fromTarget._id > 0",
    ]

    /// The JSON lines `porter export SOURCE --class C --query Q` writes (keys sorted), sorted.
    static func exported(_ source: [String], _ className: String, _ query: String) throws -> [String] {
        let folder = try TemporaryFolder("linking-query-out")
        let run = CapturedOutput.run(
            ["export"] + source + [
                "--class", className, "--query", query, "--format", "json", "--out", folder.path("out"), "--quiet",
            ])
        try #require(run.status == 0, "\(source[0]) \(query): \(run.output.stderr)")
        let text = try String(contentsOfFile: folder.path("out/\(className).json"), encoding: .utf8)
        // Keys sorted: the database's property order is the models file's, the Realm file's its own.
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }.sorted()
    }

    @Test func linkingObjectPathsSelectTheSameObjectsOnARealmFileAndADatabase() throws {
        let folder = try TemporaryFolder("linking-query")
        let models = try Self.models(in: folder)
        let db = folder.path("every.porter")
        let created = CapturedOutput.run(["create", db, "--schema", models])
        try #require(created.status == 0, "\(created.output.stderr)")
        let imported = CapturedOutput.run(["import", db, Self.realm, "--quiet"])
        try #require(imported.status == 0, "\(imported.output.stderr)")
        var selecting = 0
        for (className, queries) in [("Target", Self.targetQueries), ("Every", Self.everyQueries)] {
            for query in queries {
                let fromDatabase = try Self.exported([db], className, query)
                let fromRealm = try Self.exported([Self.realm, "--models", models], className, query)
                #expect(fromRealm == fromDatabase, "\(className) \(query)")
                if !fromDatabase.isEmpty { selecting += 1 }
            }
        }
        // Most queries select something (equal empty answers would prove little).
        #expect(selecting > (Self.targetQueries.count + Self.everyQueries.count) / 2)
    }

    /// Known answers on the Realm file: `Every 1` lists t1 twice, so t1 has two backlinks from it.
    @Test func backlinksCountEveryLink() throws {
        let folder = try TemporaryFolder("linking-query")
        let models = try Self.models(in: folder)
        let names = try Self.exported([Self.realm, "--models", models], "Target", "fromTargets.@count == 2")
        #expect(names.count == 1 && names.first?.contains("\"name\":\"t1\"") == true, "\(names)")
    }
}
