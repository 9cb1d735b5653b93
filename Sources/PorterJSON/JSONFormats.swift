import Foundation
import PorterDocument

/// Plain, schema-typed JSON output (`--format json`) and the JSON reader for every JSON flavour:
/// plain, relaxed and canonical Extended JSON, line-delimited, arrays and fixture files.
package struct JSONFormat: DocumentOutputFormat, DocumentInputFormat {
    /// Creates the format.
    package init() {}

    /// `json`.
    package var name: String { "json" }
    /// The names `--format` accepts for JSON input (Extended JSON is read by the same reader).
    package var names: [String] { ["json", "ejson", "ejson-canonical", "extended-json"] }
    /// `json`.
    package var fileExtension: String { "json" }
    /// `.json`, `.ndjson`, `.jsonl` files.
    package var fileExtensions: [String] { ["json", "ndjson", "jsonl"] }

    /// A plain JSON encoder.
    package func makeEncoder(output: ByteOutput, options: ExportOptions) throws -> DocumentEncoder {
        PlainJSONEncoder(output: output, array: options.array)
    }

    /// A JSON decoder.
    package func makeDecoder(input: ByteInput, context: DecoderContext) throws -> DocumentDecoder {
        try JSONDocumentDecoder(input: input, context: context)
    }

    /// Input whose first significant byte opens an object or an array.
    package func recognizes(prefix: [UInt8]) -> Bool {
        guard !prefix.contains(0) else { return false }
        let significant = prefix.drop {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        return significant.first == UInt8(ascii: "{") || significant.first == UInt8(ascii: "[")
    }
}
