import Foundation
import PorterDocument

/// Reads concatenated BSON documents (a mongodump `.bson` file) from a stream.
///
/// Framing is checked strictly before anything is allocated: a length prefix below 5 bytes, above
/// ``InterchangeLimits/maxDocumentBytes`` (a prefix claiming gigabytes), longer than what is left
/// of a file, or a document not ending in 0x00 stops the file with a clear error. The buffer
/// grows only as bytes actually arrive, so a lying prefix on a pipe cannot exhaust memory either.
package final class BSONDocumentDecoder: DocumentDecoder {
    private let input: ByteInput
    private let decoder = BSONValueDecoder()
    private let buffer = ReadBuffer()
    // Unchecked exclusivity: updated for every document, never reentrantly.
    @exclusivity(unchecked) private var consumed: Int64 = 0
    @exclusivity(unchecked) private var number = 0
    @exclusivity(unchecked) private var finished = false
    /// Where the last document framed lies in `buffer`.
    @exclusivity(unchecked) private var last = 0..<0

    /// The label of the last document framed (its number in the file, from 1).
    package var lastLabel: String { String(number) }

    /// Creates a decoder over `input`.
    package init(input: ByteInput) {
        self.input = input
    }

    /// BSON files declare no fixture version.
    package var fixtureSchemaVersion: UInt64? { nil }

    /// The next document, nil at the end.
    package func next() throws -> DecodedDocument? {
        guard try nextBytes() != nil else { return nil }
        return try decodeLast()
    }

    /// The next document's bytes, framing checked as ``next()`` checks it (the same errors), or
    /// nil at the end. The bytes stay valid until the next call.
    package func nextBytes() throws -> UnsafeRawBufferPointer? {
        guard !finished else { return nil }
        // The label is made only for an error: most documents need none.
        let documentNumber = number + 1
        func fatal(_ message: String) -> DocumentInputError {
            finished = true
            return DocumentInputError(label: String(documentNumber), message: message, recoverable: false)
        }
        try fill(4)
        let available = buffer.end - buffer.start
        if available == 0 {
            finished = true
            return nil
        }
        if available < 4 {
            throw fatal(
                "truncated BSON: \(available) byte\(available == 1 ? "" : "s") after the last document cannot hold a document length"
            )
        }
        let p = buffer.base + buffer.start
        let length = Int(UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24)
        if length < 5 {
            throw fatal(
                "invalid BSON document length \(Int32(truncatingIfNeeded: length)) (a document takes at least 5 bytes)")
        }
        if length > InterchangeLimits.maxDocumentBytes {
            throw fatal(
                "BSON document length prefix says \(length) bytes, over the \(InterchangeLimits.maxDocumentBytes >> 20) MB limit: the file is corrupt or not BSON"
            )
        }
        if let size = input.size, Int64(length) > size - consumed {
            throw fatal(
                "truncated BSON document: its length prefix says \(length) bytes but only \(size - consumed) remain")
        }
        try fill(length)
        if buffer.end - buffer.start < length {
            throw fatal(
                "truncated BSON document: its length prefix says \(length) bytes but only \(buffer.end - buffer.start) remain"
            )
        }
        number += 1
        let documentStart = buffer.start
        buffer.start += length
        consumed += Int64(length)
        if buffer.base[documentStart + length - 1] != 0 {
            throw fatal("invalid BSON document: it does not end with a 0x00 byte (over-long or corrupt)")
        }
        last = documentStart..<(documentStart + length)
        return buffer.bytes(last)
    }

    /// The document of the last ``nextBytes()``, decoded as ``next()`` decodes it.
    package func decodeLast() throws -> DecodedDocument {
        let label = lastLabel
        do throws(BSONValueDecoder.Failure) {
            let doc = try decoder.decode(buffer.bytes(last))
            return DecodedDocument(className: nil, label: label, document: doc)
        } catch {
            // The frame was sound, so the following documents can still be read.
            throw DocumentInputError(label: label, path: error.path, message: error.message, recoverable: true)
        }
    }

    /// Reads until `count` bytes are buffered or the input ends. The buffer grows by doubling as
    /// bytes really arrive, so a huge length prefix on a pipe cannot reserve memory up front.
    private func fill(_ count: Int) throws {
        if buffer.end - buffer.start >= count { return }
        buffer.compact()
        while buffer.end < count {
            if try buffer.read(from: input) == 0 { return }
        }
    }
}
