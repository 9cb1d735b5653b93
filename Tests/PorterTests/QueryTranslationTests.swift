import Foundation
import PorterTestSupport
import Testing

@testable import Porter

/// `porter query translate`'s translations of the shared query corpus (``SharedQueryTests``: the
/// queries the typed API and `--query` share), run on the exports of the corpus's data: each SQL
/// clause by the system `sqlite3` on the SQLite export and by `psql` on the PostgreSQL export
/// (beside the private server `make test` starts), each MongoDB filter by mongomock over the
/// Extended JSON export, must select exactly the objects the typed API's `filter` selects. The
/// queries without an exact translation are listed here, so the list cannot grow unnoticed.
@Suite struct QueryTranslationTests {
    /// A corpus of queries over one seeded realm, with the queries each target refuses.
    struct Corpus: CustomStringConvertible, Sendable {
        let name: String
        let queries: [(className: String, query: String)]
        /// Makes the realm the queries run on.
        let seed: @Sendable () throws -> (realm: Realm, folder: TemporaryFolder)
        /// What the SQL translations (SQLite and PostgreSQL alike) refuse, as "Class: query".
        let refusedBySQL: Set<String>
        /// What the MongoDB translation refuses.
        let refusedByMongo: Set<String>
        var description: String { name }
    }

    /// The shared corpus (``SharedQueryTests``).
    static let shared = Corpus(
        name: "shared",
        queries: SharedQueryTests.dogQueries.map { ("Dog", $0) } + SharedQueryTests.personQueries.map { ("Person", $0) }
            + SharedQueryTests.linkingObjectQueries.map { ("Person", $0) },
        seed: { try seededRealm() }, refusedBySQL: refusedBySQL, refusedByMongo: refusedByMongo)

    /// realm-core's additions (``QueryLanguageCompletionTests``: SUBQUERY, @links, @type, @keys,
    /// subscripts, key paths compared), on its data (the shared data with address books).
    static let completion = Corpus(
        name: "completion",
        queries: QueryLanguageCompletionTests.dogQueries.map { ("Dog", $0) }
            + QueryLanguageCompletionTests.personQueries.map { ("Person", $0) },
        seed: {
            let (realm, _, folder) = try QueryLanguageCompletionTests.files()
            return (realm, folder)
        }, refusedBySQL: completionRefusedBySQL, refusedByMongo: completionRefusedByMongo)

    static let corpora = [shared, completion]

    /// The queries the SQL translations (SQLite and PostgreSQL alike) refuse.
    static let refusedBySQL: Set<String> = [
        "Dog: name BEGINSWITH[d] 'E'", "Dog: name BEGINSWITH[cd] 'e'", "Person: name CONTAINS[d] 'e'",
        "Dog: name LIKE 'R?x'", "Dog: ratings.@avg >= 3", "Dog: extra == 5", "Dog: extra > 4",
    ]

    /// The queries the MongoDB translation refuses: the SQL ones, and paths across links,
    /// linking objects and dictionaries, which a find() filter cannot follow.
    static let refusedByMongo: Set<String> = refusedBySQL.union([
        "Dog: owner.age > 30", "Dog: owner.age >= 30", "Dog: owner.age BETWEEN {25, 35}",
        "Dog: owner.name == 'Ada'", "Dog: owner.address.city == 'Oslo'", "Dog: owner.address.country.code == 'NO'",
        "Dog: ratings.@count > 1", "Dog: ratings.@sum > 5", "Dog: ratings.@min == 1", "Dog: ratings.@max < 5",
        "Dog: ANY ratings > 3", "Dog: ALL ratings > 1", "Dog: NONE ratings == nil",
        "Dog: ANY favoriteToys.name CONTAINS 'Max'", "Dog: favoriteToys.squeaky == true",
        "Dog: !(owner.age > 30)", "Dog: name == 'Rex' AND owner.age > 25",
        "Person: ANY dogs.name == 'Rex'", "Person: dogs.name == 'Rex'", "Person: ALL dogs.name BEGINSWITH 'R'",
        "Person: NONE dogs.breed == nil", "Person: ANY dogs.tags == 'old'",
        "Person: walkers.@count > 0", "Person: ANY walkers.name == 'Rex'", "Person: walkers.@count == 0",
        "Person: walkers.@count == 2", "Person: ALL walkers.tags.@count >= 1", "Person: NONE walkers.breed == nil",
        "Person: ANY walkers.owner.name == 'Ada'", "Person: walkers.owner.age > 30",
        "Person: ANY walkers.favoriteToys.name BEGINSWITH 'ball'",
    ])

