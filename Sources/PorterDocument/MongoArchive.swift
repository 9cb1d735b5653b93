import Foundation
import PorterModel

/// mongodump's `--archive` format, as mongo-tools defines it (`common/archive/spec.md`,
/// `archive.go`, `prelude.go`, `multiplexer.go`, `demultiplexer.go`):
///
///     magic 0x8199e26d (little-endian int32)
///     header   {concurrent_collections: int32, version: "0.1", server_version, tool_version}
///     one CollectionMetadata per collection {db, collection, metadata (the metadata.json text), size: int32, type}
///     terminator 0xffffffff
///     then segments: namespace header {db, collection, EOF: false, CRC: int64 0}, documents…, terminator
///     and per collection one EOF header {db, collection, EOF: true, CRC: CRC-64/ECMA of its documents}, terminator
package enum MongoArchive {
    /// The magic number's four bytes as they appear in the file.
    package static let magic: [UInt8] = [0x6D, 0xE2, 0x99, 0x81]
    /// Ends the prelude and every segment.
    package static let terminator: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
    /// The only archive format version there is.
    package static let formatVersion = "0.1"

    /// Whether `prefix` starts an archive.
    package static func isArchive(_ prefix: [UInt8]) -> Bool { prefix.starts(with: magic) }

    /// A field of the small header documents of an archive.
    package enum HeaderValue: Sendable, Equatable {
        /// UTF-8 string (BSON 0x02).
        case string(String)
        /// int32 (BSON 0x10).
        case int32(Int32)
        /// int64 (BSON 0x12).
        case int64(Int64)
        /// Boolean (BSON 0x08).
        case bool(Bool)
    }

    /// The BSON bytes of a flat header document.
    package static func headerDocument(_ fields: [(String, HeaderValue)]) -> [UInt8] {
        var body: [UInt8] = []
        func littleEndian<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
        }
        for (key, value) in fields {
            switch value {
            case .string: body.append(0x02)
            case .int32: body.append(0x10)
            case .int64: body.append(0x12)
            case .bool: body.append(0x08)
            }
            body.append(contentsOf: Array(key.utf8) + [0])
            switch value {
            case .string(let text):
                littleEndian(Int32(text.utf8.count + 1))
                body.append(contentsOf: Array(text.utf8) + [0])
            case .int32(let n): littleEndian(n)
            case .int64(let n): littleEndian(n)
            case .bool(let b): body.append(b ? 1 : 0)
            }
        }
        let length = Int32(body.count + 5)
        return withUnsafeBytes(of: length.littleEndian) { Array($0) } + body + [0]
    }

    /// The string, int, and boolean fields of a header document (other types are skipped).
    /// - Throws: a message when the bytes are not a well-formed document.
    package static func headerFields(_ bytes: UnsafeRawBufferPointer) throws -> [String: HeaderValue] {
        func int32(_ at: Int) throws -> Int32 {
            guard at + 4 <= bytes.count else { throw PorterError(.invalidInput, "truncated archive header document") }
            return Int32(
                bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(
                    bytes[at + 3]) << 24)
        }
        var fields: [String: HeaderValue] = [:]
        guard bytes.count >= 5, bytes[bytes.count - 1] == 0 else {
            throw PorterError(.invalidInput, "malformed archive header document")
        }
        var i = 4
        while i < bytes.count - 1 {
            let type = bytes[i]
            i += 1
            guard let nul = bytes[i...].firstIndex(of: 0) else {
                throw PorterError(.invalidInput, "malformed archive header document")
            }
            let key = String(decoding: bytes[i..<nul], as: UTF8.self)
            i = nul + 1
            switch type {
            case 0x02:
                let length = Int(try int32(i))
                guard length >= 1, i + 4 + length <= bytes.count else {
                    throw PorterError(.invalidInput, "malformed string in an archive header document")
                }
                fields[key] = .string(String(decoding: bytes[(i + 4)..<(i + 3 + length)], as: UTF8.self))
                i += 4 + length
            case 0x10:
                fields[key] = .int32(try int32(i))
                i += 4
            case 0x12:
                let low = UInt64(UInt32(bitPattern: try int32(i))), high = UInt64(UInt32(bitPattern: try int32(i + 4)))
                fields[key] = .int64(Int64(bitPattern: low | high << 32))
                i += 8
            case 0x08:
                guard i < bytes.count else { throw PorterError(.invalidInput, "truncated archive header document") }
                fields[key] = .bool(bytes[i] != 0)
                i += 1
            case 0x01, 0x09, 0x11:
                guard i + 8 <= bytes.count else {
                    throw PorterError(.invalidInput, "truncated archive header document")
                }
                i += 8
            case 0x0A: break
            case 0x03, 0x04:
                let length = Int(try int32(i))
                guard length >= 5, i + length <= bytes.count else {
                    throw PorterError(.invalidInput, "malformed nested document in an archive header document")
                }
                i += length
            default:
                throw PorterError(
                    .invalidInput, "unexpected BSON type 0x\(String(type, radix: 16)) in an archive header document")
            }
        }
        return fields
    }
}
