import Foundation
import PorterDocument

/// Reads JSON documents — plain, relaxed or canonical Extended JSON, in any mix — from one
/// document per line, a JSON array, or a fixture file, one document at a time.
package final class JSONDocumentDecoder: DocumentDecoder {
    private let reader: JSONLayoutReader
    private let parser: JSONCParser

    /// Creates a decoder over `input`; `context` tells fixtures from class files.
    package convenience init(
        input: ByteInput, context: DecoderContext, maxDepth: Int = InterchangeLimits.maxNestingDepth
    ) throws {
        try self.init(input: input, context: context, maxDepth: maxDepth, nativeFastPath: true)
    }

    /// `nativeFastPath: false` parses every document with json-c (tests compare the two).
    init(input: ByteInput, context: DecoderContext, maxDepth: Int, nativeFastPath: Bool) throws {
        reader = JSONLayoutReader(input: input, context: context, maxDepth: maxDepth)
        reader.nativeFastPath = nativeFastPath
        parser = try JSONCParser(maxDepth: maxDepth, nativeFastPath: nativeFastPath)
    }

    /// The `schemaVersion` of a fixture file, once read.
    package var fixtureSchemaVersion: UInt64? { reader.fixtureVersion }

    /// Whether the input is a fixture file (known after the first call to ``next()``).
    package var isFixture: Bool { reader.layout == .fixture }

    /// The next document, or nil at the end.
    package func next() throws -> DecodedDocument? {
        guard let (className, label, element) = try reader.next() else { return nil }
        if let problem = element.problem {
            throw DocumentInputError(
                label: label, message: "\(problem) (document starting on line \(element.line))", recoverable: true)
        }
        let buffer = reader.buffer
        do {
            let doc: Document
            if let parsed = element.parsed {
                doc = try parser.finish(parsed.value, sawDollarKey: parsed.sawDollarKey)
            } else if element.bigIntegers.isEmpty {
                doc = try parser.parse(buffer.storage.bytes(element.range), expectedMembers: element.memberCount)
            } else {
                // json-c saturates integers outside the 64-bit range; written with a fraction
                // they parse as the nearest double instead, which every integer reader rejects.
                var copy = buffer.slice(element.range)
                for range in element.bigIntegers.reversed() {
                    copy.insert(contentsOf: Array(".0".utf8), at: range.upperBound)
                }
                doc = try copy.withUnsafeBytes { try parser.parse($0, expectedMembers: element.memberCount) }
            }
            return DecodedDocument(className: className, label: label, document: doc)
        } catch let error as JSONCParser.Failure {
            throw DocumentInputError(
                label: label, path: error.path,
                message: "\(error.message)\(error.path.isEmpty ? " (document starting on line \(element.line))" : "")",
                recoverable: true)
        }
    }
}
