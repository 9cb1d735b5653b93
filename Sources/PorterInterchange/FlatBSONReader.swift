import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// Reads documents of a flat class (scalar properties only) straight from their BSON bytes into a
/// row for ``BulkInserter/insert(row:)``: no `Document`, no `String` per key or text value.
///
/// It takes only documents it is sure the general path (``BSONValueDecoder`` then
/// ``ObjectReader``) would accept, and reads the same values from them: well-formed bytes, every
/// field a property of the class (its name compared byte for byte), written as a BSON type whose
/// reading is exact (an ObjectId for an ObjectId, an int32 or int64 for an int, ASCII text for a
/// string, …), no field twice, the primary key and every required property given. For anything
/// else (a wrong or converted type, a missing, unknown or repeated field, non-ASCII text, corrupt
/// bytes) ``read(_:)`` returns false and the caller reads the document by the general path, which
/// accepts or reports it exactly as it always has.
final class FlatBSONReader {
    /// How a property's value may be written for this reader.
    private enum Kind {
        case bool, int, float, double, string, data, date, decimal128, objectId, uuid
    }

    private let kinds: [Kind]
    private let optional: [Bool]
    /// Properties a document must give here: the required ones and the primary key.
    private let required: [Int]
    /// The property names' UTF-8, one after another, and where each starts and ends.
    private let nameBytes: [UInt8]
    private let nameStarts: [Int]
    private let nameLengths: [Int]
    /// The row of the last document read, by position in the class's declared properties
    /// (allocated once: filling it per document takes no retain, no uniqueness check).
    private let slots: UnsafeMutableBufferPointer<RowValue>

    /// The row of the last document read.
    var row: UnsafeBufferPointer<RowValue> { UnsafeBufferPointer(slots) }