    /// What the SQL translations of the completion corpus refuse: backlinks (`@links`), two key
    /// paths compared unless both are integers, `@keys`/subscripts of a dictionary of embedded
    /// objects, `@type` of a link, and a SUBQUERY over a dictionary of embedded objects (its null
    /// entries have no rows) or through a subscript.
    static let completionRefusedBySQL: Set<String> = [
        "Dog: @links.@count == 0",
        "Dog: @links.@count > 0",
        "Dog: @links.Person.dogs.@count == 1",
        "Dog: @links.Person.dogs.age > 30",
        "Dog: ANY @links.Person.dogs.name == 'Ada'",
        "Dog: ANY tags == name",
        "Dog: NONE @links.Person.dogs.age > 30",
        "Dog: NOT (ratings['vet'] > 1) OR @links.@count == 0",
        "Dog: extra == ratings['vet']",
        "Dog: name ==[c] owner.name",
        "Person: @links.@count == 0",
        "Person: @links.@count >= 2",
        "Person: @links.Dog.owner.@count > 1",
        "Person: ALL @links.Dog.owner.tags.@count > 0",
        "Person: ALL dogs.name != name",
        "Person: ANY @links.Dog.owner.name BEGINSWITH 'R'",
        "Person: SUBQUERY(addressBook, $a, $a.city == 'Oslo').@count == 1",
        "Person: addressBook.@count == 2",
        "Person: addressBook.@keys == 'home'",
        "Person: addressBook['home'].city == 'Oslo'",
        "Person: addressBook['work'] == nil",
        "Person: name == walkers.owner.name",
    ]

    /// What the MongoDB translation of the completion corpus refuses: the SQL ones, every SUBQUERY
    /// (counting matching elements needs `$expr`), paths across links, dictionaries' values and
    /// keys (one key's value is a field, and translated), and `@type`.
    static let completionRefusedByMongo: Set<String> = completionRefusedBySQL.union([
        "Dog: ratings['vet'] >= ratings['groomer']",
        "Dog: tags.@count < ratings.@count",
        "Person: ANY dogs.owner.age < age",
        "Person: age > dogs.@count",
        "Dog: name.@size == 3",
        "Dog: name.@count > 3",
        "Dog: breed.@size == 6",
        "Dog: owner.name.@size == 2",
        "Dog: 30 <= owner.age",
        "Dog: ALL ratings.@keys == 'vet'",
        "Dog: ALL ratings.@type == 'int'",
        "Dog: ALL ratings.@values >= 2",
        "Dog: ANY ratings.@keys BEGINSWITH 'g'",
        "Dog: ANY ratings.@type == 'null'",
        "Dog: ANY ratings.@values > 3",
        "Dog: NONE ratings.@keys == 'walker'",
        "Dog: SUBQUERY(favoriteToys, $t, $t.name CONTAINS 'Max').@count > 0",
        "Dog: SUBQUERY(favoriteToys, $t, $t.squeaky == true).@count == 1",
        "Dog: SUBQUERY(ratings, $r, $r == nil).@count <= 0",
        "Dog: SUBQUERY(ratings, $r, $r > 2).@count == 1",
        "Dog: SUBQUERY(tags, $t, $t == 'cute' OR $t == 'old').@size >= 1",
        "Dog: SUBQUERY(tags, $t, $t == 'cute').@count > 0 AND extra.@type == 'int'",
        "Dog: SUBQUERY(tags, $t, $t BEGINSWITH 'c').@count != 2",
        "Dog: SUBQUERY(tags, $t, $t BEGINSWITH 'c').@count == 2",
        "Dog: SUBQUERY(tags, $tag, NOT ($tag == 'cute')).@count < 1",
        "Dog: extra.@type != 'double'",
        "Dog: extra.@type == 'Integer'",
        "Dog: extra.@type == 'int'",
        "Dog: extra.@type == 'null'",
        "Dog: extra.@type == 'numeric'",
        "Dog: extra.@type IN {'objectId', 'binary', 'link', 'list', 'dictionary', 'uuid', 'date', 'decimal128'}",
        "Dog: extra.@type IN {'string', 'bool'}",
        "Dog: name.@type == 'string'",
        "Dog: ratings.@keys == 'vet'",
        "Dog: ratings.@values == nil",
        "Dog: subquery(tags, $t, TRUEPREDICATE).@COUNT == 3",
        "Person: ALL dogs.extra.@type == 'numeric'",
        "Person: ANY dogs.ratings['vet'] > 4",
        "Person: SUBQUERY(dogs, $d, $d.tags.@count >= 2 AND $d.name BEGINSWITH 'R').@count == 1",
        "Person: SUBQUERY(dogs, $d, SUBQUERY($d.tags, $t, $t == 'cute').@count > 0).@count >= 1",
        "Person: SUBQUERY(previousAddresses, $a, $a.city == 'Rome').@count == 1",
        "Person: SUBQUERY(walkers, $w, $w.breed == 'Beagle').@count > 0",
        "Person: SUBQUERY(walkers, $w, $w.ratings['vet'] >= 1).@count == 2",
        "Person: dogs.name.@size > 3",
    ])

