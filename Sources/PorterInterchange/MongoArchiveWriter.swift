import Foundation
import PorterDocument

/// Writes an archive that mongorestore reads: the prelude first, then each collection as one
/// segment (header, documents, terminator) and its EOF header with the documents' CRC.
package final class MongoArchiveWriter {
    /// The archive's bytes go here (possibly through gzip).
    package let output: ByteOutput
    /// The database name written in every namespace.
    package let database: String
    private var current: String?
    private var wroteDocuments = false

    /// Writes the magic number, the header and one metadata document per collection
    /// (`collections`: name and metadata JSON text, in the order they will follow).
    package init(output: ByteOutput, database: String, collections: [(name: String, metadata: String)]) throws {
        self.output = output
        self.database = database
        try output.write(MongoArchive.magic)
        try output.write(
            MongoArchive.headerDocument([
                ("concurrent_collections", .int32(1)), ("version", .string(MongoArchive.formatVersion)),
                ("server_version", .string("0.0.0")), ("tool_version", .string("porter")),
            ]))
        for collection in collections {
            try output.write(
                MongoArchive.headerDocument([
                    ("db", .string(database)), ("collection", .string(collection.name)),
                    ("metadata", .string(collection.metadata)), ("size", .int32(0)), ("type", .string("collection")),
                ]))
        }
        try output.write(MongoArchive.terminator)
    }

    /// Starts a collection's documents: they are checksummed until ``endCollection()``.
    package func beginCollection(_ name: String) {
        current = name
        wroteDocuments = false
        output.checksum = CRC64()
    }

    /// Writes the namespace header before the first document of the collection (an empty
    /// collection then has only its EOF header, as the specification's grammar says).
    package func willWriteDocument() throws {
        guard !wroteDocuments, let current else { return }
        wroteDocuments = true
        let checksum = output.checksum
        output.checksum = nil
        try output.write(
            MongoArchive.headerDocument([
                ("db", .string(database)), ("collection", .string(current)), ("EOF", .bool(false)), ("CRC", .int64(0)),
            ]))
        output.checksum = checksum
    }

    /// Ends the collection's segment and writes its EOF header.
    package func endCollection() throws {
        guard let current else { return }
        let crc = output.checksum?.value ?? 0
        output.checksum = nil
        if wroteDocuments { try output.write(MongoArchive.terminator) }
        try output.write(
            MongoArchive.headerDocument([
                ("db", .string(database)), ("collection", .string(current)), ("EOF", .bool(true)),
                ("CRC", .int64(Int64(bitPattern: crc))),
            ]))
        try output.write(MongoArchive.terminator)
        self.current = nil
    }
}
