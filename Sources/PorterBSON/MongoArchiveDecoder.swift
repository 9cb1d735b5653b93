import Foundation
import PorterDocument
import PorterModel

/// mongodump `--archive` files (plain; gzip is undone before the format is chosen), recognized by
/// their magic number. Each document's class is its collection's name.
package struct MongoArchiveFormat: DocumentInputFormat {
    /// Creates the format.
    package init() {}
    /// `--format archive`.
    package var names: [String] { ["archive"] }
    /// `.archive` files (mongodump's archives have no fixed extension; content decides).
    package var fileExtensions: [String] { ["archive"] }
    /// The magic number 0x8199e26d.
    package func recognizes(prefix: [UInt8]) -> Bool { MongoArchive.isArchive(prefix) }
    /// An archive reader.
    package func makeDecoder(input: ByteInput, context: DecoderContext) throws -> DocumentDecoder {
        MongoArchiveDecoder(input: input, database: context.database)
    }
}

/// Reads a mongodump archive as mongorestore's demultiplexer does (mongo-tools
/// `common/archive/demultiplexer.go`, `parser.go`, `prelude.go`): the prelude's collection
/// metadata, then interleaved segments, checking each collection's CRC-64 at its EOF header.
/// Documents of one database are yielded (`--db`, or the only one the archive holds).
package final class MongoArchiveDecoder: DocumentDecoder {
    private let input: ByteInput
    private let requestedDatabase: String?
    private let decoder = BSONValueDecoder()
    private let buffer = ReadBuffer()
    private var database: String?
    private var started = false
    private var finished = false
    /// The collection whose segment is being read, nil between segments.
    private var segment: String?
    private var segmentDatabase: String?
    private var checksums: [String: CRC64] = [:]
    private var counts: [String: Int] = [:]
    private var open: Set<String> = []
    /// The metadata.json text of each collection of the chosen database.
    package private(set) var dumpMetadata: [String: String] = [:]

    /// Creates a decoder; `database` picks one database of a multi-database archive.
    package init(input: ByteInput, database: String?) {
        self.input = input
        requestedDatabase = database
    }

    /// The chosen database (once the prelude is read): documents are named by its collections.
    package var collectionsDatabase: String? { database ?? requestedDatabase ?? "" }

    /// Archives declare no fixture version.
    package var fixtureSchemaVersion: UInt64? { nil }

    private func fatal(_ message: String, label: String = "") -> DocumentInputError {
        finished = true
        return DocumentInputError(label: label, message: message, recoverable: false)
    }

    /// The next document of the chosen database, nil at the end.
    package func next() throws -> DecodedDocument? {
        guard !finished else { return nil }
        if !started { try readPrelude() }
        while true {
            guard let length = try readLength() else {
                finished = true
                if segment != nil || !open.isEmpty {
                    let names = (open.union(segment.map { [$0] } ?? [])).sorted().joined(separator: ", ")
                    throw fatal("truncated archive: it ends before the EOF marker of \(names)")
                }
                return nil
            }
            if length == -1 {
                // A terminator ends the current segment.
                guard segment != nil else {
                    throw fatal("corrupt archive: a terminator where a namespace header was expected")
                }
                segment = nil
                continue
            }
            let bytes = try readDocument(length)
            if let collection = segment {
                let key = (segmentDatabase ?? "") + "." + collection
                bytes.withUnsafeBytes { checksums[key, default: CRC64()].update($0) }
                guard segmentDatabase == database else { continue }
                counts[collection, default: 0] += 1
                let label = "\(collection)#\(counts[collection]!)"
                let decoded = bytes.withUnsafeBytes { raw -> Result<Document, BSONValueDecoder.Failure> in
                    do throws(BSONValueDecoder.Failure) { return .success(try decoder.decode(raw)) } catch {
                        return .failure(error)
                    }
                }
                switch decoded {
                case .success(let doc): return DecodedDocument(className: collection, label: label, document: doc)
                case .failure(let error):
                    throw DocumentInputError(label: label, path: error.path, message: error.message, recoverable: true)
                }
            }
            try readNamespaceHeader(bytes)
        }
    }

    private func readPrelude() throws {
        started = true
        try fill(4)
        guard buffer.end - buffer.start >= 4,
            MongoArchive.isArchive(Array(buffer.bytes(buffer.start..<(buffer.start + 4))))
        else {
            throw fatal("not a mongodump archive (it does not start with the archive magic number)")
        }
        buffer.start += 4
        guard let headerLength = try readLength(), headerLength > 0 else {
            throw fatal("truncated archive: no prelude header")
        }
        let header = try fields(try readDocument(headerLength), what: "prelude header")
        if case .string(let version)? = header["version"], version != MongoArchive.formatVersion {
            throw fatal(
                "unsupported archive format version '\(version)' (Porter reads version \(MongoArchive.formatVersion))")
        }
        var databases: [String] = []
        var metadata: [(db: String, collection: String, text: String)] = []
        while true {
            guard let length = try readLength() else { throw fatal("truncated archive: the prelude has no terminator") }
            if length == -1 { break }
            let fields = try fields(try readDocument(length), what: "collection metadata")
            guard case .string(let db)? = fields["db"], case .string(let collection)? = fields["collection"] else {
                throw fatal("corrupt archive: a collection metadata document lacks 'db' or 'collection'")
            }
            if !databases.contains(db) { databases.append(db) }
            if case .string(let text)? = fields["metadata"] { metadata.append((db, collection, text)) }
            open.insert(db + "." + collection)
        }
        if let requestedDatabase {
            guard databases.contains(requestedDatabase) else {
                throw fatal(
                    "the archive holds no database '\(requestedDatabase)' (it holds: \(databases.joined(separator: ", ")))"
                )
            }
            database = requestedDatabase
        } else if databases.count > 1 {
            throw fatal(
                "the archive holds several databases (\(databases.joined(separator: ", "))): pass --db NAME to pick one"
            )
        } else {
            database = databases.first
        }
        for entry in metadata where entry.db == database { dumpMetadata[entry.collection] = entry.text }
    }

    private func readNamespaceHeader(_ bytes: [UInt8]) throws {
        let header = try fields(bytes, what: "namespace header")
        guard case .string(let db)? = header["db"], case .string(let collection)? = header["collection"] else {
            throw fatal("corrupt archive: a namespace header lacks 'db' or 'collection'")
        }
        let key = db + "." + collection
        if case .bool(true)? = header["EOF"] {
            let crc: Int64
            switch header["CRC"] {
            case .int64(let n)?: crc = n
            case .int32(let n)?: crc = Int64(n)
            default: crc = 0
            }
            let computed = Int64(bitPattern: checksums[key]?.value ?? 0)
            if crc != 0 || computed != 0, crc != computed {
                throw fatal("corrupt archive: the documents of \(key) do not match the CRC of its EOF marker")
            }
            open.remove(key)
            // The EOF header is followed by its own terminator.
            guard let next = try readLength(), next == -1 else {
                throw fatal("corrupt archive: no terminator after the EOF marker of \(key)")
            }
            return
        }
        segment = collection
        segmentDatabase = db
    }

    private func fields(_ bytes: [UInt8], what: String) throws -> [String: MongoArchive.HeaderValue] {
        do {
            return try bytes.withUnsafeBytes { try MongoArchive.headerFields($0) }
        } catch let error as PorterError {
            throw fatal("corrupt archive \(what): \(error.message)")
        }
    }

    /// The next int32 length prefix (-1 for a terminator), nil at the end of the input.
    private func readLength() throws -> Int? {
        try fill(4)
        let available = buffer.end - buffer.start
        if available == 0 { return nil }
        guard available >= 4 else {
            throw fatal("truncated archive: \(available) stray byte\(available == 1 ? "" : "s") at its end")
        }
        let p = buffer.base + buffer.start
        let value = Int32(bitPattern: UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24)
        if value == -1 {
            buffer.start += 4
            return -1
        }
        guard value >= 5, Int(value) <= InterchangeLimits.maxDocumentBytes else {
            throw fatal("corrupt archive: a BSON length prefix says \(value) bytes")
        }
        return Int(value)
    }

    /// The `length` bytes of the document whose length prefix is next.
    private func readDocument(_ length: Int) throws -> [UInt8] {
        try fill(length)
        guard buffer.end - buffer.start >= length else {
            throw fatal(
                "truncated archive: a document's length prefix says \(length) bytes but only \(buffer.end - buffer.start) remain"
            )
        }
        let bytes = Array(buffer.bytes(buffer.start..<(buffer.start + length)))
        buffer.start += length
        guard bytes.last == 0 else { throw fatal("corrupt archive: a document does not end with a 0x00 byte") }
        return bytes
    }

    private func fill(_ count: Int) throws {
        if buffer.end - buffer.start >= count { return }
        buffer.compact()
        while buffer.end < count {
            if try buffer.read(from: input) == 0 { return }
        }
    }
}
