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
