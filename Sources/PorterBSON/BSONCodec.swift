import PorterCBSON
import Foundation
import PorterDocument
import PorterModel

/// One-document conversions, for tools and tests.
package enum BSONCodec {
    /// Decodes exactly one BSON document.
    /// - Throws: ``PorterError/Code/invalidInput`` naming the field path of the problem.
    package static func decode(_ bytes: [UInt8]) throws -> Document {
        let decoder = BSONValueDecoder()
        let length =
            bytes.count >= 4
            ? Int(UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24) : -1
        guard length == bytes.count else {
            throw PorterError(
                .invalidInput, "BSON length prefix says \(length) bytes but the document has \(bytes.count)")
        }
        do {
            return try bytes.withUnsafeBytes { raw in try decoder.decode(raw) }
        } catch let error as BSONValueDecoder.Failure {
            throw PorterError(.invalidInput, error.message, location: error.path.isEmpty ? nil : error.path)
        }
    }

    /// libbson's Extended JSON text of one BSON document.
    package static func extendedJSON(_ bytes: [UInt8], canonical: Bool) throws -> String {
        guard let doc = bytes.withUnsafeBufferPointer({ bson_new_from_data($0.baseAddress, $0.count) }) else {
            throw PorterError(.invalidInput, "not a valid BSON document")
        }
        defer { bson_destroy(doc) }
        var length = 0
        guard
            let text = canonical
                ? bson_as_canonical_extended_json(doc, &length) : bson_as_relaxed_extended_json(doc, &length)
        else {
            throw PorterError(.invalidInput, "libbson could not convert the document to Extended JSON")
        }
        defer { bson_free(text) }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
    }

    /// libbson's parse of one Extended JSON document into BSON (an independent reference for
    /// tests of Porter's own Extended JSON reading).
    package static func bson(fromExtendedJSON text: String) throws -> [UInt8] {
        var error = bson_error_t()
        let utf8 = Array(text.utf8)
        guard let doc = utf8.withUnsafeBufferPointer({ bson_new_from_json($0.baseAddress, $0.count, &error) }) else {
            let message = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw PorterError(.invalidInput, "invalid Extended JSON: \(message)")
        }
        defer { bson_destroy(doc) }
        guard let data = bson_get_data(doc) else { throw PorterError(.io, "libbson returned no document data") }
        let length = Int(UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// Encodes one document built by `body` (used by tests to check exact bytes).
    package static func encode(_ body: (DocumentEncoder) throws -> Void) throws -> [UInt8] {
        let output = ByteOutput(memoryNamed: "memory")
        let encoder = try BSONDocumentEncoder(output: output, mode: .bson)
        try encoder.beginDocument()
        try body(encoder)
        try encoder.endDocument()
        try encoder.finish()
        return Array(output.collected)
    }
}
