import Foundation
import PorterModel

/// Decoding a whole column of a cluster at once, for the typed API's rows.
extension Leaf {
    /// Stores the values `rows[n].row` of this leaf, as ``RealmValues/scalarValue(_:)`` converts
    /// them, at `buffer[start + n * stride]` for every `n`; false (nothing stored) for a leaf that
    /// holds links, mixed values, collections or binaries, which the caller reads value by value.
    /// One switch per column instead of one per value, and no ``RealmValue`` made and converted
    /// per value: that was about a third of reading a flat object of a Realm file (profiled).
    /// The slots must hold `.null` (nothing to release): values are written over them unreleased.
    func storeScalars(
        _ rows: [(row: Int, key: Int64)], _ mem: Mem, into buffer: UnsafeMutableBufferPointer<Value>, start: Int,
        stride: Int
    ) throws(RealmFault) -> Bool {
        // Rows ascend: the last is the highest (a damaged file's column may be shorter than its keys).
        if let last = rows.last?.row, last >= count {
            throw RealmFault("value \(last) is beyond the leaf's \(count) values")
        }
        guard let out = buffer.baseAddress, rows.isEmpty || start + (rows.count - 1) * stride < buffer.count else {
            return rows.isEmpty
        }
        var slot = start
        switch self {
        case .ints(let n, let nullable):
            if nullable {
                let null = n.int(0)
                for r in rows {
                    let v = n.int(r.row + 1)
                    (out + slot).initialize(to: v == null ? .null : .int(v))
                    slot &+= stride
                }
            } else {
                for r in rows {
                    (out + slot).initialize(to: .int(n.int(r.row)))
                    slot &+= stride
                }
            }
        case .bools(let n):
            for r in rows {
                switch n.int(r.row) {
                case 0: (out + slot).initialize(to: .bool(false))
                case 1: (out + slot).initialize(to: .bool(true))
                default: (out + slot).initialize(to: .null)
                }
                slot &+= stride
            }
        case .floats(let n, let nullable):
            for r in rows {
                let bits = UInt32(littleEndian: n.data.loadUnaligned(fromByteOffset: r.row &* 4, as: UInt32.self))
                (out + slot).initialize(to: nullable && bits == 0x7FC0_00AA ? .null : .float(Float(bitPattern: bits)))
                slot &+= stride
            }
        case .doubles(let n, let nullable):
            for r in rows {
                let bits = UInt64(littleEndian: n.data.loadUnaligned(fromByteOffset: r.row &* 8, as: UInt64.self))
                (out + slot).initialize(
                    to: nullable && bits == 0x7FF8_0000_0000_00AA ? .null : .double(Double(bitPattern: bits)))
                slot &+= stride
            }
        case .strings(let s):
            for r in rows {
                (out + slot).initialize(to: try s.string(r.row, mem).map(Value.string) ?? .null)
                slot &+= stride
            }
        case .enumStrings(let n, let keys):
            for r in rows {
                let index = n.int(r.row)
                guard index >= 0, index < Int64(keys.count) else {
                    throw RealmFault("enum string index \(index) is beyond the \(keys.count) enum keys")
                }
                (out + slot).initialize(to: try keys.string(Int(index), mem).map(Value.string) ?? .null)
                slot &+= stride
            }
        case .timestamps(let seconds, let nanos):
            let null = seconds.int(0)
            for r in rows {
                let s = seconds.int(r.row + 1)
                (out + slot).initialize(
                    to: s == null
                        ? .null
                        : .date(Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: nanos.int(r.row)))))
                slot &+= stride
            }
        case .fixedBytes(let n, let width, _):
            for r in rows {
                let base = (r.row / 8) * (width * 8 + 1)
                let bit = r.row % 8
                if n.data.load(fromByteOffset: base, as: UInt8.self) & (1 << UInt8(bit)) != 0 {
                    (out + slot).initialize(to: .null)
                } else {
                    let bytes = UnsafeRawBufferPointer(start: n.data + base + 1 + bit * width, count: width)
                    if width == 12 {
                        (out + slot).initialize(to: ObjectId(rawBytes: bytes).map(Value.objectId) ?? .null)
                    } else {
                        (out + slot).initialize(to: .uuid(Leaf.uuid(bytes)))
                    }
                }
                slot &+= stride
            }
        case .decimals, .binaries, .links, .typedLinks, .mixed, .refs:
            return false
        }
        return true
    }
}