    /// A reader for the class of `plan`, or nil when the class is not flat: embedded, or with a
    /// link, mixed, collection or computed property.
    init?(_ plan: ClassReadPlan) {
        guard !plan.isEmbedded else { return nil }
        var kinds: [Kind] = []
        for property in plan.properties {
            guard property.collection == .none, !property.isComputed, let kind = Self.kind(property.type) else {
                return nil
            }
            kinds.append(kind)
        }
        self.kinds = kinds
        optional = plan.properties.map(\.isOptional)
        required = plan.requiredIndexes + (plan.primaryKeyIndex.map { [$0] } ?? [])
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int] = []
        for property in plan.properties {
            starts.append(bytes.count)
            lengths.append(property.name.utf8.count)
            bytes.append(contentsOf: property.name.utf8)
        }
        nameBytes = bytes
        nameStarts = starts
        nameLengths = lengths
        slots = .allocate(capacity: kinds.count)
        slots.initialize(repeating: .absent)
    }

    deinit {
        slots.deallocate()
    }

    private static func kind(_ type: PropertyType) -> Kind? {
        switch type {
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .data
        case .date: return .date
        case .decimal128: return .decimal128
        case .objectId: return .objectId
        case .uuid: return .uuid
        case .mixed, .object, .linkingObjects: return nil
        }
    }

    /// Reads one framed document (its length prefix and final 0x00 already checked) into `row`;
    /// false when the document is one for the general path. Text and blobs in `row` point into
    /// `document`.
    func read(_ document: UnsafeRawBufferPointer) -> Bool {
        guard let base = document.baseAddress, document.count >= 5 else { return false }
        let row = slots
        for i in row.indices { row[i] = .absent }
        // The last byte is the document's terminator: every element ends before it.
        let end = document.count - 1
        var offset = 4
        var expected = 0
        return nameBytes.withUnsafeBytes { names in
            while offset < end {
                let type = base.load(fromByteOffset: offset, as: UInt8.self)
                offset += 1
                guard let nul = memchr(base + offset, 0, end - offset) else { return false }
                let keyLength = UnsafeRawPointer(nul) - (base + offset)
                guard let index = property(named: base + offset, keyLength, expected: expected, names),
                    row[index].kind == .absent
                else { return false }
                offset += keyLength + 1
                guard let (value, size) = element(type, base, offset, end, index) else { return false }
                row[index] = value
                offset += size
                expected = index + 1
            }
            // `offset == end`: the elements fill the document exactly.
            guard offset == end else { return false }
            for index in required where row[index].kind == .absent { return false }
            return true
        }
    }

    /// The position of the property whose name is the key's bytes (the expected one first:
    /// documents list fields in schema order, exports do).
    @inline(__always)
    private func property(
        named key: UnsafeRawPointer, _ length: Int, expected: Int, _ names: UnsafeRawBufferPointer
    ) -> Int? {
        func matches(_ i: Int) -> Bool {
            nameLengths[i] == length && (length == 0 || memcmp(names.baseAddress! + nameStarts[i], key, length) == 0)
        }
        if expected < kinds.count, matches(expected) { return expected }
        for i in kinds.indices where matches(i) { return i }
        return nil
    }

    /// The value of the element of BSON `type` at `offset` for property `index`, and the bytes it
    /// takes; nil when the general path must read it.
    @inline(__always)
    private func element(_ type: UInt8, _ base: UnsafeRawPointer, _ offset: Int, _ end: Int, _ index: Int)
        -> (RowValue, Int)?
    {
        func fits(_ size: Int) -> Bool { size >= 0 && size <= end - offset }
        func int32() -> Int32 { Int32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int32.self)) }
        func int64() -> Int64 { Int64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
        func double() -> Double {
            Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        func bytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: base + start, count: count)
        }
        switch (kinds[index], type) {
        case (_, 0x0A):  // null
            return optional[index] ? (RowValue(.null), 0) : nil
        case (.bool, 0x08):
            guard fits(1) else { return nil }
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            return byte <= 1 ? (RowValue(.bool, bits: UInt64(byte)), 1) : nil
        case (.int, 0x10):
            return fits(4) ? (RowValue(.int, bits: UInt64(bitPattern: Int64(int32()))), 4) : nil
        case (.int, 0x12):
            return fits(8) ? (RowValue(.int, bits: UInt64(bitPattern: int64())), 8) : nil
        case (.double, 0x01):
            return fits(8) ? (RowValue(.double, bits: double().bitPattern), 8) : nil
        case (.double, 0x10):
            return fits(4) ? (RowValue(.double, bits: Double(int32()).bitPattern), 4) : nil
        case (.float, 0x01):
            guard fits(8) else { return nil }
            let d = double()
            let f = Float(d)
            // Out of a float's range: the general path reports it.
            return f.isInfinite && d.isFinite ? nil : (RowValue(.float, bits: UInt64(f.bitPattern)), 8)
        case (.float, 0x10):
            return fits(4) ? (RowValue(.float, bits: UInt64(Float(int32()).bitPattern)), 4) : nil
        case (.string, 0x02):
            guard fits(4) else { return nil }
            let length = Int(int32())
            guard length >= 1, fits(4 + length), base.load(fromByteOffset: offset + 3 + length, as: UInt8.self) == 0
            else { return nil }
            let text = bytes(offset + 4, length - 1)
            guard length - 1 <= Database.maxBinarySize, Self.isASCII(text) else { return nil }
            return (RowValue(.text, bytes: text), 4 + length)
        case (.date, 0x09):
            return fits(8) ? (RowValue(.date, bits: UInt64(bitPattern: int64())), 8) : nil
        case (.objectId, 0x07):
            return fits(12) ? (RowValue(.blob, bytes: bytes(offset, 12)), 12) : nil
        case (.decimal128, 0x13):
            return fits(16) ? (RowValue(.blob, bytes: bytes(offset, 16)), 16) : nil
        case (.data, 0x05), (.uuid, 0x05):
            guard fits(5) else { return nil }
            let length = Int(int32())
            guard fits(5 + length) else { return nil }
            let subtype = base.load(fromByteOffset: offset + 4, as: UInt8.self)
            let ok =
                kinds[index] == .uuid
                ? subtype == 4 && length == 16 : subtype == 0 && length <= Database.maxBinarySize
            return ok ? (RowValue(.blob, bytes: bytes(offset + 5, length)), 5 + length) : nil
        default:
            return nil
        }
    }

    /// The value of property `index` in `row` as the general path reads it (nil when not given):
    /// a primary key for the link resolver, and what tests compare with ``ObjectReader``.
    func value(at index: Int) -> Value? {
        let slot = slots[index]
        switch slot.kind {
        case .absent: return nil
        case .text: return .string(String(decoding: slot.bytes, as: UTF8.self))
        case .blob:
            switch kinds[index] {
            case .objectId: return ObjectId(rawBytes: slot.bytes).map(Value.objectId)
            case .decimal128: return Decimal128(rawBytes: slot.bytes).map(Value.decimal128)
            case .uuid: return UUIDCodec.uuid(bytes: slot.bytes).map(Value.uuid)
            default: return .data(Data(slot.bytes))
            }
        default: return slot.scalar
        }
    }

    /// Whether every byte is below 0x80 (ASCII is valid UTF-8 by every validator).
    @inline(__always)
    private static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let raw = text.baseAddress else { return true }
        let count = text.count
        var i = 0
        var bits: UInt64 = 0
        while i + 8 <= count {
            bits |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            bits |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
