import Foundation
import PorterTestSupport
import Testing

@testable import Porter

/// realm-core's query language beyond NSPredicate's: `SUBQUERY(…).@count`, `@links`, `@type`,
/// dictionary `@keys`/`@values` and subscripts, `@size` of strings. The typed API's
/// `Results.filter` against the shared evaluator `porter export --query` runs, on a Porter
/// database and on the Realm file Porter writes from it (see ``SharedQueryTests``).
@Suite struct QueryLanguageCompletionTests {
    static let dogQueries = [
        // SUBQUERY over links, primitive sets and dictionaries, every comparison.
        "SUBQUERY(favoriteToys, $t, $t.name CONTAINS 'Max').@count > 0",
        "SUBQUERY(favoriteToys, $t, $t.squeaky == true).@count == 1",
        "SUBQUERY(tags, $t, $t BEGINSWITH 'c').@count == 2", "SUBQUERY(tags, $t, $t BEGINSWITH 'c').@count != 2",
        "SUBQUERY(tags, $t, $t == 'cute' OR $t == 'old').@size >= 1",
        "SUBQUERY(tags, $tag, NOT ($tag == 'cute')).@count < 1", "SUBQUERY(ratings, $r, $r > 2).@count == 1",
        "SUBQUERY(ratings, $r, $r == nil).@count <= 0", "subquery(tags, $t, TRUEPREDICATE).@COUNT == 3",
        // @type of mixed values (and of typed ones), IN a list of type names.
        "extra.@type == 'int'", "extra.@type == 'numeric'", "extra.@type IN {'string', 'bool'}",
        "extra.@type == 'null'", "extra.@type != 'double'", "extra.@type == 'Integer'", "name.@type == 'string'",
        "extra.@type IN {'objectId', 'binary', 'link', 'list', 'dictionary', 'uuid', 'date', 'decimal128'}",
        "ANY ratings.@type == 'null'", "ALL ratings.@type == 'int'",
        // Dictionary keys, values and subscripts, with ANY/ALL/NONE.
        "ratings.@keys == 'vet'", "ANY ratings.@keys BEGINSWITH 'g'", "ALL ratings.@keys == 'vet'",
        "NONE ratings.@keys == 'walker'", "ANY ratings.@values > 3", "ALL ratings.@values >= 2",
        "ratings.@values == nil", "ratings['vet'] == 5", "ratings['vet'] == nil", "ratings[\"walker\"] > 3",
        "ratings['missing'] == nil", "ratings['vet'] BETWEEN {1, 2}", "ratings['vet'] IN {1, 5}",
        // Backlinks of every origin, and of one.
        "@links.@count > 0", "@links.@count == 0", "@links.Person.dogs.@count == 1",
        "ANY @links.Person.dogs.name == 'Ada'", "@links.Person.dogs.age > 30", "NONE @links.Person.dogs.age > 30",
        // @size of a string.
        "name.@size == 3", "name.@count > 3", "breed.@size == 6", "owner.name.@size == 2",
        // Two key paths compared, and values on the left.
        "extra == ratings['vet']", "ratings['vet'] >= ratings['groomer']", "tags.@count < ratings.@count",
        "name ==[c] owner.name", "ANY tags == name", "30 <= owner.age", "'Rex' == name", "2 > tags.@count",
        "'cute' != extra",
        // With the rest of the language.
        "SUBQUERY(tags, $t, $t == 'cute').@count > 0 AND extra.@type == 'int'",
        "NOT (ratings['vet'] > 1) OR @links.@count == 0",
    ]

