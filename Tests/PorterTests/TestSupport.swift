import Foundation
import Testing
@testable import Porter

/// The package's `Fixtures/` folder, found from this file's path so tests run from any directory.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Every fixture model class, as listed in `Fixtures/schemas/realm-docs.json`.
let fixtureTypes: [ObjectBase.Type] = [
    Dog.self, DogToy.self, Person.self, Address.self, Country.self,
    User.self, TaskItem.self, AllTypes.self,
]

/// An in-memory realm of its own for one test.
func memoryRealm(_ types: [ObjectBase.Type] = fixtureTypes, _ label: String = #function) throws -> Realm {
    try Realm(
        configuration: .init(inMemoryIdentifier: "\(label)-\(UUID().uuidString)", schemaVersion: 3, objectTypes: types))
}

/// A file realm at `url` with the fixture model.
func fileRealm(_ url: URL, _ types: [ObjectBase.Type] = fixtureTypes) throws -> Realm {
    try Realm(configuration: .init(fileURL: url, schemaVersion: 3, objectTypes: types))
}

/// The detail lines of the schema error deriving `types` throws (empty when it does not throw).
func schemaErrors(_ types: [ObjectBase.Type], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    do {
        _ = try Schema(objectTypes: types)
        Issue.record("expected the schema to be rejected", sourceLocation: sourceLocation)
        return []
    } catch let error as PorterError {
        #expect(error.code == .invalidSchema, sourceLocation: sourceLocation)
        #expect(
            error.message == "Schema validation failed with \(error.details.count) error(s):",
            sourceLocation: sourceLocation)
        return error.details
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return []
    }
}
