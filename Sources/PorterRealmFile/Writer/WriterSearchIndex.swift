import Foundation
import PorterModel

/// A value as the search index sees it (core `index_string.hpp`): integers as their 8
/// little-endian bytes, strings as UTF-8, ObjectIds and UUIDs as their bytes; null apart.
enum WriterIndexValue: Equatable {
    case null
    case int(Int64)
    case bytes([UInt8])

    init?(_ value: RealmValue) {
        switch value {
        case .null: self = .null
        case .int(let i): self = .int(i)
        case .bool(let b): self = .int(b ? 1 : 0)
        case .string(let s): self = .bytes(Array(s.utf8))
        case .objectId(let o): self = .bytes(o.bytes)
        case .uuid(let u): self = .bytes(withUnsafeBytes(of: u.uuid) { Array($0) })
        default: return nil
        }
    }

    private var count: Int {
        switch self {
        case .null: return 0
        case .int: return 8
        case .bytes(let b): return b.count
        }
    }

    private func byte(_ i: Int) -> UInt32 {
        switch self {
        case .null: return 0
        case .int(let v): return UInt32(truncatingIfNeeded: UInt64(bitPattern: v) >> UInt64(8 * i)) & 0xFF
        case .bytes(let b): return UInt32(b[i])
        }
    }

    /// The 4-byte key at `offset` (`StringIndex::create_key`): the next four bytes, big-endian;
    /// a tail of three bytes or less gets an `X` appended; null is 0.
    func key(at offset: Int) -> Int32 {
        if case .null = self { return 0 }
        let n = count
        if offset > n { return 0 }
        let tail = n - offset
        var k: UInt32 = 0
        if tail <= 3 {
            for i in 0..<4 {
                let b: UInt32 = i < tail ? byte(offset + i) : (i == tail ? 0x58 : 0)
                k |= b << UInt32(24 - 8 * i)
            }
        } else {
            for i in 0..<4 { k |= byte(offset + i) << UInt32(24 - 8 * i) }
        }
        return Int32(bitPattern: k)
    }

    /// The value for messages.
    var text: String {
        switch self {
        case .null: return "null"
        case .int(let v): return String(v)
        case .bytes(let b): return "'" + String(decoding: b, as: UTF8.self) + "'"
        }
    }

    /// Whether every key from `offset` on is the end marker (nothing left to tell values apart).
    func isExhausted(at offset: Int) -> Bool { offset > count }
}

/// Builds realm-core's search index (`StringIndex`, used for every indexed type in core 14):
/// nodes `[keys (32-bit), slot…]` with the context flag; a slot is a tagged object key (one
/// object), a ref to a sorted list of object keys (equal values) or a ref to a sub-index on the
/// next four bytes (different values with the same key). More than 1000 keys: inner nodes
/// whose keys are each child's last key.
struct WriterSearchIndex {
    let out: WriterOutput

    /// Writes the index of `entries` (value, object key), given in object-key order. `unique`:
    /// equal values are an error (primary keys), reported at `location`.
    func write(_ entries: [(value: WriterIndexValue, key: Int64)], unique: Bool, location: String) throws -> Int64 {
        try node(entries, offset: 0, unique: unique, location: location)
    }

    private func node(_ entries: [(value: WriterIndexValue, key: Int64)], offset: Int, unique: Bool, location: String) throws -> Int64 {
        // Stable: equal values keep object-key order.
        let keyed = entries.map { (k: $0.value.key(at: offset), e: $0) }
        let order = keyed.indices.sorted { keyed[$0].k != keyed[$1].k ? keyed[$0].k < keyed[$1].k : $0 < $1 }
        var keys: [Int64] = []
        var slots: [Int64] = []
        var i = 0
        while i < order.count {
            let k = keyed[order[i]].k
            var j = i
            while j < order.count && keyed[order[j]].k == k { j += 1 }
            let group = order[i..<j].map { keyed[$0].e }
            keys.append(Int64(k))
            if group.count == 1 {
                slots.append(WriterNode.tagged(group[0].key))
            } else if group.allSatisfy({ $0.value == group[0].value }) || group.allSatisfy({ $0.value.isExhausted(at: offset + 4) }) {
                if unique {
                    throw PorterError(.duplicatePrimaryKey, "\(group.count) objects share the primary key \(group[0].value.text)",
                                      location: location)
                }
                slots.append(try WriterBPlusTree.integers(group.map(\.key).sorted(), out: out))
            } else {
                slots.append(try node(group, offset: offset + 4, unique: unique, location: location))
            }
            i = j
        }
        return try tree(keys: keys, slots: slots)
    }

    /// Leaves of at most 1000 keys, then inner nodes over them.
    private func tree(keys: [Int64], slots: [Int64]) throws -> Int64 {
        let size = WriterBPlusTree.nodeSize
        var levelKeys: [Int64] = []
        var levelRefs: [Int64] = []
        var start = 0
        repeat {
            let end = min(start + size, keys.count)
            levelRefs.append(try writeNode(keys: Array(keys[start..<end]), slots: Array(slots[start..<end]), inner: false))
            levelKeys.append(end > start ? keys[end - 1] : 0)
            start = end
        } while start < keys.count
        while levelRefs.count > 1 {
            var nextKeys: [Int64] = []
            var nextRefs: [Int64] = []
            var s = 0
            while s < levelRefs.count {
                let e = min(s + size, levelRefs.count)
                nextRefs.append(try writeNode(keys: Array(levelKeys[s..<e]), slots: Array(levelRefs[s..<e]), inner: true))
                nextKeys.append(levelKeys[e - 1])
                s = e
            }
            levelKeys = nextKeys
            levelRefs = nextRefs
        }
        return levelRefs[0]
    }

    private func writeNode(keys: [Int64], slots: [Int64], inner: Bool) throws -> Int64 {
        let keysRef = try out.append(WriterNode.integers(keys, width: 32))
        return try out.append(WriterNode.integers([keysRef] + slots, flags: .init(isInner: inner, hasRefs: true, context: true)))
    }
}
