import Foundation
import PorterModel

/// Decoding the values that need nothing but the leaf (no links): ints, bools, floats, doubles,
/// strings, binaries, timestamps, decimals, ObjectIds and UUIDs (reference §1.8).
extension Leaf {
    /// Value `i` (checked against `count` by the caller) of a leaf that holds no links.
    func scalar(_ i: Int, _ mem: Mem) throws -> RealmValue {
        guard i >= 0, i < count else { throw RealmFault("value \(i) is beyond the leaf's \(count) values") }
        switch self {
        case .ints(let n, let nullable):
            if nullable {
                let v = n.int(i + 1)
                return v == n.int(0) ? .null : .int(v)
            }
            return .int(n.int(i))
        case .bools(let n):
            switch n.int(i) {
            case 0: return .bool(false)
            case 1: return .bool(true)
            default: return .null
            }
        case .floats(let n, let nullable):
            let bits = UInt32(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            if nullable && bits == 0x7FC0_00AA { return .null }
            return .float(Float(bitPattern: bits))
        case .doubles(let n, let nullable):
            let bits = UInt64(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            if nullable && bits == 0x7FF8_0000_0000_00AA { return .null }
            return .double(Double(bitPattern: bits))
        case .strings(let s):
            return try s.string(i, mem).map(RealmValue.string) ?? .null
        case .binaries(let s):
            return try s.data(i, mem).map(RealmValue.binary) ?? .null
        case .enumStrings(let n, let keys):
            let index = n.int(i)
            guard index >= 0, index < Int64(keys.count) else {
                throw RealmFault("enum string index \(index) is beyond the \(keys.count) enum keys")
            }
            return try keys.string(Int(index), mem).map(RealmValue.string) ?? .null
        case .timestamps(let seconds, let nanos):
            let s = seconds.int(i + 1)
            if s == seconds.int(0) { return .null }
            return .timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: nanos.int(i)))
        case .decimals(let n, let nullable):
            return Leaf.decimal(n, i, nullable: nullable)
        case .fixedBytes(let n, let width, _):
            let base = (i / 8) * (width * 8 + 1)
            let bit = i % 8
            if n.data.load(fromByteOffset: base, as: UInt8.self) & (1 << UInt8(bit)) != 0 { return .null }
            let bytes = UnsafeRawBufferPointer(start: n.data + base + 1 + bit * width, count: width)
            if width == 12 { return ObjectId(rawBytes: bytes).map(RealmValue.objectId) ?? .null }
            return .uuid(Leaf.uuid(bytes))
        case .links, .typedLinks, .mixed, .refs:
            throw RealmFault("a link or mixed leaf read without its file")
        }
    }

    static func uuid(_ bytes: UnsafeRawBufferPointer) -> UUID {
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(16))) }
        return UUID(uuid: t)
    }

    /// A decimal of any stored width (≤23: 16 bytes; 24: 0, 4, 8 or 16).
    static func decimal(_ n: Node, _ i: Int, nullable: Bool) -> RealmValue {
        switch n.width {
        case 0:
            return n.context || !nullable ? .decimal128(.realmZero) : .null
        case 4:
            let v = UInt32(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            if nullable && v == 0x7C00_00AA { return .null }
            return .decimal128(.widening(bid32: v))
        case 8:
            let v = UInt64(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            if nullable && v == 0x7C00_0000_0000_00AA { return .null }
            return .decimal128(.widening(bid64: v))
        default:
            let low = UInt64(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self))
            let high = UInt64(littleEndian: n.data.loadUnaligned(fromByteOffset: i * 16 + 8, as: UInt64.self))
            if nullable && low == 0xAA && high == 0x7C00_0000_0000_0000 { return .null }
            return .decimal128(Decimal128(high: high, low: low))
        }
    }
}
