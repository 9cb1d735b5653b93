import PorterCJSONC
import Foundation
import PorterDocument
import PorterModel

/// Writes documents as plain, schema-typed JSON with json-c, for people and fixtures.
///
/// Typed values use plain forms: objectId → 24 lowercase hex digits, uuid → canonical lowercase
/// string, date → ISO 8601 UTC with just enough fraction digits to be exact, decimal128 → string,
/// data → base64, numbers as the shortest text that reads back exactly (`NaN`, `Infinity`,
/// `-Infinity` as strings). A `mixed` value keeps an Extended JSON wrapper whenever a plain
/// form would not say its type (`{"$oid": …}`, `{"$date": …}`, `{"$numberDouble": "NaN"}`, …).
package final class PlainJSONEncoder: DocumentEncoder {
    private let output: ByteOutput
    private let array: Bool
    private var stack: [(object: OpaquePointer, isArray: Bool)] = []
    private var root: OpaquePointer?
    private var documentsWritten = 0

    /// Creates an encoder; `array` writes one JSON array instead of one document per line.
    package init(output: ByteOutput, array: Bool) {
        self.output = output
        self.array = array
    }

    deinit {
        if let root { json_object_put(root) }
    }

    /// Plain JSON keeps nanoseconds: nothing is floored.
    package var flooredDates: Int { 0 }

    /// Starts a top-level document.
    package func beginDocument() throws {
        if let root { json_object_put(root) }
        guard let object = json_object_new_object() else { throw allocationFailure() }
        root = object
        stack = [(object, false)]
    }

    /// Serializes the document and writes it out.
    package func endDocument() throws {
        guard let root else { return }
        var length = 0
        guard
            let text = json_object_to_json_string_length(
                root, Int32(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), &length)
        else {
            throw PorterError(.invalidValue, "json-c could not serialize a document")
        }
        if array { try output.write(documentsWritten == 0 ? "[" : ",\n") }
        try output.write(UnsafeRawBufferPointer(start: text, count: length))
        if !array { try output.write([0x0A]) }
        json_object_put(root)
        self.root = nil
        stack = []
        documentsWritten += 1
    }

    /// Starts a nested document.
    package func openDocument(_ key: String?) throws {
        guard let object = json_object_new_object() else { throw allocationFailure() }
        try add(key, object)
        stack.append((object, false))
    }

    /// Ends a nested document.
    package func closeDocument() throws { if stack.count > 1 { stack.removeLast() } }

    /// Starts an array.
    package func openArray(_ key: String?) throws {
        guard let object = json_object_new_array() else { throw allocationFailure() }
        try add(key, object)
        stack.append((object, true))
    }

    /// Ends an array.
    package func closeArray() throws { if stack.count > 1 { stack.removeLast() } }

    /// Writes a scalar in its plain form (or, in a mixed, its Extended JSON wrapper when needed).
    package func write(_ key: String?, _ value: Value, mixed: Bool) throws {
        if mixed, case .data(let data) = value {
            try openDocument(key)
            try openDocument("$binary")
            try add("base64", try PlainJSONForms.make(.string(data.base64EncodedString())))
            try add("subType", try PlainJSONForms.make(.string("00")))
            try closeDocument()
            return try closeDocument()
        }
        if mixed, let (wrapper, inner) = PlainJSONForms.mixedWrapper(value) {
            try openDocument(key)
            try add(wrapper, try PlainJSONForms.make(inner))
            return try closeDocument()
        }
        try add(
            key, try PlainJSONForms.make(mixed ? PlainJSONForms.mixedPlain(value) : PlainJSONForms.typedPlain(value)))
    }

    /// Closes the array, if any, and flushes.
    package func finish() throws {
        if array { try output.write(documentsWritten == 0 ? "[]\n" : "]\n") }
        try output.flush()
    }

    /// Adds `child` (owned: json-c takes the reference) to the innermost container.
    private func add(_ key: String?, _ child: OpaquePointer?) throws {
        guard let parent = stack.last else {
            if let child { json_object_put(child) }
            throw PorterError(.invalidValue, "internal error: value written outside a document")
        }
        if parent.isArray {
            guard json_object_array_add(parent.object, child) == 0 else { throw allocationFailure() }
        } else {
            guard json_object_object_add(parent.object, key ?? "", child) == 0 else { throw allocationFailure() }
        }
    }

    private func allocationFailure() -> PorterError {
        PorterError(.io, "json-c could not allocate memory")
    }
}
