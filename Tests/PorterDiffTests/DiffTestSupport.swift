import Foundation
import Testing
@testable import PorterDiff
import PorterStore
import PorterModel

/// A schema from a compact JSON class list: `schema(1, #"{"name": "Dog", "properties": {...}}"#)`.
func schema(_ version: UInt64 = 0, _ classes: String...) throws -> Schema {
    try Schema(jsonString: #"{"schemaVersion": \#(version), "classes": [\#(classes.joined(separator: ","))]}"#)
}

/// The messages of the changes from `old` to `new`.
func messages(_ old: Schema, _ new: Schema) -> [String] { SchemaDiff.compare(old, new).map(\.message) }

/// Runs `body` and returns the ``PorterError`` it throws (recording an issue otherwise).
@discardableResult
func expectError(
    _ code: PorterError.Code? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> PorterError? {
    do {
        try body()
        Issue.record("expected a PorterError but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as PorterError {
        if let code { #expect(error.code == code, "unexpected error: \(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected a PorterError but got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
