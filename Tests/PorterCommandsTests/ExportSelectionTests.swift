import Foundation
import PorterCommands
import PorterTestSupport
import Testing

/// `porter export --class C --query/--sort/--skip/--limit/--fields`: the same objects from a Porter
/// database and from the Realm file exported from it, in every format, and every refusal.
@Suite struct ExportSelectionTests {
    static let schema = """
        {"schemaVersion": 2, "classes": [
          {"name": "Person", "primaryKey": "_id",
           "properties": {"_id": "int", "name": "string", "age": "int?", "address": "Address?"}},
          {"name": "Address", "embedded": true, "properties": {"city": "string", "zip": "string?"}},
          {"name": "Dog", "primaryKey": "_id",
           "properties": {"_id": "int", "name": "string", "age": "int", "owner": "Person?", "tags": "string[]",
                          "address": "Address?"}}
        ]}
        """
    static let people = """
        {"_id": 1, "name": "Ada", "age": 30, "address": {"city": "Oslo", "zip": "0150"}}
        {"_id": 2, "name": "Bob", "age": null}
        {"_id": 3, "name": "Al", "age": 41, "address": {"city": "Lima"}}

        """
    static let dogs = """
        {"_id": 10, "name": "Rex", "age": 5, "owner": 1, "tags": ["cute", "calm"], "address": {"city": "Bergen"}}
        {"_id": 11, "name": "Fido", "age": 2, "owner": 2, "tags": []}
        {"_id": 12, "name": "rexy", "age": 7, "owner": 3, "tags": ["cute"]}
        {"_id": 13, "name": "Max", "age": 4, "owner": null, "tags": ["old"]}
        {"_id": 14, "name": "Bea", "age": 9, "owner": 1, "tags": ["cute", "old", "calm"]}

        """

    /// A Porter database with people and dogs, and the Realm file exported from it.
    static func sources(_ dir: URL) throws -> [String] {
        let schema = dir.appendingPathComponent("schema.json")
        try Data(Self.schema.utf8).write(to: schema)
        let data = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(people.utf8).write(to: data.appendingPathComponent("Person.json"))
        try Data(dogs.utf8).write(to: data.appendingPathComponent("Dog.json"))
        let db = dir.appendingPathComponent("app.porter").path
        let imported = CapturedOutput.run([
            "import", db, data.appendingPathComponent("Person.json").path,
            data.appendingPathComponent("Dog.json").path, "--create", "--schema", schema.path, "--quiet",
        ])
        try #require(imported.status == 0, "\(imported.output.stderr)")
        let realm = dir.appendingPathComponent("app.realm").path
        let exported = CapturedOutput.run(["export", db, "--format", "realm", "--out", realm])
        try #require(exported.status == 0, "\(exported.output.stderr)")
        return [db, realm]
    }

    /// Runs `porter export SOURCE --class Dog --format json --out DIR ARGS` and returns the lines of Dog.json.
    static func exportLines(_ source: String, _ arguments: [String], in dir: URL, format: String = "json") throws
        -> [String]
    {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
        let run = CapturedOutput.run(
            ["export", source, "--class", "Dog", "--format", format, "--out", out, "--quiet"] + arguments)
        try #require(run.status == 0, "\(arguments): \(run.output.stderr)")
        let text = try String(contentsOfFile: out + "/Dog.\(format == "csv" ? "csv" : "json")", encoding: .utf8)
        // CSV ends lines with CRLF, one Character in Swift.
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    /// The `_id`s of JSON lines.
    static func ids(_ lines: [String]) throws -> [Int] {
        try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(object?["_id"] as? Int)
        }
    }

