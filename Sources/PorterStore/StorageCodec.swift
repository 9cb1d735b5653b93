import PorterCSQLite
import Foundation
import PorterModel

/// How each property type is laid out in an SQLite column.
///
/// Columns are declared without a type, so SQLite applies no affinity and never rewrites a value
/// (a REAL column would store 1.0 as an integer and lose -0.0). Native storage classes are used
/// where they are exact and keep SQL comparisons meaningful: bool, int and links as INTEGER; float
/// and double as REAL; string as TEXT; data, decimal128, objectId and uuid as BLOB. A date is a
/// 12-byte BLOB that sorts by time under SQLite's bytewise blob order (see ``dateBytes(_:)``); files
/// of format 1 held microseconds as INTEGER, which ``read(_:_:type:objectType:)`` still understands.
/// Two doubles SQLite cannot hold as REAL (NaN becomes NULL, and -0.0) are kept as their bit pattern
/// in an 8-byte blob. A `mixed` column needs the type too: int, double and string stay
/// native; everything else is a blob whose first byte is a ``MixedTag`` (a nested list or dictionary
/// is one blob too, see ``NestedMixedCodec``).
package enum StorageCodec {
    /// First byte of a tagged blob in a `mixed` column.
    enum MixedTag: UInt8 {
        case bool = 1, float = 2, data = 3, date = 4, decimal128 = 5, objectId = 6, uuid = 7, doubleBits = 8, link = 9
        /// A nested list or dictionary of mixed values (file format 2).
        case list = 10, map = 11
        /// Inside nested collections only: values a column keeps natively.
        case int = 12, string = 13, null = 14
    }

    /// The highest tag a `mixed` column may start with.
    static let lastColumnTag = MixedTag.map.rawValue

    /// A date as 12 bytes whose bytewise order is time order: the seconds (sign bit flipped, so
    /// negative sorts first) then the nanoseconds (sign bit flipped), both big-endian. Both parts
    /// carry the instant's sign, so (seconds, nanoseconds) order is time order; every int64 of
    /// seconds fits.
    static func dateBytes(_ t: Timestamp) -> [UInt8] {
        bigEndianBytes(UInt64(bitPattern: t.seconds) ^ (1 << 63), count: 8)
            + bigEndianBytes(UInt64(UInt32(bitPattern: t.nanoseconds) ^ (1 << 31)), count: 4)
    }

    /// The date of a column's bytes as SQLite hands them out (see the generic `timestamp(_:)`), read
    /// as two big-endian words: the generic version folded the bytes one at a time (about 280
    /// instructions a date).
    static func timestamp(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        switch bytes.count {
        case 12:
            let seconds = Int64(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)) ^ (1 << 63))
            let nanos = Int32(
                bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) ^ (1 << 31))
            return validTimestamp(seconds: seconds, nanos: nanos)
        case 8:
            return Timestamp(microseconds: Int64(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))))
        default:
            return nil
        }
    }

    /// The timestamp of seconds and nanoseconds read from a stored date; nil when the nanoseconds
    /// are out of range or of the other sign than the seconds.
    private static func validTimestamp(seconds: Int64, nanos: Int32) -> Timestamp? {
        // `magnitude`, not `abs`: the nanoseconds of a damaged date may be Int32.min.
        guard nanos.magnitude < 1_000_000_000, !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0) else {
            return nil
        }
        return Timestamp(seconds: seconds, nanoseconds: nanos)
    }

    /// The date ``dateBytes(_:)`` wrote, or one of format 1 (8 bytes of microseconds, big-endian).
    static func timestamp<C: Collection>(_ bytes: C) -> Timestamp? where C.Element == UInt8 {
        switch bytes.count {
        case 12:
            let seconds = Int64(bitPattern: readBigEndian(bytes.prefix(8)) ^ (1 << 63))
            let nanos = Int32(bitPattern: UInt32(readBigEndian(bytes.dropFirst(8))) ^ (1 << 31))
            return validTimestamp(seconds: seconds, nanos: nanos)
        case 8:
            return Timestamp(microseconds: Int64(bitPattern: readBigEndian(bytes)))
        default:
            return nil
        }
    }

    /// Binds a validated value of property type `type` (links already resolved to keys).
    package static func bind(_ value: Value, type: PropertyType, to stmt: SQLiteStatement, at i: Int32) {
        switch value {
        case .null: sqlite3_bind_null(stmt.handle, i)
        case .bool(let b):
            if type == .mixed {
                stmt.bind(i, blob: [MixedTag.bool.rawValue, b ? 1 : 0])
            } else {
                stmt.bind(i, int: b ? 1 : 0)
            }
        case .int(let v): stmt.bind(i, int: v)
        case .float(let f):
            if type == .mixed {
                stmt.bind(i, blob: [MixedTag.float.rawValue] + bigEndianBytes(UInt64(f.bitPattern), count: 4))
            } else if f.isNaN || (f == 0 && f.sign == .minus) {
                stmt.bind(i, blob: bigEndianBytes(UInt64(f.bitPattern), count: 4))
            } else {
                sqlite3_bind_double(stmt.handle, i, Double(f))
            }
        case .double(let d):
            if d.isNaN || (d == 0 && d.sign == .minus) {
                stmt.bind(
                    i,
                    blob: (type == .mixed ? [MixedTag.doubleBits.rawValue] : [])
                        + bigEndianBytes(d.bitPattern, count: 8))
            } else {
                sqlite3_bind_double(stmt.handle, i, d)
            }
        case .string(let s): stmt.bind(i, text: s)
        case .data(let d):
            if type == .mixed { stmt.bind(i, blob: [MixedTag.data.rawValue] + d) } else { stmt.bind(i, blob: d) }
        case .date(let t):
            if type == .mixed { return stmt.bind(i, blob: [MixedTag.date.rawValue] + dateBytes(t)) }
            // The hot path (date columns and collections) writes the 12 bytes without arrays.
            withUnsafeTemporaryAllocation(byteCount: 12, alignment: 8) { raw in
                raw.storeBytes(
                    of: (UInt64(bitPattern: t.seconds) ^ (1 << 63)).bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(
                    of: (UInt32(bitPattern: t.nanoseconds) ^ (1 << 31)).bigEndian, toByteOffset: 8, as: UInt32.self)
                stmt.bind(i, rawBlob: UnsafeRawBufferPointer(raw))
            }
        case .decimal128(let d):
            if type == .mixed { return stmt.bind(i, blob: [MixedTag.decimal128.rawValue] + d.bsonBytes) }
            // Little-endian, low half first (the BSON layout), without building arrays.
            withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { raw in
                raw.storeBytes(of: d.low.littleEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: d.high.littleEndian, toByteOffset: 8, as: UInt64.self)
                stmt.bind(i, rawBlob: UnsafeRawBufferPointer(raw))
            }
        case .objectId(let o):
            if type == .mixed { return stmt.bind(i, blob: [MixedTag.objectId.rawValue] + o.bytes) }
            withUnsafeTemporaryAllocation(byteCount: 12, alignment: 8) { raw in
                o.copyBytes(to: raw.baseAddress!)
                stmt.bind(i, rawBlob: UnsafeRawBufferPointer(raw))
            }
        case .uuid(let u):
            if type == .mixed { return stmt.bind(i, blob: [MixedTag.uuid.rawValue] + uuidBytes(u)) }
            withUnsafeBytes(of: u.uuid) { stmt.bind(i, rawBlob: $0) }
        case .link(let link):
            if type == .mixed { stmt.bind(i, blob: mixedLinkBytes(link)) } else { stmt.bind(i, int: link.key.rawValue) }
        case .list where type == .mixed, .map where type == .mixed:
            stmt.bind(i, blob: NestedMixedCodec.encode(value))
        case .list, .set, .map, .object:
            // Collections and embedded objects live in their own tables; callers never bind them.
            sqlite3_bind_null(stmt.handle, i)
        }
    }

    /// The blob a `mixed` column stores for a link; equal links give equal blobs, so `=` finds them.
    static func mixedLinkBytes(_ link: ObjectLink) -> [UInt8] {
        [MixedTag.link.rawValue] + bigEndianBytes(UInt64(bitPattern: link.key.rawValue), count: 8)
            + Array(link.className.utf8)
    }

    /// Reads column `i` as a value of property type `type`; `objectType` names a link's target.
    package static func read(_ stmt: SQLiteStatement, _ i: Int32, type: PropertyType, objectType: String?) throws
        -> Value
    {
        // Through SQLite's value object: no lock and error check per call, as `sqlite3_column_*` makes.
        let column = stmt.column(i)
        let storage = column.type
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .bool: return .bool(column.int64 != 0)
        case .int: return .int(column.int64)
        case .float:
            if storage == SQLITE_BLOB { return .float(Float(bitPattern: UInt32(readBigEndian(column.blob[...])))) }
            return .float(Float(column.double))
        case .double:
            if storage == SQLITE_BLOB { return .double(Double(bitPattern: readBigEndian(column.blob[...]))) }
            return .double(column.double)
        case .string: return .string(column.text)
        case .data: return .data(Data(column.blob))
        case .date:
            // Format 1 stored microseconds as INTEGER.
            if storage == SQLITE_INTEGER { return .date(Timestamp(microseconds: column.int64)) }
            return .date(try column.withBlob { try decode(timestamp($0), "date") })
        case .decimal128:
            return .decimal128(try column.withBlob { try decode(Decimal128(rawBytes: $0), "decimal128") })
        case .objectId:
            return .objectId(try column.withBlob { try decode(ObjectId(rawBytes: $0), "objectId") })
        case .uuid:
            return .uuid(try column.withBlob { try decode(uuidFromBytes($0), "uuid") })
        case .object:
            return .link(ObjectLink(objectType ?? "", ObjectKey(column.int64)))
        case .mixed:
            return try readMixed(column, storage: storage)
        case .linkingObjects:
            return .null
        }
    }

    private static func readMixed(_ column: SQLiteColumn, storage: Int32) throws -> Value {
        switch storage {
        case SQLITE_INTEGER: return .int(column.int64)
        case SQLITE_FLOAT: return .double(column.double)
        case SQLITE_TEXT: return .string(column.text)
        default: break
        }
        let bytes = column.blob
        guard let first = bytes.first, let tag = MixedTag(rawValue: first) else {
            throw PorterError(.notADatabase, "corrupt mixed value (unknown tag)")
        }
        switch tag {
        case .list, .map: return try NestedMixedCodec.decode(bytes)
        case .int, .string, .null:
            throw PorterError(.notADatabase, "corrupt mixed value (tag \(first) outside a nested collection)")
        default: return try decodeTagged(tag, bytes[1...])
        }
    }

    /// A scalar or link after its tag: shared by `mixed` columns and nested collections.
    static func decodeTagged(_ tag: MixedTag, _ payload: ArraySlice<UInt8>) throws -> Value {
        switch tag {
        case .bool: return .bool(payload.first == 1)
        case .float: return .float(Float(bitPattern: UInt32(readBigEndian(payload))))
        case .doubleBits: return .double(Double(bitPattern: readBigEndian(payload)))
        case .data: return .data(Data(payload))
        case .date: return .date(try decode(timestamp(payload), "date"))
        case .decimal128: return .decimal128(try decode(Decimal128(bsonBytes: payload), "decimal128"))
        case .objectId: return .objectId(try decode(ObjectId(bytes: payload), "objectId"))
        case .uuid: return .uuid(try decode(uuidFromBytes(payload), "uuid"))
        case .link:
            guard payload.count >= 8 else { throw PorterError(.notADatabase, "corrupt mixed link") }
            let key = Int64(bitPattern: readBigEndian(payload.prefix(8)))
            let name = String(decoding: payload.dropFirst(8), as: UTF8.self)
            return .link(ObjectLink(name, ObjectKey(key)))
        case .int: return .int(Int64(bitPattern: readBigEndian(payload)))
        case .string: return .string(String(decoding: payload, as: UTF8.self))
        case .null: return .null
        case .list, .map: throw PorterError(.notADatabase, "corrupt mixed value (collection tag in a scalar)")
        }
    }

    private static func decode<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw PorterError(.notADatabase, "corrupt \(what) value in database") }
        return value
    }
}

/// `count` low-order bytes of `value`, most significant first.
func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
}

/// Reads up to 8 bytes as a big-endian number.
func readBigEndian<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}

/// The 16 bytes of a UUID in canonical order.
func uuidBytes(_ u: UUID) -> [UInt8] {
    withUnsafeBytes(of: u.uuid) { Array($0) }
}

/// A UUID from exactly 16 bytes.
func uuidFromBytes<C: Collection>(_ bytes: C) -> UUID? where C.Element == UInt8 {
    guard bytes.count == 16 else { return nil }
    let b = Array(bytes)
    return UUID(
        uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
}