    /// The seeded realm of ``SharedQueryTests`` in a new folder.
    static func seededRealm() throws -> (realm: Realm, folder: TemporaryFolder) {
        let folder = try TemporaryFolder("query-translate")
        let realm = try fileRealm(folder.url.appendingPathComponent("q.porter"))
        try SharedQueryTests.seeded(realm)
        return (realm, folder)
    }

    /// The names of the objects the typed API's `filter` selects.
    static func expected(_ realm: Realm, _ className: String, _ query: String) throws -> [String] {
        let names: [String]
        if className == "Dog" {
            names = try realm.objects(Dog.self).filter(query).snapshot().map(\.name)
        } else {
            names = try realm.objects(Person.self).filter(query).snapshot().map(\.name)
        }
        return names.sorted()
    }

    /// Translates every query of the corpus: the translations by "Class: query", and the refused.
    static func translations(_ corpus: Corpus, _ schema: Schema, to target: QueryTranslationTarget) throws -> (
        translated: [(key: String, className: String, query: String, text: String)], refused: Set<String>
    ) {
        var translated: [(key: String, className: String, query: String, text: String)] = []
        var refused = Set<String>()
        for (className, query) in corpus.queries {
            let key = "\(className): \(query)"
            do {
                let text = try QueryTranslator.translate(query, className: className, schema: schema, to: target)
                translated.append((key, className, query, text))
            } catch let error as PorterError {
                // A refusal is one line naming the part of the query and why.
                #expect(error.message.hasPrefix("no translation: `"), "\(key): \(error.message)")
                #expect(!error.message.contains("\n"), "\(key)")
                refused.insert(key)
            }
        }
        return (translated, refused)
    }

    /// The lines a command printed (sorted), or the failure.
    static func lines(_ run: PostgresServer.Run) -> [String] {
        run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test(arguments: corpora)
    func everySQLiteTranslationSelectsWhatPorterSelects(_ corpus: Corpus) throws {
        let (realm, folder) = try corpus.seed()
        let path = folder.path("export.sqlite")
        _ = try Exporter(database: realm.database, format: SharedQueryTranslationFormats.ejson).export(toSQLite: path)
        let (translated, refused) = try Self.translations(corpus, realm.database.schema, to: .sql)
        #expect(refused == corpus.refusedBySQL, "refused: \(refused.sorted())")
        #expect(translated.count + refused.count == corpus.queries.count)
        var nonEmpty = 0
        for item in translated {
            let expected = try Self.expected(realm, item.className, item.query)
            if !expected.isEmpty { nonEmpty += 1 }
            let run = try PostgresServer.run(
                "sqlite3", ["-bail", path, "SELECT \"name\" FROM \(quoted(item.className)) WHERE \(item.text)"])
            #expect(run.status == 0, "\(item.key): \(item.text): \(run.stderr)")
            #expect(Self.lines(run) == expected, "\(item.key): \(item.text)")
        }
        #expect(nonEmpty > translated.count / 2)
    }

    @Test(.enabled(if: PostgresServer.available, "\(PostgresServer.missing)"), arguments: corpora)
    func everyPostgresTranslationSelectsWhatPorterSelects(_ corpus: Corpus) throws {
        let (realm, folder) = try corpus.seed()
        let path = folder.path("export.sql")
        _ = try Exporter(database: realm.database, format: SharedQueryTranslationFormats.ejson)
            .export(toPostgresFile: path)
        let database = try PostgresServer.createDatabase("translate")
        defer { PostgresServer.dropDatabase(database) }
        let load = try PostgresServer.psql(file: path, database: database)
        try #require(load.status == 0, "\(load.stderr)")
        let (translated, refused) = try Self.translations(corpus, realm.database.schema, to: .postgres)
        #expect(refused == corpus.refusedBySQL, "refused: \(refused.sorted())")
        for item in translated {
            let run = try PostgresServer.psql(
                "SELECT \"name\" FROM \(quoted(item.className)) WHERE \(item.text)", database: database)
            #expect(run.status == 0, "\(item.key): \(item.text): \(run.stderr)")
            #expect(
                Self.lines(run) == (try Self.expected(realm, item.className, item.query)), "\(item.key): \(item.text)")
        }
    }