    @Test(
        arguments: [
            (["--query", "age > 4"], [10, 12, 14]),
            (["--query", "owner.name BEGINSWITH 'A'"], [10, 12, 14]),
            (["--query", "name BEGINSWITH[c] 'r' AND age < 6"], [10]),
            (["--query", "owner == nil OR owner.age == nil"], [11, 13]),
            (["--query", "ANY tags == 'old'"], [13, 14]),
            (["--query", "tags.@count == 0"], [11]),
            (["--query", "owner.address.city == 'Oslo'"], [10, 14]),
            (["--query", "address.city == 'Bergen'"], [10]),
            (["--query", "name IN {'Max', 'Bea'}"], [13, 14]),
            (["--query", "age BETWEEN {4, 7}"], [10, 12, 13]),
            (["--query", "NOT (name LIKE '*x*')"], [11, 14]),
            (["--query", "ALL tags != 'old'"], [10, 11, 12]),
            (["--sort", "name"], [14, 11, 13, 10, 12]),
            (["--sort", "-age"], [14, 12, 10, 13, 11]),
            (["--sort", "owner.name,-age"], [13, 14, 10, 12, 11]),
            (["--sort", "age", "--skip", "1", "--limit", "2"], [13, 10]),
            (["--query", "age > 2", "--sort", "-age", "--limit", "2"], [14, 12]),
            (["--skip", "3"], [13, 14]),
            (["--limit", "0"], []),
            (["--query", "FALSEPREDICATE"], []),
            (["--query", "age * 2 > 10"], [12, 14]),
            (["--query", "(age + 1) / 2 == 3"], [10]),
            (["--query", "tags[FIRST] == 'cute'"], [10, 12, 14]),
            (["--query", "tags[LAST] == 'calm' OR tags[SIZE] == 0"], [10, 11, 14]),
            (["--query", "ANY tags[*] == 'old'"], [13, 14]),
            (["--query", "age / 0.0 == inf"], [10, 11, 12, 13, 14]),
        ] as [([String], [Int])])
    func selectsTheSameObjectsFromADatabaseAndARealmFile(_ arguments: [String], _ expected: [Int]) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        for source in try Self.sources(dir) {
            #expect(try Self.ids(Self.exportLines(source, arguments, in: dir)) == expected, "\(source) \(arguments)")
        }
    }

    @Test func fieldsProjectThroughLinksAndEmbeddedObjectsInEveryFormat() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let selection = ["--query", "age > 4", "--fields", "name,owner.name,owner.address.city,address.city"]
        for source in try Self.sources(dir) {
            #expect(
                try Self.exportLines(source, selection, in: dir) == [
                    #"{"_id":10,"name":"Rex","owner":{"name":"Ada","address":{"city":"Oslo"}},"address":{"city":"Bergen"}}"#,
                    #"{"_id":12,"name":"rexy","owner":{"name":"Al","address":{"city":"Lima"}}}"#,
                    #"{"_id":14,"name":"Bea","owner":{"name":"Ada","address":{"city":"Oslo"}}}"#,
                ], "\(source)")
            let ejson = try Self.exportLines(source, ["--fields", "tags", "--limit", "1"], in: dir, format: "ejson")
            #expect(ejson == [#"{ "_id" : 10, "tags" : [ "cute", "calm" ] }"#], "\(source)")
            let csv = try Self.exportLines(source, selection + ["--sort", "-name"], in: dir, format: "csv")
            #expect(
                csv
                    == [
                        "name,owner.name,owner.address.city,address.city", "rexy,Al,Lima,", "Rex,Ada,Oslo,Bergen",
                        "Bea,Ada,Oslo,",
                    ], "\(source)")
            // BSON: three documents holding `_id` and `name` only.
            let bson = dir.appendingPathComponent("bson-\(UUID().uuidString)").path
            let run = CapturedOutput.run(
                ["export", source, "--class", "Dog", "--out", bson, "--fields", "name", "--query", "age > 4"])
            try #require(run.status == 0, "\(run.output.stderr)")
            #expect(run.output.stdout.contains("Exported 3 documents"), "\(run.output.stdout)")
            let data = try Data(contentsOf: URL(fileURLWithPath: bson + "/Dog.bson"))
            let keys = ["_id", "name", "age", "owner", "tags"].map { Data(($0 + "\u{0}").utf8) }
            #expect(keys.map { data.range(of: $0) != nil } == [true, true, false, false, false])
            // SQLite: the class's table keeps the named columns and the primary key.
            let sqlite = dir.appendingPathComponent("s-\(UUID().uuidString).sqlite").path
            let sql = CapturedOutput.run([
                "export", source, "--class", "Dog", "--format", "sqlite", "--out", sqlite, "--quiet", "--fields",
                "name,age", "--query", "age > 4", "--sort", "name", "--limit", "2",
            ])
            try #require(sql.status == 0, "\(sql.output.stderr)")
            let python = try Self.python(sqlite, "SELECT * FROM Dog ORDER BY _id")
            #expect(python == "[(10, 'Rex', 5), (14, 'Bea', 9)]", "\(source)")
        }
    }

    /// Runs a query on a SQLite file with Python's `sqlite3` and returns what it prints.
    static func python(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())", path, sql,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        arguments: [
            (["--class", "Dog", "--query", "agee > 3"], "--query: unknown property 'Dog.agee' at 1", 1),
            (["--class", "Dog", "--query", "owner.nam == 'a'"], "--query: unknown property 'Person.nam' at 1", 1),
            (
                ["--class", "Dog", "--query", "age >> 3"],
                "--query: expected a value (a number, a quoted string, true, false, nil or %@) at 6 near '> 3'", 64
            ),
            (["--class", "Dog", "--query", "(age > 3"], "--query: expected ')' at 9 at the end", 64),
            (
                ["--class", "Dog", "--query", "owner.age.@size > 1"],
                "--query: 'owner.age.@count' at 1: @count and @size need a collection, a string or data", 1
            ),
            (
                ["--class", "Dog", "--query", "name * 2 > 1"],
                "--query: 'name' at 1: cannot perform '*' on Dog.name, a string", 1
            ),
            (
                ["--class", "Dog", "--query", "tags['a'] == 1"],
                "--query: 'tags['a']' at 1: Dog.tags is not a dictionary, so it has no ['a']", 1
            ),
            (
                ["--class", "Dog", "--query", "age > 3 SORT(name ASC)", "--sort", "name"],
                "--query: SORT(…) in the query is not supported (use --sort and --limit, or sorted(byKeyPath:) and distinct(by:)) at 9",
                64
            ),
            (["--class", "Dog", "--sort", "nme"], "--sort: unknown property 'Dog.nme' at 1", 1),
            (
                ["--class", "Dog", "--sort", "name,tags"],
                "--sort: 'tags' at 6: Dog.tags is a list; only single values and to-one links can be sorted by", 1
            ),
            (
                ["--class", "Dog", "--sort", "name,,age"],
                "--sort: expected a property name (name, -age, owner.name) at 6", 64
            ),
            (["--class", "Dog", "--skip", "-1"], "--skip: -1 is negative (give 0 or more objects to skip)", 64),
            (["--class", "Dog", "--limit", "-5"], "--limit: -5 is negative (give 0 or more objects to export)", 64),
            (["--class", "Dog", "--fields", "owner.nme"], "--fields: unknown property 'Person.nme' in 'owner.nme'", 1),
            (
                ["--class", "Dog", "--fields", "name.x"],
                "--fields: 'name.x': Dog.name is not an object, so it has no 'x'", 1
            ),
            (["--query", "age > 3"], "--query selects from one class: pass exactly one --class (given: 0)", 64),
            (
                ["--class", "Dog", "--class", "Person", "--limit", "1"],
                "--limit selects from one class: pass exactly one --class (given: 2)", 64
            ),
            (["--fields", "name"], "--fields selects from one class: pass exactly one --class (given: 0)", 64),
        ] as [([String], String, Int32)])
    func refusesBadSelectionsNamingTheInput(_ arguments: [String], _ message: String, _ status: Int32) throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        for source in try Self.sources(dir) {
            let out = dir.appendingPathComponent("out").path
            let run = CapturedOutput.run(["export", source, "--out", out] + arguments)
            #expect(run.status == status, "\(arguments)")
            #expect(run.output.stderr.contains(message), "\(arguments): \(run.output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        }
    }

    @Test func realmAndSQLiteRefuseWhatTheyCannotDo() throws {
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = try Self.sources(dir)[0]
        let realm = CapturedOutput.run([
            "export", db, "--format", "realm", "--out", dir.appendingPathComponent("x.realm").path, "--query",
            "age > 1",
        ])
        #expect(realm.status == 64)
        #expect(
            realm.output.stderr.contains(
                "--query does not apply to --format realm (a Realm file holds every object of every class)"))
        let out = dir.appendingPathComponent("x.sqlite").path
        let sqlite = CapturedOutput.run([
            "export", db, "--format", "sqlite", "--out", out, "--class", "Dog", "--fields", "owner.name",
        ])
        #expect(sqlite.status == 1)
        #expect(
            sqlite.output.stderr.contains(
                "--fields: 'owner.name': --format sqlite keeps whole columns of Dog; dotted paths apply to the document formats and CSV"
            ), "\(sqlite.output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func theInterchangeGuideTableListsEveryOptionOfExportHelp() throws {
        let guide = try String(
            contentsOf: TestFiles.root.appendingPathComponent("Sources/Porter/Porter.docc/Interchange.md"),
            encoding: .utf8)
        let start = try #require(guide.range(of: "\n## Export options\n"))
        let end = try #require(guide.range(of: "\n## ", range: start.upperBound..<guide.endIndex))
        let table = guide[start.upperBound..<end.lowerBound]
        let help = ExportCommand.helpMessage(columns: 10_000)
        let options = try NSRegularExpression(pattern: #"^  (--[a-z-]+)"#, options: .anchorsMatchLines)
            .matches(in: help, range: NSRange(help.startIndex..., in: help))
            .map { String(help[Range($0.range(at: 1), in: help)!]) }
            .filter { $0 != "--help" && $0 != "--version" }
        #expect(options.count >= 20, "\(options)")
        for option in options { #expect(table.contains("`\(option)"), "the guide's export table lacks \(option)") }
    }

    @Test func helpListsTheFormatsAndEveryExistingSpellingStillWorks() throws {
        let help = ExportCommand.helpMessage(columns: 10_000)
        #expect(help.contains("values: bson, json, ejson, ejson-canonical, csv, sqlite, realm"), "\(help)")
        for option in ["--query", "--sort", "--skip", "--limit", "--fields"] { #expect(help.contains(option)) }
        let tmp = try TemporaryFolder("cmd")
        let dir = tmp.url
        let db = try Self.sources(dir)[0]
        for format in ExportFormat.allCases where format != .realm && format != .sqlite {
            let out = dir.appendingPathComponent(format.rawValue).path
            let run = CapturedOutput.run(["export", db, "--format", format.rawValue, "--out", out, "--quiet"])
            #expect(run.status == 0, "\(format): \(run.output.stderr)")
        }
        let bad = CapturedOutput.run(["export", db, "--format", "xml", "--out", dir.appendingPathComponent("x").path])
        #expect(bad.status == 64)
    }
}
