import Foundation
import Porter
@testable import PorterStore
import Testing
import PorterTestSupport

/// `Database.checkConsistency()` and `porter check`: silent on sound files, one line per problem
/// on damaged ones. The damage is done with raw SQL, as a bug or a foreign tool would do it.
@Suite struct ConsistencyTests {
    static let schema = #"""
        {"schemaVersion": 1, "classes": [
          {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "name": "string", "friend": "Person?",
            "pets": "Pet[]", "home": "Address?", "tags": "string<>", "extra": "mixed"}},
          {"name": "Pet", "properties": {"name": "string", "owners": {"type": "linkingObjects", "objectType": "Person", "property": "pets"}}},
          {"name": "Address", "embedded": true, "properties": {"city": "string"}}
        ]}
        """#

    /// A small sound database: two people, a pet, an address.
    private func database(_ dir: TemporaryFolder) throws -> Database {
        let db = try Database.create(at: dir.path("c.porter"), schema: try Schema(jsonString: Self.schema))
        try db.write {
            let pet = try db.create("Pet", ["name": .string("Rex")])
            let ann = try db.create(
                "Person",
                [
                    "id": .int(1), "name": .string("Ann"), "pets": .list([.link(ObjectLink("Pet", pet))]),
                    "home": .object(["city": .string("Oslo")]), "tags": .set([.string("a")]),
                ])
            try db.create(
                "Person",
                [
                    "id": .int(2), "name": .string("Bo"), "friend": .link(ObjectLink("Person", ann)),
                    "extra": .link(ObjectLink("Pet", pet)),
                ])
        }
        return db
    }

    @Test func aSoundDatabaseHasNoProblems() throws {
        let dir = try TemporaryFolder("consistency")
        let db = try database(dir)
        #expect(try db.checkConsistency() == [])
    }

    @Test(arguments: [
        (
            #"UPDATE "class_Person" SET friend = 99 WHERE id = 2"#,
            "Person.friend: 1 link to objects that do not exist: Person(2).friend -> Person(99)"
        ),
        (
            #"UPDATE "class_Person" SET extra = NULL; INSERT INTO "class_Person.pets" VALUES (1, 1, 42)"#,
            "Person.pets: 1 link to objects that do not exist: Person(1).pets -> Pet(42)"
        ),
        (
            #"UPDATE "class_Person" SET name = NULL WHERE id = 1"#,
            "Person.name: 1 object without a value for a required property: Person(1)"
        ),
        (
            #"UPDATE "class_Person" SET name = x'00' WHERE id = 1"#,
            "Person.name: 1 value not stored as 'string': Person(1) holds blob"
        ),
        (
            #"INSERT INTO "class_Person.tags" VALUES (77, 'z')"#,
            "Person.tags: 1 collection element whose owner does not exist: Person(77)"
        ),
        (
            #"INSERT INTO "class_Address" (city) VALUES ('Nowhere')"#,
            "Address: embedded objects must have exactly one parent, but 1 has none and 0 more than one"
        ),
        (
            #"UPDATE "class_Person" SET home = 1 WHERE id = 2"#,
            "Address: embedded objects must have exactly one parent, but 0 have none and 1 more than one"
        ),
        (
            #"DROP INDEX "pk:Person"; UPDATE "class_Person" SET id = 1"#,
            "Person.id: primary key has 1 duplicate value: 1 (2 objects)"
        ),
        (
            #"ALTER TABLE "class_Pet" ADD COLUMN age"#,
            "Pet: column 'age' of 'class_Pet' belongs to no property of the schema"
        ),
        (#"DROP TABLE "class_Person.tags""#, "Person.tags: the set has no table 'class_Person.tags'"),
        (
            #"CREATE TABLE "class_Ghost" (_key INTEGER PRIMARY KEY)"#,
            "table 'class_Ghost' belongs to no class or property of the schema"
        ),
    ])
    func eachKindOfDamageIsReported(sql: String, expected: String) throws {
        let dir = try TemporaryFolder("consistency")
        let db = try database(dir)
        try db.connection.execute(sql)
        let problems = try db.checkConsistency()
        #expect(problems.contains(expected), "got: \(problems)")
    }

    @Test(.enabled(if: Hardening.porter != nil, "needs the built porter"))
    func porterCheckPrintsOkOrOneLinePerProblem() throws {
        let dir = try TemporaryFolder("consistency")
        let path: String
        do {
            let db = try database(dir)
            path = db.path
        }
        let sound = try Hardening.porter(["check", path])
        #expect(sound.status == 0)
        #expect(sound.stdout == "ok\n")
        #expect(sound.stderr.isEmpty)
        do {
            let db = try Database.open(at: path)
            try db.connection.execute(#"UPDATE "class_Person" SET friend = 99, name = NULL WHERE id = 2"#)
        }
        let damaged = try Hardening.porter(["check", path])
        #expect(damaged.status == 1)
        #expect(
            damaged.stdout == """
                \(path): Person.name: 1 object without a value for a required property: Person(2)
                \(path): Person.friend: 1 link to objects that do not exist: Person(2).friend -> Person(99)

                """)
        #expect(damaged.stderr == "porter: error: \(path): 2 consistency problems found\n")
    }
}
