import Foundation
import PorterTestSupport
import Testing

@testable import Porter

/// realm-core's path forms the earlier query tests left out: paths on through dictionary
/// `@values`, `[FIRST]`, `[LAST]`, `[SIZE]` and `[*]` of lists, sets, dictionaries, linking objects
/// and of the lists and dictionaries a mixed value holds (`extra.instruments[*].strings`), and
/// `@size` of a path that reaches one value. The typed API's `Results.filter` against
/// `porter export --query` (the exporter, from the Porter database and from the Realm file
/// written from it) on the same data.
@Suite struct QueryLanguageGapTests {
    static let dogQueries = [
        // Dictionary keys and values (and paths through them).
        "ANY ratings.@keys BEGINSWITH 'v'", "ALL ratings.@keys BEGINSWITH 'v'", "ratings.@values > 3",
        "owner.addressBook.@values.city == 'Bern'", "ALL owner.addressBook.@values.city == 'Bern'",
        // [FIRST], [LAST], [SIZE], [*] of typed collections.
        "favoriteToys[FIRST].name BEGINSWITH 'ball'", "favoriteToys[LAST].squeaky == true", "favoriteToys[SIZE] == 1",
        "favoriteToys[*].name CONTAINS 'Max'", "favoriteToys[first].name ENDSWITH 'x'", "tags[SIZE] >= 2",
        "tags[size] == 0", "tags[*] == 'cute'", "ALL tags[*] BEGINSWITH 'c'", "NONE tags[*] == 'old'",
        "ratings[*] > 3", "ratings[SIZE] == 2", "NONE ratings[*] == nil", "owner.dogs[FIRST].name == name",
        "owner.dogs[LAST].name == 'Fido'", "owner.dogs[SIZE] == 2",
        // Lists and dictionaries a mixed value holds (realm-core 14's nested collections).
        "extra.instruments[0].strings == 6", "extra.instruments[*].strings == 6",
        "extra.instruments[LAST].strings == 12", "extra.instruments[*].@keys == 'color'",
        "extra.instruments[*].brand BEGINSWITH 'gi'", "extra[*][0].legs == 2", "extra[*].legs == 0",
        "extra[*][*][*] > 10", "extra[*][*] > 5", "ANY extra[*] == 2", "NONE extra[*] == 2", "ALL extra[*] < 3",
        "extra.@keys == 'tickets'", "extra.@size == 3", "extra[SIZE] == 2", "extra.instruments.@size == 1",
        "extra[FIRST] == 1", "extra[LAST] == 3", "extra[0][2] == 6", "extra.pets[FIRST].name == 'pipper'",
        "extra['pets'][0]['legs'] == 2",
        "extra.@type == 'dictionary'", "extra.instruments.@type == 'list'",
        // @size of one value.
        "name.@size == 3", "owner.name.@size == 2", "breed[SIZE] == 6",
    ]

    /// realm-core's arithmetic: `* /` before `+ -`, parentheses, ints, doubles, null.
    static let arithmeticQueries = [
        "age * 2 > 60", "age + 5 == 35", "age - 5 * 2 == 20", "(age - 5) * 2 == 40", "age / 2 == 12",
        "age / 2.0 == 12.5", "age / 0 > 1000", "age + 1 == nil", "dogs.@count * 10 + age > 50",
        "ANY dogs.ratings.@values * 2 >= 10", "NONE dogs.ratings.@values * 2 > 4", "2 * 3 == 6",
        "age > 20 + 5", "age * 1.5 > 60.0", "-1 * age < -40", "age * 2 > dogs.@count", "((age)) - 1 >= 29",
        "age * 2 >= age + 30", "10 - age / 5 <= 4",
    ]

    static let dogArithmeticQueries = [
        "ratings['vet'] + ratings['groomer'] == 8", "owner.age * 2 > tags.@count * 20", "owner.age / 10 == 3",
        "ANY ratings.@values - 1 == 0", "ALL ratings.@values * 1.0 >= 2",
    ]

