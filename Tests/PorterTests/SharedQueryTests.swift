import Foundation
import PorterTestSupport
import Testing

@testable import Porter

/// The shared Realm Query Language evaluator (`PorterQuery`, what `porter export --query` runs)
/// against the typed API's `Results.filter` on the same data: every operator, on a Porter database
/// and on the Realm file Porter writes from it, giving the same objects (compared by primary key).
@Suite struct SharedQueryTests {
    /// People (ages 30, nil, 25, 41) with dogs, toys, tags, ratings, mixed values and addresses.
    static func seeded(_ realm: Realm) throws {
        try realm.write {
            var people: [Person] = []
            for (name, age, city) in [("Ada", 30, "Oslo"), ("Bob", nil, "Lima"), ("Cy", 25, nil), ("Dée", 41, "Oslo")]
                as [(String, Int?, String?)]
            {
                let person = Person()
                person.name = name
                person.age = age
                if let city {
                    let address = Address()
                    address.city = city
                    address.street = "\(name) street"
                    if city == "Oslo" {
                        let country = Country()
                        country.code = "NO"
                        country.name = "Norway"
                        address.country = country
                    }
                    person.address = address
                }
                let old = Address()
                old.city = name == "Ada" ? "Rome" : "Paris"
                person.previousAddresses.append(old)
                realm.add(person)
                people.append(person)
            }
            let dogs: [(String, String?, Int?, [String], [String: Int?], AnyRealmValue)] = [
                ("Rex", "Beagle", 0, ["cute", "calm"], ["vet": 5, "groomer": 3], .int(5)),
                ("Fido", nil, 0, ["loud"], ["vet": 1], .string("five")),
                ("rexy", "Pug", 3, ["cute"], [:], .double(5.0)),
                ("Émile", "Poodle", 3, [], ["vet": nil, "walker": 4], .none),
                ("Max", "Beagle", nil, ["calm", "cute", "old"], ["vet": 2], .bool(true)),
            ]
            for (name, breed, owner, tags, ratings, extra) in dogs {
                let dog = Dog()
                dog.name = name
                dog.breed = breed
                dog.extra = extra
                dog.owner = owner.map { people[$0] }
                for tag in tags { dog.tags.insert(tag) }
                for (key, value) in ratings { dog.ratings[key] = value }
                if name.count > 3 {
                    let toy = DogToy()
                    toy.name = "ball of \(name)"
                    dog.favoriteToys.append(toy)
                }
                if let owner { people[owner].dogs.append(dog) }
                realm.add(dog)
            }
        }
    }

    static let dogQueries = [
        "name == 'Rex'", "name = \"Rex\"", "name != 'Rex'", "name <> 'Rex'", "breed == nil", "breed != NULL",
        "name > 'M'", "name >= 'Max'", "name < 'Max'", "name <= 'Max'",
        "name BEGINSWITH 'R'", "name BEGINSWITH[c] 'r'", "name ENDSWITH 'x'", "name ENDSWITH[c] 'X'",
        "name CONTAINS 'e'", "name CONTAINS[c] 'E'", "name BEGINSWITH[d] 'E'", "name BEGINSWITH[cd] 'e'",
        "name ==[c] 'rex'", "name !=[c] 'REX'",
        "name LIKE 'R?x'", "name LIKE[c] '*e*'", "name LIKE 'M*'",
        "name IN {'Rex', 'Fido', 'Zed'}", "breed IN {nil, 'Pug'}", "'cute' IN tags",
        "owner.age > 30", "owner.age >= 30", "owner.age BETWEEN {25, 35}", "owner.name == 'Ada'", "owner == nil",
        "owner != nil", "owner.address.city == 'Oslo'", "owner.address.country.code == 'NO'",
        "ANY tags == 'cute'", "SOME tags == 'calm'", "ALL tags BEGINSWITH 'c'", "NONE tags == 'loud'",
        "tags.@count >= 2", "tags.@count == 0", "tags.@size == 1",
        "ratings.@count > 1", "ratings.@sum > 5", "ratings.@avg >= 3", "ratings.@min == 1", "ratings.@max < 5",
        "ANY ratings > 3", "ALL ratings > 1", "NONE ratings == nil",
        "favoriteToys.@count > 0", "ANY favoriteToys.name CONTAINS 'Max'", "favoriteToys.squeaky == true",
        "extra == 5", "extra == 'five'", "extra == nil", "extra > 4", "extra == true",
        "NOT (name == 'Rex')", "!(owner.age > 30)", "name == 'Rex' AND owner.age > 25",
        "name == 'Rex' OR name == 'Fido' && breed != nil", "(name == 'Rex' OR name == 'Fido') && breed != nil",
        "TRUEPREDICATE", "FALSEPREDICATE", "name BEGINSWITH ''",
    ]