    /// Whether a query uses an operator matching substrings (which Porter matches on whole
    /// characters and SQL on code points: no selection on the database itself translates them).
    static func matchesSubstrings(_ query: String) -> Bool {
        let upper = query.uppercased()
        return ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"].contains { upper.contains($0) }
    }

    /// `--query` of an export from a Porter database into PostgreSQL selects by the SQL
    /// translation, run on the database itself over the export's tables presented as views of its
    /// own (issue #40): every query with an exact translation selects, by the system `sqlite3` on
    /// the database, what the typed API's `filter` selects; the others are exactly the SQL
    /// refusals plus queries matching substrings (left to Porter's evaluator).
    @Test(arguments: corpora)
    func everySelectionOnTheDatabaseSelectsWhatPorterSelects(_ corpus: Corpus) throws {
        let (realm, folder) = try corpus.seed()
        defer { withExtendedLifetime(folder) {} }
        let schema = realm.database.schema
        var refused = Set<String>()
        var nonEmpty = 0
        for (className, query) in corpus.queries {
            let key = "\(className): \(query)"
            guard let sql = QueryTranslator.storageSelection(query, className: className, schema: schema) else {
                refused.insert(key)
                continue
            }
            let run = try PostgresServer.run(
                "sqlite3",
                [
                    "-bail", "-readonly", realm.database.path,
                    "SELECT \"name\" FROM \(quoted("class_" + className)) WHERE \"_key\" IN (\(sql))",
                ])
            #expect(run.status == 0, "\(key): \(sql): \(run.stderr)")
            let expected = try Self.expected(realm, className, query)
            if !expected.isEmpty { nonEmpty += 1 }
            #expect(Self.lines(run) == expected, "\(key): \(sql)")
        }
        #expect(corpus.refusedBySQL.isSubset(of: refused))
        for key in refused.subtracting(corpus.refusedBySQL) {
            #expect(Self.matchesSubstrings(key), "\(key) has no selection on the database")
        }
        #expect(nonEmpty > (corpus.queries.count - refused.count) / 2)
    }

    /// The names in the `COPY` rows of `table` in a SQL file of `porter export --format postgres`.
    static func copiedNames(_ sql: String, table: String) throws -> [String] {
        let lines = sql.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The columns in their CREATE TABLE order (`"name" type …`, one per comma).
        let create = "CREATE TABLE \(quoted(table)) ("
        let definition = try #require(lines.first { $0.hasPrefix(create) }, "no table \(table)")
        let columns = definition.dropFirst(create.count).components(separatedBy: ", ")
        let name = try #require(columns.firstIndex { $0.hasPrefix("\"name\" ") })
        let start = try #require(lines.firstIndex(of: "COPY \(quoted(table)) FROM stdin;"), "no COPY of \(table)")
        var names: [String] = []
        for line in lines[(start + 1)...] {
            if line == "\\." { break }
            names.append(String(line.split(separator: "\t", omittingEmptySubsequences: false)[name]))
        }
        return names.sorted()
    }

    /// The export itself: `porter export DB --class C --query Q --format postgres` writes exactly
    /// the objects the typed API selects, for every query of the corpus (translated on the database
    /// where it can be, else evaluated).
    @Test(arguments: corpora)
    func postgresExportsOfADatabaseSelectWhatPorterSelects(_ corpus: Corpus) throws {
        let (realm, folder) = try corpus.seed()
        for (index, (className, query)) in corpus.queries.enumerated() {
            let exporter = Exporter(
                database: realm.database, format: SharedQueryTranslationFormats.ejson,
                options: ExportOptions(classes: [className]))
            exporter.selection = ExportSelection(className: className, query: query)
            let path = folder.path("selection-\(index).sql")
            _ = try exporter.export(toPostgresFile: path)
            let names = try Self.copiedNames(try String(contentsOfFile: path, encoding: .utf8), table: className)
            #expect(names == (try Self.expected(realm, className, query)), "\(className): \(query)")
        }
    }

