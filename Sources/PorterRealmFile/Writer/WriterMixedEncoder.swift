import Foundation
import PorterModel

/// `ArrayMixed` (core `array_mixed.cpp`): has-refs [composite, ints, int pairs, strings, refs, keys].
/// A composite entry is `value << 8 | payload << 5 | (DataType + 1)` (0 = null); small ints and
/// bools are inline, wide ints and float/double bit patterns go to `ints`, timestamps, decimals
/// and typed links to `pairs`, strings, binaries, ObjectIds and UUIDs to `strings`.
struct WriterMixedEncoder {
    let leaf: WriterLeafEncoder

    private enum Payload: Int64 { case inline = 0, ints = 1, pairs = 2, strings = 3 }

    func write(_ values: ArraySlice<RealmValue>) throws -> Int64 {
        var composite = [Int64]()
        composite.reserveCapacity(values.count)
        var ints = [Int64]()
        var pairs = [Int64]()
        var strings = [[UInt8]?]()
        func entry(_ dataType: Int64, _ payload: Payload, _ value: Int64) -> Int64 {
            value << 8 | payload.rawValue << 5 | (dataType + 1)
        }
        func toInts(_ dataType: Int64, _ v: Int64) -> Int64 {
            ints.append(v)
            return entry(dataType, .ints, Int64(ints.count - 1))
        }
        func toPairs(_ dataType: Int64, _ a: Int64, _ b: Int64) -> Int64 {
            pairs.append(a)
            pairs.append(b)
            return entry(dataType, .pairs, Int64(pairs.count / 2 - 1))
        }
        func toStrings(_ dataType: Int64, _ bytes: [UInt8]) -> Int64 {
            strings.append(bytes)
            return entry(dataType, .strings, Int64(strings.count - 1))
        }
        for v in values {
            switch v {
            case .null: composite.append(0)
            case .int(let i):
                composite.append(Int64(Int32(truncatingIfNeeded: i)) == i ? entry(0, .inline, i) : toInts(0, i))
            case .bool(let b): composite.append(entry(1, .inline, b ? 1 : 0))
            case .string(let s): composite.append(toStrings(2, Array(s.utf8)))
            case .binary(let d): composite.append(toStrings(4, [UInt8](d)))
            case .timestamp(let s, let n): composite.append(toPairs(8, s, Int64(n)))
            case .float(let f): composite.append(toInts(9, Int64(f.bitPattern)))
            case .double(let d): composite.append(toInts(10, Int64(bitPattern: d.bitPattern)))
            case .decimal128(let d): composite.append(toPairs(11, Int64(bitPattern: d.low), Int64(bitPattern: d.high)))
            case .objectId(let o): composite.append(toStrings(15, o.bytes))
            case .uuid(let u): composite.append(toStrings(17, withUnsafeBytes(of: u.uuid) { Array($0) }))
            case .link(let className, let key):
                composite.append(toPairs(16, Int64(leaf.tableKeys[className] ?? 0), key))
            case .embedded, .list, .set, .dictionary:
                preconditionFailure("checked before encoding")
            }
        }
        var refs: [Int64] = [try leaf.out.append(WriterNode.integers(composite))]
        refs.append(ints.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(ints)))
        refs.append(pairs.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(pairs)))
        refs.append(strings.isEmpty ? 0 : try leaf.writeBlobs(strings, isString: true))
        refs.append(0)
        refs.append(0)
        return try leaf.out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
    }
}