    static let personQueries = [
        "age >= 30", "age < 30", "age == nil", "age != nil", "age == 30.0", "age BETWEEN {25, 30}",
        "dogs.@count >= 2", "dogs.@count == 0", "ANY dogs.name == 'Rex'", "dogs.name == 'Rex'",
        "ALL dogs.name BEGINSWITH 'R'", "NONE dogs.breed == nil", "ANY dogs.tags == 'old'",
        "address.city == 'Oslo'", "address == nil", "address.country.name == 'Norway'",
        "previousAddresses.@count == 1", "ANY previousAddresses.city == 'Rome'", "name CONTAINS[d] 'e'",
    ]

    /// Queries through linking objects (a Realm file does not name them; its backlink columns answer).
    static let linkingObjectQueries = [
        "walkers.@count > 0", "ANY walkers.name == 'Rex'", "walkers.@count == 0", "walkers.@count == 2",
        "ALL walkers.tags.@count >= 1", "NONE walkers.breed == nil", "ANY walkers.owner.name == 'Ada'",
        "walkers.owner.age > 30", "ANY walkers.favoriteToys.name BEGINSWITH 'ball'",
    ]

    /// A file realm with the seeded data, and the Realm file Porter writes from it.
    static func files() throws -> (realm: Realm, realmFile: RealmFile, folder: TemporaryFolder) {
        let tmp = try TemporaryFolder("shared-query")
        let dir = tmp.url
        let realm = try fileRealm(dir.appendingPathComponent("q.porter"))
        try seeded(realm)
        let path = dir.appendingPathComponent("q.realm").path
        try realm.database.read { try RealmFileOutput.write(realm.database, to: path) }
        return (realm, try RealmFile(path: path), tmp)
    }

    /// The primary keys the typed API gives for `query`.
    static func expected(_ realm: Realm, _ className: String, _ query: String) throws -> Set<Value> {
        let keys: [ObjectKey]
        switch className {
        case "Dog": keys = try realm.objects(Dog.self).filter(query).evaluateKeys()
        default: keys = try realm.objects(Person.self).filter(query).evaluateKeys()
        }
        return Set(try keys.map { try realm.database.value(className, $0, "_id") })
    }

    /// The primary keys the shared evaluator gives over the Porter database.
    static func fromDatabase(_ realm: Realm, _ className: String, _ query: String) throws -> Set<Value> {
        let database = realm.database
        let matcher = try QueryMatcher(parsing: query, className: className, schema: database.schema)
        let reader = DatabaseQueryReader(database: database)
        var out = Set<Value>()
        try database.read {
            for key in try database.allKeys(className) where try matcher.matches(key, reader: reader) {
                out.insert(try database.value(className, key, "_id"))
            }
        }
        return out
    }

    /// The primary keys the shared evaluator gives over the Realm file.
    static func fromRealmFile(_ file: RealmFile, schema: Schema, _ className: String, _ query: String) throws
        -> Set<Value>
    {
        let matcher = try QueryMatcher(parsing: query, className: className, schema: schema)
        let reader = RealmFileQueryReader(file: file)
        let table = try #require(file.table(named: className))
        var out = Set<Value>()
        try file.forEachObject(in: table) { object in
            guard try matcher.matches(ObjectKey(object.key), reader: reader) else { return }
            let pk = try #require(try file.primaryKeyValue(in: table, key: object.key))
            out.insert(try RealmValues.scalar(pk, location: file.path))
        }
        return out
    }