    /// realm-core's literal forms.
    static let literalQueries = [
        "dateOfBirth == T1577836800:0", "dateOfBirth == T1577836800:500000000", "dateOfBirth > T0:0",
        "dateOfBirth == 2020-01-01@00:00:00", "dateOfBirth == 2020-01-01T00:00:00:500000000",
        "dateOfBirth < 1970-01-01@00:00:00", "dateOfBirth == T-1:-500000000",
        "dateOfBirth == 1969-12-31@23:59:59:500000000", "dateOfBirth BETWEEN {T0:0, 2020-01-01@00:00:00}",
        "extra == B64\"aGk=\"", "owner.age / 0.0 == inf", "owner.age * -1.0 / 0 == -INF",
        "owner.age / 0.0 != +Infinity", "ratings.@avg != nan",
    ]

    static let personQueries = [
        "addressBook.@values.city == 'Oslo'", "ANY addressBook.@values.city == 'Bern'",
        "ALL addressBook.@values.city == 'Bern'", "NONE addressBook.@values.city == 'Bern'",
        "ANY dogs.ratings.@values > 4", "ANY dogs.ratings.@keys == 'walker'",
        "dogs[FIRST].name == 'Rex'", "dogs[LAST].name == 'Fido'", "dogs[1].name == 'Fido'", "dogs[SIZE] == 2",
        "dogs[*].name == 'rexy'", "dogs[FIRST].tags[SIZE] == 2", "dogs[FIRST].ratings['vet'] > 1",
        "dogs[LAST].extra.instruments[0].brand == 'fender'", "previousAddresses[FIRST].city == 'Rome'",
        "addressBook[*].city == 'Bern'", "addressBook[SIZE] == 2", "walkers[*].name == 'Rex'",
        "walkers[SIZE] == 2", "ANY dogs[*].tags[*] == 'loud'",
    ]

    /// ``QueryLanguageCompletionTests/files()``'s data with lists and dictionaries in the dogs'
    /// mixed values, and the Realm file Porter writes from it.
    static func files() throws -> (realm: Realm, realmFile: RealmFile, folder: TemporaryFolder) {
        let folder = try TemporaryFolder("query-gaps")
        let realm = try fileRealm(URL(fileURLWithPath: folder.path("q.porter")))
        try SharedQueryTests.seeded(realm)
        func dictionary(_ entries: [String: AnyRealmValue]) -> AnyRealmValue { .dictionary(Map(entries)) }
        func list(_ items: [AnyRealmValue]) -> AnyRealmValue { .list(List(items)) }
        try realm.write {
            for person in realm.objects(Person.self) where person.name == "Ada" || person.name == "Cy" {
                let home = Address()
                home.city = person.name == "Ada" ? "Oslo" : "Lima"
                person.addressBook["home"] = home
                let work = Address()
                work.city = "Bern"
                person.addressBook["office"] = work
            }
            for dog in realm.objects(Dog.self) {
                switch dog.name {
                case "Rex":
                    dog.extra = dictionary([
                        "instruments": list([
                            dictionary(["brand": .string("gibson"), "strings": .int(6), "electric": .bool(true)]),
                            dictionary(["brand": .string("martin"), "strings": .int(12), "electric": .bool(false)]),
                        ]),
                        "pets": list([dictionary(["name": .string("pipper"), "legs": .int(2)])]),
                        "tickets": list([]),
                    ])
                case "Fido":
                    dog.extra = dictionary([
                        "instruments": list([
                            dictionary([
                                "brand": .string("fender"), "strings": .int(6), "color": .string("red"),
                            ])
                        ])
                    ])
                case "rexy": dog.extra = list([.int(1), .int(2), .int(3)])
                case "Émile": dog.extra = .data(Data("hi".utf8))
                case "Max": dog.extra = list([list([.int(4), .int(5), .int(6)]), dictionary(["legs": .int(0)])])
                default: break
                }
                let births: [String: Double] = ["Rex": 1_577_836_800, "Fido": 1_577_836_800.5, "Max": -1.5]
                dog.dateOfBirth = Date(timeIntervalSince1970: births[dog.name] ?? 86_400)
            }
        }
        let path = folder.path("q.realm")
        try realm.database.read { try RealmFileOutput.write(realm.database, to: path) }
        return (realm, try RealmFile(path: path), folder)
    }

