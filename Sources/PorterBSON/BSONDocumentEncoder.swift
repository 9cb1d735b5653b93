import PorterCBSON
import Foundation
import PorterDocument
import PorterModel

/// Writes documents as concatenated BSON (as mongodump does) or as Extended JSON text (libbson's
/// canonical or relaxed conversion of the same BSON document), one per line or as an array.
package final class BSONDocumentEncoder: DocumentEncoder {
    /// What the encoder writes.
    package enum Output: Sendable, Equatable {
        /// Raw BSON documents, back to back.
        case bson
        /// Extended JSON v2, canonical (every type wrapped) or relaxed (numbers and dates plain).
        case extendedJSON(canonical: Bool, array: Bool)
    }

    private let output: ByteOutput
    private let mode: Output
    private let builder: BSONBuilder
    private var documentsWritten = 0
    /// One Extended JSON document's text (reused).
    private let text = TextBuffer()

    /// Creates an encoder writing to `output`.
    package init(output: ByteOutput, mode: Output) throws {
        self.output = output
        self.mode = mode
        let relaxed: Bool
        if case .extendedJSON(false, _) = mode { relaxed = true } else { relaxed = false }
        builder = try BSONBuilder(dateStyle: relaxed ? .relaxedExtendedJSON : .native)
    }

    /// Dates whose sub-millisecond digits were dropped.
    package var flooredDates: Int { builder.flooredDates }

    /// Starts a top-level document.
    package func beginDocument() throws { builder.reset() }

    /// Ends the document and writes it out.
    package func endDocument() throws {
        switch mode {
        case .bson:
            try builder.withBytes { try output.write($0) }
        case .extendedJSON(let canonical, let array):
            text.count = 0
            if array { text.append(documentsWritten == 0 ? "[" : ",\n") }
            let native = try builder.withBytes { ExtendedJSONText.append(document: $0, canonical: canonical, to: text) }
            if !native { try appendLibbsonText(canonical: canonical) }
            if !array { text.append(0x0A) }
            try output.write(text.bytes)
        }
        documentsWritten += 1
    }

    /// libbson's own conversion, for documents ``ExtendedJSONText`` leaves to it.
    private func appendLibbsonText(canonical: Bool) throws {
        var length = 0
        let converted =
            canonical
            ? bson_as_canonical_extended_json(builder.document, &length)
            : bson_as_relaxed_extended_json(builder.document, &length)
        guard let converted else {
            throw PorterError(.invalidValue, "libbson could not convert a document to Extended JSON")
        }
        defer { bson_free(converted) }
        converted.withMemoryRebound(to: UInt8.self, capacity: length) { text.append($0, length) }
    }

    /// Starts a nested document.
    package func openDocument(_ key: String?) throws { try builder.open(key, array: false) }
    /// Ends a nested document.
    package func closeDocument() throws { try builder.close() }
    /// Starts an array.
    package func openArray(_ key: String?) throws { try builder.open(key, array: true) }
    /// Ends an array.
    package func closeArray() throws { try builder.close() }

    /// Writes a scalar; BSON spells mixed and typed values alike.
    package func write(_ key: String?, _ value: Value, mixed: Bool) throws {
        try builder.append(key, value)
    }

    /// Closes the JSON array, if any, and flushes.
    package func finish() throws {
        if case .extendedJSON(_, true) = mode {
            try output.write(documentsWritten == 0 ? "[]\n" : "]\n")
        }
        try output.flush()
    }
}