    @Test func everyOperatorMatchesTheTypedAPIOnADatabaseAndARealmFile() throws {
        let (realm, file, folder) = try Self.files()
        defer { withExtendedLifetime(folder) {} }
        let schema = realm.database.schema
        var nonEmpty = 0
        for (className, queries) in [("Dog", Self.dogQueries), ("Person", Self.personQueries)] {
            for query in queries {
                let expected = try Self.expected(realm, className, query)
                if !expected.isEmpty { nonEmpty += 1 }
                #expect(try Self.fromDatabase(realm, className, query) == expected, "database: \(className) \(query)")
                #expect(
                    try Self.fromRealmFile(file, schema: schema, className, query) == expected,
                    "Realm file: \(className) \(query)")
            }
        }
        for query in Self.linkingObjectQueries {
            let expected = try Self.expected(realm, "Person", query)
            #expect(try Self.fromDatabase(realm, "Person", query) == expected, "database: Person \(query)")
            #expect(
                try Self.fromRealmFile(file, schema: schema, "Person", query) == expected, "Realm file: Person \(query)"
            )
        }
        // The data makes most queries select something (a comparison of empty sets proves little).
        #expect(nonEmpty > (Self.dogQueries.count + Self.personQueries.count) * 2 / 3)
    }

    @Test func knownAnswers() throws {
        let (realm, file, folder) = try Self.files()
        defer { withExtendedLifetime(folder) {} }
        func names(_ query: String) throws -> [String] {
            try realm.objects(Dog.self).filter(query).evaluateKeys().map {
                guard case .string(let name) = try realm.database.value("Dog", $0, "name") else { return "?" }
                return name
            }.sorted()
        }
        #expect(try names("owner.age BETWEEN {25, 35}") == ["Fido", "Rex"])
        #expect(try names("name BEGINSWITH[cd] 'e'") == ["Émile"])
        #expect(try names("ratings.@sum > 5") == ["Rex"])
        #expect(try names("ALL tags BEGINSWITH 'c'") == ["Rex", "rexy", "Émile"], "ALL of no tags holds")
        #expect(try Self.fromRealmFile(file, schema: realm.database.schema, "Dog", "'old' IN tags").count == 1)
    }

    @Test(
        arguments: [
            ("agee > 3", "unknown property 'Dog.agee' at 1"),
            ("name == 'a' AND owner.agee > 3", "unknown property 'Person.agee' at 17"),
            ("name.first == 'a'", "'name.first' at 1: Dog.name is not a link, so the path cannot go on to 'first'"),
        ])
    func unknownPropertiesNameThePosition(_ query: String, _ message: String) throws {
        let realm = try memoryRealm()
        let error = expectPorterError(.usage) {
            _ = try QueryMatcher(parsing: query, className: "Dog", schema: realm.database.schema)
        }
        #expect(error?.message == message)
    }

    @Test(
        arguments: [
            ("age >> 3", "expected a value (a number, a quoted string, true, false, nil or %@) at 6 near '> 3'"),
            ("age > 3 AND", "expected a property name at 12 at the end"),
            ("(age > 3", "expected ')' at 9 at the end"),
            ("name == 'abc", "unterminated string at 13 at the end"),
            ("name BEGINSWITH[x] 'a'", "expected c or d in the comparison options at 17 near 'x] 'a''"),
        ])
    func syntaxErrorsNameThePosition(_ query: String, _ message: String) throws {
        let error = expectPorterError(.parseError) { _ = try QueryParser.parseQuery(query) }
        #expect(error?.message == message)
    }

    @Test func sortKeysParseWithSignsAndPositions() throws {
        let keys = try QuerySortKey.parse("name, -age,+owner.name")
        #expect(keys.map(\.path.description) == ["name", "age", "owner.name"])
        #expect(keys.map(\.ascending) == [true, false, true])
        #expect(keys.map(\.path.position) == [1, 8, 13])
        for (text, at) in [("name,,age", 6), ("-", 2), ("name,owner..x", 6)] {
            let error = expectPorterError(.usage) { _ = try QuerySortKey.parse(text) }
            #expect(error?.message == "expected a property name (name, -age, owner.name) at \(at)", "\(text)")
        }
    }
}
