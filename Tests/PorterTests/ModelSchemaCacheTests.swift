import Foundation
import Porter
import Testing

/// Two model classes under one schema name, with different properties.
enum SchemaCacheModelsA {
    final class Dog: Object {
        @Persisted var name = ""
        override class func _realmObjectName() -> String? { "SchemaCacheDog" }
    }
}

enum SchemaCacheModelsB {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var age = 3
        override class func _realmObjectName() -> String? { "SchemaCacheDog" }
    }
}

final class SchemaCacheOwner: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var dogs: List<SchemaCacheModelsA.Dog>
}

/// Model schemas are derived once per model class and reused by every realm opened later: each
/// realm must still get exactly its own classes' tables and properties.
@Suite struct ModelSchemaCacheTests {
    func realm(_ types: [ObjectBase.Type]) throws -> Realm {
        try Realm(configuration: .init(inMemoryIdentifier: "schema-cache-\(UUID().uuidString)", objectTypes: types))
    }

    @Test func classesSharingANameKeepTheirOwnSchemas() throws {
        let first = try realm([SchemaCacheModelsA.Dog.self])
        #expect(first.schema["SchemaCacheDog"]?.properties.map(\.name) == ["name"])
        let second = try realm([SchemaCacheModelsB.Dog.self])
        #expect(second.schema["SchemaCacheDog"]?.properties.map(\.name) == ["name", "age"])
        #expect(second.schema["SchemaCacheDog"]?.properties.last?.defaultValue == .int(3))
        let again = try realm([SchemaCacheModelsA.Dog.self])
        #expect(again.schema["SchemaCacheDog"]?.properties.map(\.name) == ["name"])
    }

    @Test func aChangedSetOfClassesGetsItsOwnTables() throws {
        let small = try realm([SchemaCacheModelsA.Dog.self])
        #expect(small.schema.classes.map(\.name) == ["SchemaCacheDog"])
        let large = try realm([SchemaCacheOwner.self, SchemaCacheModelsA.Dog.self])
        #expect(Set(large.schema.classes.map(\.name)) == ["SchemaCacheOwner", "SchemaCacheDog"])
        try large.importFixtures(
            data: Data(
                #"{"SchemaCacheOwner": [{"_id": 1, "dogs": [7]}], "SchemaCacheDog": [{"_key": 7, "name": "a"}]}"#.utf8))
        #expect(large.objects(SchemaCacheOwner.self).first?.dogs.first?.name == "a")
        // The realm opened first keeps its one class.
        #expect(small.schema["SchemaCacheOwner"] == nil)
        #expect(throws: PorterError.self) {
            try small.importFixtures(data: Data(#"{"schemaVersion": 0, "SchemaCacheOwner": [{"_id": 1}]}"#.utf8))
        }
    }
}