    static let personQueries = [
        "SUBQUERY(dogs, $d, $d.tags.@count >= 2 AND $d.name BEGINSWITH 'R').@count == 1",
        "SUBQUERY(dogs, $d, SUBQUERY($d.tags, $t, $t == 'cute').@count > 0).@count >= 1",
        "SUBQUERY(walkers, $w, $w.breed == 'Beagle').@count > 0",
        "SUBQUERY(walkers, $w, $w.ratings['vet'] >= 1).@count == 2",
        "SUBQUERY(previousAddresses, $a, $a.city == 'Rome').@count == 1",
        "SUBQUERY(addressBook, $a, $a.city == 'Oslo').@count == 1",
        "@links.@count == 0", "@links.@count >= 2", "@links.Dog.owner.@count > 1",
        "ANY @links.Dog.owner.name BEGINSWITH 'R'", "ALL @links.Dog.owner.tags.@count > 0",
        "addressBook['home'].city == 'Oslo'", "addressBook['work'] == nil", "addressBook.@keys == 'home'",
        "addressBook.@count == 2",
        "age > dogs.@count", "name == walkers.owner.name", "ALL dogs.name != name", "ANY dogs.owner.age < age",
        "ANY dogs.ratings['vet'] > 4", "ALL dogs.extra.@type == 'numeric'", "dogs.name.@size > 3",
    ]

    /// A file realm with ``SharedQueryTests/seeded(_:)`` and address books, and the Realm file
    /// Porter writes from it.
    static func files() throws -> (realm: Realm, realmFile: RealmFile, folder: TemporaryFolder) {
        let folder = try TemporaryFolder("query-completion")
        let realm = try fileRealm(URL(fileURLWithPath: folder.path("q.porter")))
        try SharedQueryTests.seeded(realm)
        try realm.write {
            for person in realm.objects(Person.self) where person.name == "Ada" || person.name == "Cy" {
                let home = Address()
                home.city = person.name == "Ada" ? "Oslo" : "Lima"
                person.addressBook["home"] = home
                let work = Address()
                work.city = "Bern"
                person.addressBook["office"] = work
            }
        }
        let path = folder.path("q.realm")
        try realm.database.read { try RealmFileOutput.write(realm.database, to: path) }
        return (realm, try RealmFile(path: path), folder)
    }