    /// The names (unique in the data) of the objects `porter export --query` writes, through the exporter.
    static func exported(_ exporter: Exporter, _ className: String, _ query: String, to path: String) throws
        -> Set<String>
    {
        exporter.selection = ExportSelection(className: className, query: query)
        try exporter.checkSelection()
        let output = try ByteOutput.creatingFile(at: path)
        _ = try exporter.export(className: className, to: output)
        try output.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            out.insert(try #require(object?["name"] as? String))
        }
        return out
    }

    /// The names of the objects the typed API's `filter` gives.
    static func typed(_ realm: Realm, _ className: String, _ query: String) throws -> Set<String> {
        if className == "Dog" { return Set(try realm.objects(Dog.self).filter(query).snapshot().map(\.name)) }
        return Set(try realm.objects(Person.self).filter(query).snapshot().map(\.name))
    }

    static let ejson = InterchangeFormats.output.first { $0.name == "ejson" }!

    @Test func theExporterSelectsWhatTheTypedAPIFilters() throws {
        let (realm, file, folder) = try Self.files()
        var nonEmpty = 0
        var notAll = 0
        for (className, queries) in [
            ("Dog", Self.dogQueries), ("Person", Self.personQueries), ("Person", Self.arithmeticQueries),
            ("Dog", Self.dogArithmeticQueries), ("Dog", Self.literalQueries),
        ] {
            let total = try realm.database.read { try realm.database.allKeys(className).count }
            for (i, query) in queries.enumerated() {
                let expected = try Self.typed(realm, className, query)
                if !expected.isEmpty { nonEmpty += 1 }
                if expected.count < total { notAll += 1 }
                let options = ExportOptions(classes: [className])
                let fromDatabase = try Self.exported(
                    Exporter(database: realm.database, format: Self.ejson, options: options), className, query,
                    to: folder.path("db-\(className)-\(i).json"))
                #expect(fromDatabase == expected, "database: \(className) \(query)")
                let fromFile = try Self.exported(
                    // The models' schema, as `--models` gives (a Realm file does not name linking objects).
                    Exporter(realmFile: file, schema: realm.database.schema, format: Self.ejson, options: options),
                    className, query,
                    to: folder.path("realm-\(className)-\(i).json"))
                #expect(fromFile == expected, "Realm file: \(className) \(query)")
            }
        }
        // Most queries select some objects but not all (comparing empty or full sets proves little).
        let count =
            Self.dogQueries.count + Self.personQueries.count + Self.arithmeticQueries.count
            + Self.dogArithmeticQueries.count + Self.literalQueries.count
        #expect(nonEmpty > count * 3 / 4)
        #expect(notAll > count * 3 / 4)
    }

