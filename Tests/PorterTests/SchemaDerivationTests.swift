import Foundation
import Testing
@testable import Porter

/// A base model and a subclass that adds properties: each is a class of its own.
class Animal: Object {
    @Persisted var name: String
    @Persisted var legs = 4
}

final class Cat: Animal {
    @Persisted var indoor = true
    @Persisted var favoriteToy: DogToy?
}

/// Initial values: stable ones become defaults, per-instance ones do not, ignored ones are not stored.
final class Defaults: Object {
    @Persisted var createdAt = Date()
    @Persisted(primaryKey: true) var _id = ObjectId.generate()
    @Persisted var fixed = Date(timeIntervalSince1970: 0)
    @Persisted var plain: Int
    @Persisted var explicitZero = 0
    @Persisted var homepage: URL?
    @Persisted var website = URL(string: "https://example.com")!
    var cache: [String] = []
    lazy var computedOnce = 1
}

@Suite struct SchemaDerivationTests {
    @Test func fixtureModelsEqualTheSchemaFile() throws {
        let file = try Schema(contentsOfFile: fixturesDirectory.appendingPathComponent("schemas/realm-docs.json").path)
        let derived = try Schema(version: 3, objectTypes: fixtureTypes)
        for cls in file.classes {
            let mine = try #require(derived[cls.name], "missing class \(cls.name)")
            #expect(mine.isEmbedded == cls.isEmbedded, "\(cls.name)")
            #expect(mine.primaryKey == cls.primaryKey, "\(cls.name)")
            #expect(mine.properties.map(\.name) == cls.properties.map(\.name), "\(cls.name)")
            for (a, b) in zip(mine.properties, cls.properties) {
                #expect(a == b, "\(cls.name).\(a.name)")
            }
        }
        #expect(derived == file)
        #expect(derived.jsonString() == file.jsonString())
    }

    @Test func orderOfObjectTypesDoesNotMatter() throws {
        let forward = try Schema(version: 3, objectTypes: fixtureTypes)
        let backward = try Schema(version: 3, objectTypes: fixtureTypes.reversed())
        #expect(forward == backward)
    }

    @Test func subclassIsAClassOfItsOwnWithInheritedPropertiesFirst() throws {
        let schema = try Schema(objectTypes: [Animal.self, Cat.self, DogToy.self])
        #expect(schema["Animal"]?.properties.map(\.name) == ["name", "legs"])
        #expect(schema["Cat"]?.properties.map(\.name) == ["name", "legs", "indoor", "favoriteToy"])
        #expect(schema["Cat"]?.property(named: "favoriteToy")?.objectType == "DogToy")
        #expect(schema["Cat"]?.property(named: "legs")?.defaultValue == .int(4))
    }

    @Test func initialValuesThatVaryPerInstanceAreNotDefaults() throws {
        let schema = try Schema(objectTypes: [Defaults.self])
        let cls = try #require(schema["Defaults"])
        #expect(
            cls.properties.map(\.name) == ["createdAt", "_id", "fixed", "plain", "explicitZero", "homepage", "website"])
        #expect(cls.property(named: "createdAt")?.defaultValue == nil)
        #expect(cls.property(named: "_id")?.defaultValue == nil)
        #expect(cls.primaryKey == "_id")
        #expect(cls.property(named: "fixed")?.defaultValue == .date(Timestamp(microseconds: 0)))
        #expect(cls.property(named: "plain")?.defaultValue == nil)
        #expect(cls.property(named: "explicitZero")?.defaultValue == .int(0))
        #expect(cls.property(named: "homepage") == Property(name: "homepage", type: .string, optional: true))
        #expect(cls.property(named: "website")?.defaultValue == .string("https://example.com"))
    }

    @Test func ignoredPropertiesAreNotInTheSchema() throws {
        let schema = try Schema(version: 3, objectTypes: fixtureTypes)
        #expect(schema["Dog"]?.property(named: "isSelected") == nil)
        #expect(try Schema(objectTypes: [Defaults.self])["Defaults"]?.property(named: "cache") == nil)
    }

    @Test func renamedClassUsesItsRealmName() throws {
        let schema = try Schema(version: 3, objectTypes: fixtureTypes)
        #expect(schema["TaskItem"] == nil)
        #expect(schema["Task"]?.primaryKey == "_id")
        #expect(
            schema["User"]?.property(named: "tasks")
                == .linkingObjects("tasks", originClass: "Task", originProperty: "assignee"))
    }
}