    @Test func everyNewOperatorMatchesTheTypedAPIOnADatabaseAndARealmFile() throws {
        let (realm, file, folder) = try Self.files()
        _ = folder
        let schema = realm.database.schema
        var nonEmpty = 0
        var notAll = 0
        for (className, queries) in [("Dog", Self.dogQueries), ("Person", Self.personQueries)] {
            let total = try realm.database.read { try realm.database.allKeys(className).count }
            for query in queries {
                let expected = try SharedQueryTests.expected(realm, className, query)
                if !expected.isEmpty { nonEmpty += 1 }
                if expected.count < total { notAll += 1 }
                #expect(
                    try SharedQueryTests.fromDatabase(realm, className, query) == expected,
                    "database: \(className) \(query)")
                #expect(
                    try SharedQueryTests.fromRealmFile(file, schema: schema, className, query) == expected,
                    "Realm file: \(className) \(query)")
            }
        }
        // Most queries select some objects but not all (comparing empty or full sets proves little).
        let count = Self.dogQueries.count + Self.personQueries.count
        #expect(nonEmpty > count * 3 / 4)
        #expect(notAll > count * 3 / 4)
    }

    @Test func knownAnswers() throws {
        let (realm, _, folder) = try Self.files()
        _ = folder
        func dogs(_ query: String) throws -> [String] {
            try realm.objects(Dog.self).filter(query).map(\.name).sorted()
        }
        func people(_ query: String) throws -> [String] {
            try realm.objects(Person.self).filter(query).map(\.name).sorted()
        }
        #expect(try dogs("SUBQUERY(tags, $t, $t BEGINSWITH 'c').@count == 2") == ["Max", "Rex"])
        #expect(try dogs("extra.@type == 'numeric'") == ["Rex", "rexy"])
        #expect(try dogs("extra.@type == 'null'") == ["Émile"])
        #expect(try dogs("extra.@type IN {'string', 'bool'}") == ["Fido", "Max"])
        #expect(try dogs("ratings['vet'] == nil") == ["rexy", "Émile"], "absent and null alike")
        #expect(try dogs("ANY ratings.@keys BEGINSWITH 'g'") == ["Rex"])
        #expect(try dogs("@links.Person.dogs.age > 30") == ["rexy", "Émile"])
        #expect(try dogs("@links.@count == 0") == ["Max"])
        #expect(try dogs("name.@size == 3") == ["Max", "Rex"])
        #expect(try dogs("tags.@count < ratings.@count") == ["Émile"])
        #expect(try dogs("30 <= owner.age") == ["Fido", "Rex", "rexy", "Émile"])
        #expect(try people("name == walkers.owner.name") == ["Ada", "Dée"])
        #expect(try people("@links.Dog.owner.@count > 1") == ["Ada", "Dée"])
        #expect(try people("addressBook['home'].city == 'Oslo'") == ["Ada"])
        #expect(try people("SUBQUERY(addressBook, $a, $a.city == 'Bern').@count == 1") == ["Ada", "Cy"])
    }

    @Test func theTypedAPIAnswersOnARealmFileAsOnADatabase() throws {
        let (realm, _, folder) = try Self.files()
        let path = folder.path("q.realm")
        let opened = try Realm(
            configuration: Realm.Configuration(
                fileURL: URL(fileURLWithPath: path), readOnly: true,
                schemaVersion: realm.database.schema.version, objectTypes: fixtureTypes))
        for query in Self.dogQueries {
            let expected = Set(realm.objects(Dog.self).filter(query).map(\._id))
            #expect(Set(opened.objects(Dog.self).filter(query).map(\._id)) == expected, "\(query)")
        }
        for query in Self.personQueries {
            let expected = Set(realm.objects(Person.self).filter(query).map(\._id))
            #expect(Set(opened.objects(Person.self).filter(query).map(\._id)) == expected, "\(query)")
        }
    }

    @Test(
        arguments: [
            (
                "SUBQUERY(dogs, d, d.age > 1).@count > 0",
                "expected the SUBQUERY's variable ($x) at 16 near 'd, d.age > 1'"
            ),
            (
                "SUBQUERY(dogs, $d, age > 1).@count > 0",
                "a key path inside SUBQUERY starts with its variable $d at 20 near 'age > 1).@co'"
            ),
            (
                "SUBQUERY(dogs, $d, $e.age > 1).@count > 0",
                "unknown variable '$e' (this SUBQUERY's is $d) at 20 near '$e.age > 1).'"
            ),
            ("SUBQUERY(dogs, $d, $d.age > 1) > 0", "expected .@count after SUBQUERY(…) at 32 near '> 0'"),
            (
                "SUBQUERY(dogs, $d, $d.age > 1).@count BEGINSWITH 1",
                "SUBQUERY(…).@count compares with ==, !=, <, <=, > or >= at 39 near 'BEGINSWITH 1'"
            ),
            ("SUBQUERY(dogs $d", "expected ',' after the SUBQUERY's collection at 15 near '$d'"),
            ("SUBQUERY(dogs, $d $d.age > 1)", "expected ',' after the SUBQUERY's variable at 19 near '$d.age > 1)'"),
            ("SUBQUERY(dogs, $d, $d.age > 1", "expected ')' closing SUBQUERY at 30 at the end"),
            (
                "$d.age > 1",
                "unexpected '$d': a variable ($x) starts a key path inside SUBQUERY only at 1 near '$d.age > 1'"
            ),
            ("name.@type.size == 1", "'@type' ends a key path at 12 near 'size == 1'"),
            ("@type == 'int'", "'@type' needs a property before it at 1 near '@type == 'in'"),
            ("tags[ > 1", "expected a value (a number, a quoted string, true, false, nil or %@) at 7 near '> 1'"),
            ("ratings['a' == 1", "expected ']' at 13 near '== 1'"),
            (
                "ratings[-1] == 1",
                "a subscript is a quoted key, an index (0 or more), FIRST, LAST, SIZE or * at 11 near '] == 1'"
            ),
            (
                "name.@foo == 1",
                "unknown or repeated collection operator '@foo' (use @count, @size, @min, @max, @sum, @avg, @type, @keys, @values or @links) at 6 near '@foo == 1'"
            ),
            ("name. == 1", "expected a property name after '.' at 6 near ' == 1'"),
            (
                "3 BEGINSWITH name",
                "a value on the left compares with ==, !=, <, <=, >, >= or IN at 3 near 'BEGINSWITH n'"
            ),
            ("3 = ", "expected a property name at 5 at the end"),
        ])
    func syntaxErrorsNameThePosition(_ query: String, _ message: String) throws {
        let error = expectPorterError(.parseError) { _ = try QueryParser.parseQuery(query) }
        #expect(error?.message == message)
    }

    @Test(
        arguments: [
            ("name.@type > 'int'", "'name.@type' at 1: @type compares with ==, != or IN"),
            ("name.@type BETWEEN {1, 2}", "'name.@type' at 1: @type compares with ==, != or IN"),
            (
                "extra.@type == 'strng'",
                "'extra.@type' at 1: 'strng' is not a type name (array, binary, bindata, bool, boolean, byte, byte[], bytearray, char, data, date, datetimeoffset, decimal, decimal128, dictionary, double, float, guid, int, int16, int32, int64, integer, link, list, long, null, numeric, object, objectid, short, string, timestamp, uuid)"
            ),
            (
                "extra.@type IN {'int', 3}",
                "'extra.@type' at 1: a int is not a type name (array, binary, bindata, bool, boolean, byte, byte[], bytearray, char, data, date, datetimeoffset, decimal, decimal128, dictionary, double, float, guid, int, int16, int32, int64, integer, link, list, long, null, numeric, object, objectid, short, string, timestamp, uuid)"
            ),
            ("name.@keys == 'a'", "'name.@keys' at 1: @keys needs a dictionary"),
            ("tags.@values == 'a'", "'tags.@values' at 1: @values needs a dictionary"),
            ("name['a'] == 1", "'name['a']' at 1: Dog.name is not a dictionary, so it has no ['a']"),
            ("ratings[0] == 1", "'ratings[0]' at 1: Dog.ratings is not a list, so it has no [0]"),
            (
                "@links.Person.name.@count > 0",
                "'@links.Person.name.@count' at 1: Person.name is not a property linking to Dog"
            ),
            ("@links.Nope.x.@count > 0", "'@links.Nope.x.@count' at 1: @links names no class 'Nope'"),
            ("@links == nil", "'@links' at 1: @links is followed by .@count or .Class.property"),
            ("@links.Person > 0", "'@links.Person' at 1: @links is followed by .@count or .Class.property"),
            (
                "SUBQUERY(name, $n, $n == 'a').@count > 0",
                "'name' at 10: SUBQUERY needs a list, set, dictionary or linking objects"
            ),
            (
                "SUBQUERY(tags, $t, $t.x == 'a').@count > 0",
                "'x' at 20: the SUBQUERY's elements are values, without properties"
            ),
            ("SUBQUERY(favoriteToys, $t, $t.nme == 'a').@count > 0", "unknown property 'DogToy.nme' at 28"),
            ("extra.@type == name", "'extra.@type' at 1: @type compares with a type name"),
            ("name == nme", "unknown property 'Dog.nme' at 9"),
            ("owner.age.@size > 1", "'owner.age.@count' at 1: @count and @size need a collection, a string or data"),
        ])
    func unsupportedUsesNameThePosition(_ query: String, _ message: String) throws {
        let realm = try memoryRealm()
        let error = expectPorterError(.usage) {
            _ = try QueryMatcher(parsing: query, className: "Dog", schema: realm.database.schema)
        }
        #expect(error?.message == message)
        // The typed API reports the same problem (as the error that keeps the results from running).
        let typed = expectPorterError(nil) { _ = try realm.objects(Dog.self).filter(query).snapshot() }
        #expect(typed?.message.contains(message) == true, "\(query): \(typed?.message ?? "")")
    }
}