    @Test func knownAnswers() throws {
        let (realm, _, folder) = try Self.files()
        _ = folder
        func dogs(_ query: String) throws -> [String] {
            try realm.objects(Dog.self).filter(query).snapshot().map(\.name).sorted()
        }
        func people(_ query: String) throws -> [String] {
            try realm.objects(Person.self).filter(query).snapshot().map(\.name).sorted()
        }
        #expect(try people("addressBook.@values.city == 'Oslo'") == ["Ada"])
        #expect(try people("ALL addressBook.@values.city == 'Bern'") == ["Bob", "Dée"], "ALL of none holds")
        #expect(try dogs("extra.instruments[*].strings == 6") == ["Fido", "Rex"])
        #expect(try dogs("extra.instruments[LAST].strings == 12") == ["Rex"])
        #expect(try dogs("extra.instruments[*].@keys == 'color'") == ["Fido"])
        #expect(try dogs("extra[*][*][*] > 10") == ["Rex"])
        #expect(try dogs("extra[*].legs == 0") == ["Max"])
        #expect(try dogs("NONE extra[*] == 2") == ["Fido", "Max", "Rex", "Émile"])
        #expect(try dogs("extra[LAST] == 3") == ["rexy"])
        #expect(try dogs("favoriteToys[SIZE] == 1") == ["Fido", "rexy", "Émile"])
        #expect(try dogs("tags[*] == 'old'") == ["Max"])
        #expect(try people("dogs[LAST].name == 'Fido'") == ["Ada"])
        #expect(try people("dogs[SIZE] == 2") == ["Ada", "Dée"])
        #expect(try dogs("name.@size == 3") == ["Max", "Rex"])
        #expect(try people("age - 5 * 2 == 20") == ["Ada"])
        #expect(try people("(age - 5) * 2 == 40") == ["Cy"])
        #expect(try people("age / 2 == 12") == ["Cy"], "int division truncates")
        #expect(try people("age / 0 > 1000") == ["Ada", "Cy", "Dée"], "an int divided by 0 is the largest int")
        #expect(try people("age + 1 == nil") == ["Bob"])
        #expect(try people("dogs.@count * 10 + age > 50") == ["Dée"])
        #expect(try dogs("ratings['vet'] + ratings['groomer'] == 8") == ["Rex"])
        #expect(try dogs("dateOfBirth == 2020-01-01@00:00:00:500000000") == ["Fido"])
        #expect(try dogs("dateOfBirth == T-1:-500000000") == ["Max"])
        #expect(try dogs("dateOfBirth == 1969-12-31@23:59:59:500000000") == ["Max"], "realm-core's sign rule")
        #expect(try dogs("extra == B64\"aGk=\"") == ["Émile"])
        let ada = try #require(realm.objects(Person.self).filter("name == 'Ada'").first)
        #expect(try people("_id == uuid(\(ada._id.uuidString))") == ["Ada"])
        #expect(try people("age / 0.0 == inf") == ["Ada", "Cy", "Dée"])
    }

    /// What stays refused, with the same message from `--query` (the shared evaluator) and from
    /// the typed API's `filter` (the error that keeps the results from running).
    @Test(
        arguments: [
            ("owner.age.@size > 1", "'owner.age.@count' at 1: @count and @size need a collection, a string or data"),
            ("owner.age[SIZE] > 1", "'owner.age.@count' at 1: @count and @size need a collection, a string or data"),
            ("tags[FIRST] == 'cute'", "'tags[FIRST]' at 1: Dog.tags is not a list, so it has no [FIRST]"),
            ("ratings[LAST] > 1", "'ratings[LAST]' at 1: Dog.ratings is not a list, so it has no [LAST]"),
            ("name[*] == 'a'", "'name[*]' at 1: Dog.name is not a list, set or dictionary, so it has no [*]"),
            (
                "tags[*][0] == 'a'",
                "'tags[*][0]' at 1: the elements of Dog.tags are not lists or dictionaries, so they have no [0]"
            ),
            (
                "ratings['a']['b'] == 1",
                "'ratings['a']['b']' at 1: the elements of Dog.ratings are not lists or dictionaries, so they have no ['b']"
            ),
            ("tags.@values.x == 'a'", "'tags.@values.x' at 1: Dog.tags is not a dictionary, so it has no @values"),
            (
                "ratings.@values.x == 1",
                "'ratings.@values.x' at 1: Dog.ratings is not a link, so the path cannot go on to 'x'"
            ),
            ("name * 2 > 1", "'name' at 1: cannot perform '*' on Dog.name, a string"),
            ("owner.age + owner.name > 1", "'owner.name' at 13: cannot perform '+' on Person.name, a string"),
            ("owner.age * 'a' > 1", "cannot perform '*' on a string value"),
            ("owner.agee * 2 > 1", "unknown property 'Person.agee' at 1"),
        ])
    func refusedAlike(_ query: String, _ message: String) throws {
        let realm = try memoryRealm()
        let error = expectPorterError(.usage) {
            _ = try QueryMatcher(parsing: query, className: "Dog", schema: realm.database.schema)
        }
        #expect(error?.message == message)
        let typed = expectPorterError(nil) { _ = try realm.objects(Dog.self).filter(query).snapshot() }
        #expect(typed?.message.contains(message) == true, "\(query): \(typed?.message ?? "")")
    }

