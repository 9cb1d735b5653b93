import Foundation
import PorterDocument

/// BSON files: concatenated documents, as mongodump writes them (`Class.bson`).
package struct BSONFormat: DocumentOutputFormat, DocumentInputFormat {
    /// Creates the format.
    package init() {}

    /// `bson`.
    package var name: String { "bson" }
    /// `--format bson`.
    package var names: [String] { ["bson"] }
    /// `bson`.
    package var fileExtension: String { "bson" }
    /// `.bson` files.
    package var fileExtensions: [String] { ["bson"] }

    /// A BSON encoder.
    package func makeEncoder(output: ByteOutput, options: ExportOptions) throws -> DocumentEncoder {
        try BSONDocumentEncoder(output: output, mode: .bson)
    }

    /// A BSON decoder.
    package func makeDecoder(input: ByteInput, context: DecoderContext) throws -> DocumentDecoder {
        BSONDocumentDecoder(input: input)
    }

    /// A plausible length prefix followed by an element type byte (JSON never holds NUL bytes).
    package func recognizes(prefix: [UInt8]) -> Bool {
        guard prefix.count >= 5 else { return false }
        let length = UInt32(prefix[0]) | UInt32(prefix[1]) << 8 | UInt32(prefix[2]) << 16 | UInt32(prefix[3]) << 24
        let type = prefix[4]
        return length >= 5 && (type <= 0x13 || type == 0x7F || type == 0xFF)
    }
}

/// Extended JSON v2 output (relaxed or canonical), one document per line or as an array.
/// Reading Extended JSON is done by the JSON reader, which accepts every Extended JSON form.
package struct ExtendedJSONFormat: DocumentOutputFormat {
    /// Canonical (every value type-wrapped) or relaxed.
    package var canonical: Bool

    /// Creates the format.
    package init(canonical: Bool) {
        self.canonical = canonical
    }

    /// `ejson` or `ejson-canonical`.
    package var name: String { canonical ? "ejson-canonical" : "ejson" }
    /// `json`.
    package var fileExtension: String { "json" }

    /// An Extended JSON encoder (`--array` writes one JSON array).
    package func makeEncoder(output: ByteOutput, options: ExportOptions) throws -> DocumentEncoder {
        try BSONDocumentEncoder(output: output, mode: .extendedJSON(canonical: canonical, array: options.array))
    }
}
