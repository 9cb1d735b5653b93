/// One array ("node") of the file: the 8-byte header decoded, payload bounds already checked.
///
/// Header byte 4: bit 7 inner B+tree node, bit 6 has refs, bit 5 context flag, bits 3–4 width
/// type (0 bits, 1 multiply, 2 ignore), bits 0–2 width index; bytes 5–7 the element count,
/// big-endian (realm-core `node_header.hpp`).
struct Node {
    /// The node's file offset.
    let ref: Int
    /// Header byte 4.
    let flags: UInt8
    /// The element count.
    let count: Int
    /// Bits per element (width type 0) or bytes per element (width type 1).
    let width: Int
    /// The payload (just after the header).
    let data: UnsafeRawPointer
    /// The payload's length in bytes (checked to lie inside the file).
    let byteCount: Int

    var isInner: Bool { flags & 0x80 != 0 }
    var hasRefs: Bool { flags & 0x40 != 0 }
    var context: Bool { flags & 0x20 != 0 }
    var widthType: Int { Int(flags >> 3) & 3 }

    /// Element `i` of an integer array (`i < count` checked by the caller): widths 1/2/4 unsigned,
    /// 8/16/32/64 signed little-endian (`array_direct.hpp`).
    @inline(__always)
    func int(_ i: Int) -> Int64 {
        switch width {
        case 0: return 0
        case 1: return Int64((data.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
        case 2: return Int64((data.load(fromByteOffset: i >> 2, as: UInt8.self) >> UInt8((i & 3) << 1)) & 3)
        case 4: return Int64((data.load(fromByteOffset: i >> 1, as: UInt8.self) >> UInt8((i & 1) << 2)) & 15)
        case 8: return Int64(data.load(fromByteOffset: i, as: Int8.self))
        case 16: return Int64(Int16(littleEndian: data.loadUnaligned(fromByteOffset: i << 1, as: Int16.self)))
        case 32: return Int64(Int32(littleEndian: data.loadUnaligned(fromByteOffset: i << 2, as: Int32.self)))
        default: return Int64(littleEndian: data.loadUnaligned(fromByteOffset: i << 3, as: Int64.self))
        }
    }

    /// Element `i` read as unsigned (`ArrayUnsigned`: cluster keys, B+tree offsets).
    @inline(__always)
    func unsigned(_ i: Int) -> UInt64 {
        switch width {
        case 8: return UInt64(data.load(fromByteOffset: i, as: UInt8.self))
        case 16: return UInt64(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
        case 32: return UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
        default: return UInt64(bitPattern: int(i))
        }
    }

    /// Element `i`, bounds-checked.
    func get(_ i: Int) throws(RealmFault) -> Int64 {
        guard i >= 0, i < count else {
            throw RealmFault("index \(i) is beyond the \(count) elements of the node at \(hex(Int64(ref)))")
        }
        return int(i)
    }

    /// Slot `i` of a has-refs array as a ref (0 = none); a tagged integer there is corruption.
    func ref(_ i: Int) throws(RealmFault) -> Int64 {
        let v = try get(i)
        guard v & 1 == 0 else {
            throw RealmFault("slot \(i) of the node at \(hex(Int64(ref))) holds a number where a ref belongs")
        }
        return v
    }

    /// Slot `i` of a has-refs array as a tagged integer (`value << 1 | 1`).
    func tagged(_ i: Int) throws(RealmFault) -> Int64 {
        let v = try get(i)
        guard v & 1 == 1 else {
            throw RealmFault("slot \(i) of the node at \(hex(Int64(ref))) holds a ref where a number belongs")
        }
        return v >> 1
    }

    /// Throws unless this is an integer array (width type "bits").
    func requireIntegers(_ what: @autoclosure () -> String) throws(RealmFault) {
        guard widthType == 0 else {
            throw RealmFault("the node at \(hex(Int64(ref))) is not an integer array (\(what()))")
        }
    }
}