    @Test(
        arguments: [
            ("ratings.@keys.x == 'a'", "'@keys' ends a key path at 15 near 'x == 'a''"),
            ("tags[FIRST == 'a'", "expected ']' at 12 near '== 'a''"),
            ("tags[SIZE.x] == 1", "expected ']' at 10 near '.x] == 1'"),
            (
                "tags[-1] == 'a'",
                "a subscript is a quoted key, an index (0 or more), FIRST, LAST, SIZE or * at 8 near '] == 'a''"
            ),
            ("tags[SIZE][0] == 1", "a subscript follows a property name at 11 near '[0] == 1'"),
            (
                "age > 3 SORT(name ASC)",
                "SORT(…) in the query is not supported (use --sort and --limit, or sorted(byKeyPath:) and distinct(by:)) at 9 near 'SORT(name AS'"
            ),
            (
                "age > 3 LIMIT(5)",
                "LIMIT(…) in the query is not supported (use --sort and --limit, or sorted(byKeyPath:) and distinct(by:)) at 9 near 'LIMIT(5)'"
            ),
            (
                "age > 3 distinct(name)",
                "DISTINCT(…) in the query is not supported (use --sort and --limit, or sorted(byKeyPath:) and distinct(by:)) at 9 near 'distinct(nam'"
            ),
            ("name TEXT 'a'", "TEXT (full-text search) is not supported at 6 near 'TEXT 'a''"),
            (
                "home GEOWITHIN geoBox([0, 0], [1, 1])",
                "GEOWITHIN in a query string is not supported (the typed API's geoWithin is) at 6 near 'GEOWITHIN ge'"
            ),
            ("age > $0", "$0 arguments are not supported (use %@) at 7 near '$0'"),
            (
                "owner == obj('Person', 1)",
                "links as obj(…) or O<key> are not supported (compare a key path: owner.name == 'Ada') at 10 near 'obj('Person''"
            ),
            (
                "owner == O12",
                "links as obj(…) or O<key> are not supported (compare a key path: owner.name == 'Ada') at 10 near 'O12'"
            ),
            ("_id == uuid(123)", "expected uuid(8-4-4-4-12 hexadecimal digits) at 8 near 'uuid(123)'"),
            (
                "d == T1:-5",
                "expected T<seconds>:<nanoseconds> (nanoseconds of the seconds' sign, under 10^9) at 6 near 'T1:-5'"
            ),
            (
                "d == 2020-13-01@00:00:00",
                "expected a valid date and time (YYYY-MM-DD@HH:MM:SS, UTC) at 6 near '2020-13-01@0'"
            ),
            ("d == 2020-01-01@00:00", "expected YYYY-MM-DD@HH:MM:SS[:nanoseconds] at 6 near '2020-01-01@0'"),
            ("d == B64\"@@\"", "expected B64\"base64 text\" at 6 near 'B64\"@@\"'"),
            (
                "age * 2 BEGINSWITH 'a'",
                "arithmetic compares with ==, !=, <, <=, >, >= at 9 near 'BEGINSWITH ''"
            ),
            ("age * 2 >[c] 1", "arithmetic compares with ==, !=, <, <=, >, >= at 9 near '>[c] 1'"),
            ("age + > 1", "expected a value (a number, a quoted string, true, false, nil or %@) at 7 near '> 1'"),
            ("(age + 1 > 2", "expected ')' at 13 at the end"),
            (
                "(age + 1) * 2",
                "expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN, BETWEEN) at 14 at the end"
            ),
        ])
    func syntaxErrorsNameThePosition(_ query: String, _ message: String) throws {
        let error = expectPorterError(.parseError) { _ = try QueryParser.parseQuery(query) }
        #expect(error?.message == message)
    }
}
