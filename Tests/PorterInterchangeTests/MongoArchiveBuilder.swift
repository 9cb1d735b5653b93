import Foundation

/// Builds mongodump archives from the specification alone (mongo-tools `common/archive/spec.md`,
/// `archive.go`, `multiplexer.go`), independently of Porter's writer: magic number, prelude
/// header, one collection-metadata document per collection, terminator, then segments
/// (namespace header, documents, terminator) and per collection an EOF header carrying the
/// CRC-64/ECMA (Go's `crc64.ECMA` table, as the multiplexer hashes) of its documents.
struct MongoArchiveBuilder {
    var database = "test"
    var collections: [(name: String, metadata: String)] = []
    /// Body parts in order: a segment of documents, or the EOF of a collection.
    enum Part { case segment(String, [[UInt8]]), eof(String), corruptEOF(String) }
    var parts: [Part] = []

    func bytes() -> [UInt8] {
        var out: [UInt8] = [0x6D, 0xE2, 0x99, 0x81]
        out += BSONBytes.document {
            $0.appendElement(0x10, "concurrent_collections", le32(4))
            $0.string("version", "0.1")
            $0.string("server_version", "6.0.3")
            $0.string("tool_version", "100.5.1")
        }
        for collection in collections {
            out += BSONBytes.document {
                $0.string("db", database)
                $0.string("collection", collection.name)
                $0.string("metadata", collection.metadata)
                $0.appendElement(0x10, "size", le32(0))
                $0.string("type", "collection")
            }
        }
        out += [0xFF, 0xFF, 0xFF, 0xFF]
        var crcs: [String: UInt64] = [:]
        for part in parts {
            switch part {
            case .segment(let name, let documents):
                out += namespaceHeader(name, eof: false, crc: 0)
                for document in documents {
                    out += document
                    crcs[name] = Self.crc64(document, crcs[name] ?? 0)
                }
                out += [0xFF, 0xFF, 0xFF, 0xFF]
            case .eof(let name), .corruptEOF(let name):
                var crc = crcs[name] ?? 0
                if case .corruptEOF = part { crc ^= 1 }
                out += namespaceHeader(name, eof: true, crc: crc)
                out += [0xFF, 0xFF, 0xFF, 0xFF]
            }
        }
        return out
    }

    private func namespaceHeader(_ name: String, eof: Bool, crc: UInt64) -> [UInt8] {
        BSONBytes.document {
            $0.string("db", database)
            $0.string("collection", name)
            $0.bool("EOF", eof)
            $0.int64("CRC", Int64(bitPattern: crc))
        }
    }

    /// Bit-by-bit CRC-64 (reflected ECMA-182 polynomial, inverted in and out), continuing `crc`.
    static func crc64(_ bytes: [UInt8], _ crc: UInt64 = 0) -> UInt64 {
        var state = ~crc
        for byte in bytes {
            state ^= UInt64(byte)
            for _ in 0..<8 { state = state & 1 == 1 ? (state >> 1) ^ 0xC96C_5795_D787_0F42 : state >> 1 }
        }
        return ~state
    }
}

private func le32(_ v: Int32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32($0))) }
}
