import Foundation
import Testing
@testable import Porter

/// A fresh directory under the system temp folder, removed when the value goes away, so tests
/// can run in parallel without sharing files.
final class TempDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("porter-typed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file URL inside the directory.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

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

/// Runs `body` and returns the ``PorterError`` it throws, recording an issue when it throws
/// something else or nothing, or when the code differs from `code`.
@discardableResult
func expectPorterError(
    _ code: PorterError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> PorterError? {
    do {
        try body()
        Issue.record("expected a PorterError .\(code) but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as PorterError {
        #expect(error.code == code, "unexpected error: \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a PorterError .\(code) but got \(error)", sourceLocation: sourceLocation)
        return nil
    }
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