    /// The Python of the virtual environment `make test` installs mongomock into, when it can
    /// import mongomock and bson (otherwise the MongoDB test is skipped, saying so).
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/python-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python),
            let run = try? PostgresServer.run(python, ["-c", "import mongomock, bson"]), run.status == 0
        else { return nil }
        return python
    }()

    static let evaluator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MongoCheck/evaluate_filters.py").path

    @Test(
        .enabled(
            if: python != nil,
            "skipped: mongomock cannot be imported from .build/python-venv (`make python-mongomock` or `make test` installs it)"
        ),
        arguments: corpora)
    func everyMongoFilterSelectsWhatPorterSelects(_ corpus: Corpus) throws {
        let (realm, folder) = try corpus.seed()
        let dump = folder.path("dump")
        _ = try Exporter(database: realm.database, format: SharedQueryTranslationFormats.ejson)
            .export(toDirectory: dump)
        let (translated, refused) = try Self.translations(corpus, realm.database.schema, to: .mongo)
        #expect(refused == corpus.refusedByMongo, "refused: \(refused.sorted())")
        let filters = translated.map { ["class": $0.className, "filter": $0.text] }
        let filtersPath = folder.path("filters.json")
        try JSONSerialization.data(withJSONObject: filters).write(to: URL(fileURLWithPath: filtersPath))
        let run = try PostgresServer.run(try #require(Self.python), [Self.evaluator, dump, filtersPath])
        try #require(run.status == 0, "\(run.stderr)")
        let results = run.stdout.split(separator: "\n").map(String.init)
        try #require(results.count == translated.count)
        var nonEmpty = 0
        for (item, line) in zip(translated, results) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["error"] == nil, "\(item.key): \(item.text): \(object?["error"] ?? "")")
            let names = (object?["names"] as? [String]) ?? []
            let expected = try Self.expected(realm, item.className, item.query)
            if !expected.isEmpty { nonEmpty += 1 }
            #expect(names.sorted() == expected, "\(item.key): \(item.text)")
        }
        #expect(nonEmpty > translated.count / 2)
    }

    @Test(
        arguments: [
            (
                "Dog", "ratings.@avg >= 3", QueryTranslationTarget.sql,
                "no translation: `ratings.@avg >= 3` — Porter averages in doubles summed in order; SQL's avg rounds differently"
            ),
            (
                "Dog", "owner.age > 30", .mongo,
                "no translation: `owner.age > 30` — 'owner' links to Person, stored as its _id: a find() filter cannot follow a link (that needs $lookup)"
            ),
            (
                "Dog", "name ==[c] 'Fido'", .postgres,
                "no translation: `name ==[c] 'Fido'` — [c] with 'F': Porter folds case as Unicode does (other characters fold to 'f'), the target folds ASCII only"
            ),
            (
                "Dog", "name == 'Émile'", .sql,
                "no translation: `name == 'Émile'` — the argument is not ASCII: Porter compares strings by canonical equivalence (Unicode normalization) and on whole characters, the target by bytes"
            ),
        ])
    func refusalsNameThePartAndWhy(
        _ className: String, _ query: String, _ target: QueryTranslationTarget, _ message: String
    )
        throws
    {
        let (realm, folder) = try Self.seededRealm()
        defer { withExtendedLifetime(folder) {} }
        let error = expectPorterError(.usage) {
            _ = try QueryTranslator.translate(query, className: className, schema: realm.database.schema, to: target)
        }
        #expect(error?.message == message)
    }

    @Test func knownTranslations() throws {
        let (realm, folder) = try Self.seededRealm()
        defer { withExtendedLifetime(folder) {} }
        let schema = realm.database.schema
        func translate(_ query: String, _ target: QueryTranslationTarget, _ className: String = "Dog") throws -> String
        {
            try QueryTranslator.translate(query, className: className, schema: schema, to: target)
        }
        #expect(
            try translate("name != 'Rex'", .sql) == "NOT ((\"Dog\".\"name\" IS NOT NULL AND \"Dog\".\"name\" = 'Rex'))")
        #expect(
            try translate("ANY tags == 'cute'", .mongo) == "{\"tags\": {\"$elemMatch\": {\"$eq\": \"cute\"}}}")
        #expect(
            try translate("owner.age > 30", .postgres)
                == "EXISTS (SELECT 1 FROM \"Person\" AS t1 WHERE t1.\"_id\" = \"Dog\".\"owner\" AND (t1.\"age\" IS NOT NULL AND t1.\"age\" > 30))"
        )
    }
}

/// The output format the exporter is made with (the relational exports ignore it).
enum SharedQueryTranslationFormats {
    static let ejson = InterchangeFormats.output.first { $0.name == "ejson" }!
}

/// An identifier quoted for SQL.
private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
