import Foundation
import Testing
@testable import Porter

/// The Swift snippets of README.md, verbatim apart from file locations, so the README stays true.
enum Readme {
    final class Dog: Object {
        @Persisted(primaryKey: true) var _id: ObjectId
        @Persisted(indexed: true) var name = ""
        @Persisted var age = 0
        @Persisted var owner: Person?
    }
    final class Person: Object {
        @Persisted(primaryKey: true) var _id: UUID
        @Persisted var name = ""
        @Persisted(originProperty: "owner") var dogs: LinkingObjects<Dog>
    }
}

@Suite struct ReadmeExamplesTests {
    @Test func dynamicQuickStart() throws {
        let dir = try TempDir()
        let path = dir.file("app.realm").path
        let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/schemas/realm-docs.json").path
        // README: "Swift API quick start (dynamic)"
        let schema = try Schema(contentsOfFile: schemaFile)
        let db = try Database.create(at: path, schema: schema)
        try db.write {
            let person = try db.create("Person", ["_id": .uuid(UUID()), "name": .string("Ali")])
            try db.create("Dog", [
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
        let dir = try TempDir()
        typealias Dog = Readme.Dog
        typealias Person = Readme.Person
        // README: "Typed models"
        let realm = try Realm(configuration: .init(fileURL: dir.file("dogs.realm"), objectTypes: [Dog.self, Person.self]))
        try realm.write {
            let person = Person()
            person.name = "Ali"
            let dog = Dog()
            dog.name = "Rex"
            dog.age = 3
            dog.owner = person
            realm.add(dog)
        }
        let young = realm.objects(Dog.self).where { $0.age < 5 }.sorted(byKeyPath: "name")
        #expect(young.count == 1)
        #expect(young.first?.owner?.name == "Ali")
        #expect(young.first?.owner?.dogs.count == 1)
    }

    @Test func swiftMigrationSnippet() throws {
        let dir = try TempDir()
        let url = dir.file("people.realm")
        let v1 = try Schema(jsonString: #"{"schemaVersion": 1, "classes": [{"name": "Person", "properties": {"name": "string", "age": "int"}}]}"#)
        let db = try Database.create(at: url.path, schema: v1)
        try db.write { try db.create("Person", ["name": .string("Ali"), "age": .int(41)]) }
        final class Person: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
        }
        // README: "Swift Migration API"
        let config = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { migration, oldVersion in
            if oldVersion < 2 {
                try migration.renameProperty(onType: "Person", from: "name", to: "fullName")
                try migration.enumerateObjects(ofType: "Person") { old, new in
                    if case .int(let age)? = old?["age"] { new?["age"] = .int(age + 1) }
                }
            }
        }, objectTypes: [Person.self])
        let realm = try Realm(configuration: config)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.fullName == "Ali")
        #expect(person.age == 42)
    }
}
