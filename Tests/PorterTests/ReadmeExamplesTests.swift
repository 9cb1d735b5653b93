import Foundation
import Testing
@testable import Porter
import PorterTestSupport

/// The Swift snippets of the guides (Sources/Porter/Porter.docc), verbatim apart from file locations, so they stay true.
enum Readme {
    class Dog: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted(indexed: true) var name = ""
        @Persisted var age = 0
        @Persisted var owner: Person?
    }
    class Person: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted var name = ""
        @Persisted var dogs: List<Dog>
        @Persisted(originProperty: "owner") var walkedDogs: LinkingObjects<Dog>
    }
    class PersonProjection: Projection<Person> {
        @Projected(\Person.name) var firstName
        @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
    }
}

@Suite struct ReadmeExamplesTests {
    @Test func dynamicQuickStart() throws {
        let dir = try TemporaryFolder()
        let path = dir.file("app.realm").path
        let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/schemas/realm-docs.json").path
        // Getting started: the dynamic API
        let schema = try Schema(contentsOfFile: schemaFile)
        let db = try Database.create(at: path, schema: schema)
        try db.write {
            let person = try db.create("Person", ["_id": .uuid(UUID()), "name": .string("Ali")])
            try db.create(
                "Dog",
                [
                    "_id": .objectId(.generate()),
                    "name": .string("Rex"),
                    "owner": .link(ObjectLink("Person", person)),
                    "address": .object(["street": .string("Main St 1"), "city": .string("Oslo")]),
                    "tags": .set([.string("good"), .string("loud")]),
                ])
        }
        var names: [Value] = []
        try db.enumerate("Dog") { dog in names.append(dog["name"] ?? .null) }
        #expect(names == [.string("Rex")])
        #expect(try db.count("Address") == 1)
    }

    @Test func typedQuickStart() throws {
        let dir = try TemporaryFolder()
        typealias Dog = Readme.Dog
        typealias Person = Readme.Person
        typealias PersonProjection = Readme.PersonProjection
        // Typed models: the opening example (`Realm()` opens default.realm; here the file is in a temporary folder)
        let realm = try Realm(fileURL: dir.file("dogs.realm"))
        try realm.write {
            let person = realm.create(Person.self, value: ["name": "Ali", "dogs": [["name": "Rex", "age": 3]]])
            person.dogs.append(objectsIn: [Dog(value: ["name": "Fido", "age": 1])])
            realm.add(Dog(value: ["name": "Max", "owner": person]), update: .error)
        }
        let young = realm.objects(Dog.self).where { $0.age < 5 && $0.name.starts(with: "r", options: .caseInsensitive) }
        let sameThing = realm.objects(Dog.self).filter("age < %@ AND name BEGINSWITH[c] %@", 5, "r")
        let owners = realm.objects(Person.self).filter("ANY dogs.age > 2 AND dogs.@count >= 2").sorted(
            byKeyPath: "name")
        #expect(young.map(\.name) == ["Rex"] && sameThing.map(\.name) == ["Rex"])
        #expect(owners.map(\.name) == ["Ali"])
        #expect(realm.objects(Dog.self).first { $0.name == "Max" }?.owner?.walkedDogs.count == 1)
        // Typed models: "Class projections"
        let people = realm.objects(PersonProjection.self)
        try realm.write { people[0].firstName = "Ali" }  // writes Person.name
        let person = try #require(realm.objects(Person.self).first)
        let one = PersonProjection(projecting: person)
        #expect(one.firstName == "Ali" && Array(one.dogNames) == ["Rex", "Fido"])
    }

    @Test func swiftMigrationSnippet() throws {
        let dir = try TemporaryFolder()
        let url = dir.file("people.realm")
        let v1 = try Schema(
            jsonString:
                #"{"schemaVersion": 1, "classes": [{"name": "Person", "properties": {"name": "string", "age": "int"}}]}"#
        )
        let db = try Database.create(at: url.path, schema: v1)
        try db.write { try db.create("Person", ["name": .string("Ali"), "age": .int(41)]) }
        final class Person: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
        }
        // Migrations: "From Swift"
        let config = Realm.Configuration(
            fileURL: url, schemaVersion: 2,
            migrationBlock: { migration, oldVersion in
                if oldVersion < 2 {
                    migration.renameProperty(onType: "Person", from: "name", to: "fullName")
                    migration.enumerateObjects(ofType: "Person") { old, new in
                        let age = old!["age"] as! Int
                        new!["age"] = age + 1
                    }
                }
            }, objectTypes: [Person.self])
        let realm = try Realm(configuration: config)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.fullName == "Ali")
        #expect(person.age == 42)
    }
}
