import Foundation
import PorterModel

/// A value as the search index sees it (core `index_string.hpp`): integers as their 8
/// little-endian bytes, strings as UTF-8, ObjectIds and UUIDs as their bytes, timestamps as
/// seconds and nanoseconds little-endian; null apart. In mixed columns bools, integral floats,
/// doubles index as the integer, decimals as their truncated integer (realm-core's
/// `Mixed::get_index_data`), others as their raw little-endian bytes. `kind` tells apart values
/// of different types with equal bytes.
enum WriterIndexValue: Equatable {
    case null
    case int(Int64)
    case bytes([UInt8], kind: UInt8)

    /// `tableKeys`: the table key of each class, for typed links held by a mixed (indexed as the
    /// 4-byte table key then the 8-byte object key, little-endian, as `Mixed::get_index_data`).
    init?(_ value: RealmValue, tableKeys: [String: Int] = [:]) {
        func raw<T>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }
        switch value {
        case .null: self = .null
        case .int(let i): self = .int(i)
        case .bool(let b): self = .int(b ? 1 : 0)
        case .string(let s): self = .bytes(Array(s.utf8), kind: 0)
        case .binary(let d): self = .bytes([UInt8](d), kind: 1)
        case .objectId(let o): self = .bytes(o.bytes, kind: 2)
        case .uuid(let u): self = .bytes(raw(u.uuid), kind: 3)
        case .timestamp(let seconds, let nanoseconds):
            // Seconds (8 bytes) then nanoseconds (4 bytes), little-endian (verified against realm-core 14).
            self = .bytes(raw(seconds.littleEndian) + raw(nanoseconds.littleEndian), kind: 4)
        case .float(let f):
            if let i = Int32(exactly: f) {
                self = .int(Int64(i))
            } else {
                self = .bytes(raw(f.bitPattern.littleEndian), kind: 5)
            }
        case .double(let d):
            if let i = Int64(exactly: d) {
                self = .int(i)
            } else {
                self = .bytes(raw(d.bitPattern.littleEndian), kind: 6)
            }
        case .decimal128(let d):
            if let i = WriterDecimal.truncatedInt(d) {
                self = .int(i)
            } else {
                self = .bytes(raw(d.low.littleEndian) + raw(d.high.littleEndian), kind: 7)
            }
        case .link(let className, let key):
            guard let table = tableKeys[className] else { return nil }
            self = .bytes(raw(UInt32(truncatingIfNeeded: table).littleEndian) + raw(key.littleEndian), kind: 8)
        // A list or dictionary in a mixed is filed under a fixed string, its elements not at all
        // (realm-core 14, src/realm/mixed.cpp, `Mixed::get_index_data`: "__List__", "__Dictionary__").
        case .list: self = .bytes(Array("__List__".utf8), kind: 9)
        case .dictionary: self = .bytes(Array("__Dictionary__".utf8), kind: 10)
        default: return nil
        }
    }

    private var count: Int {
        switch self {
        case .null: return 0
        case .int: return 8
        case .bytes(let b, _): return b.count
        }
    }

    private func byte(_ i: Int) -> UInt32 {
        switch self {
        case .null: return 0
        case .int(let v): return UInt32(truncatingIfNeeded: UInt64(bitPattern: v) >> UInt64(8 * i)) & 0xFF
        case .bytes(let b, _): return UInt32(b[i])
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
        case .bytes(let b, _):
            let text = String(decoding: b.prefix(64), as: UTF8.self)
            return "'" + text + (b.count > 64 ? "…'" : "'")
        }
    }

    /// Byte order (null first), for lists of different values past `maxOffset`.
    func compare(_ other: WriterIndexValue) -> Int {
        let n = min(count, other.count)
        if case .null = self { if case .null = other { return 0 }; return -1 }
        if case .null = other { return 1 }
        for i in 0..<n where byte(i) != other.byte(i) { return byte(i) < other.byte(i) ? -1 : 1 }
        return count == other.count ? 0 : (count < other.count ? -1 : 1)
    }

    /// Whether the key at `offset` holds the value's last bytes (or the value is null).
    func isLastKey(at offset: Int) -> Bool {
        if case .null = self { return true }
        return count - offset <= 4
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
    /// The indexed values and their objects, in object-key order.
    let entries: [(value: WriterIndexValue, key: Int64)]
    /// For mixed columns, the values parallel to `entries`: lists of objects whose index bytes
    /// are equal are sorted by value (realm-core's `SortedListComparator`), then key.
    let originals: [RealmValue]?
    /// Whether the index alone must tell values apart (a list column: realm-core cannot compare
    /// an object's value there): every value gets sub-indexes down to its last key.
    var exact = false

    /// realm-core stops adding sub-indexes past this many bytes (`s_max_offset`): longer values
    /// sharing their first 200 bytes go to one list, sorted by value.
    static let maxOffset = 200

    /// Two members with equal values, if any.
    private func duplicate(in group: [Int]) -> (Int, Int)? {
        let sorted = group.sorted { entries[$0].value.compare(entries[$1].value) < 0 }
        for (a, b) in zip(sorted, sorted.dropFirst()) where entries[a].value == entries[b].value { return (a, b) }
        return nil
    }

    /// Writes the index. `unique`: equal values are an error (primary keys), reported at `location`.
    func write(unique: Bool, location: String) throws -> Int64 {
        try node(Array(entries.indices), offset: 0, unique: unique, location: location)
    }

    /// The node for the entries `members` (positions in `entries`, ascending) at byte `offset`.
    private func node(_ members: [Int], offset: Int, unique: Bool, location: String) throws -> Int64 {
        // Stable: equal keys keep object-key order.
        let keyed = members.map { (k: entries[$0].value.key(at: offset), m: $0) }
        let order = keyed.indices.sorted { keyed[$0].k != keyed[$1].k ? keyed[$0].k < keyed[$1].k : $0 < $1 }
        var keys: [Int64] = []
        var slots: [Int64] = []
        var i = 0
        while i < order.count {
            let k = keyed[order[i]].k
            var j = i
            while j < order.count && keyed[order[j]].k == k { j += 1 }
            let group = order[i..<j].map { keyed[$0].m }
            let first = entries[group[0]].value
            keys.append(Int64(k))
            if exact {
                if group.allSatisfy({ entries[$0].value.isLastKey(at: offset) }) {
                    slots.append(
                        group.count == 1
                            ? WriterNode.tagged(entries[group[0]].key)
                            : try WriterBPlusTree.integers(group.map { entries[$0].key }.sorted(), out: out))
                } else {
                    slots.append(try node(group, offset: offset + 4, unique: unique, location: location))
                }
            } else if group.count == 1 {
                slots.append(WriterNode.tagged(entries[group[0]].key))
            } else if group.allSatisfy({ entries[$0].value == first })
                || group.allSatisfy({ entries[$0].value.isExhausted(at: offset + 4) })
                || offset + 4 > Self.maxOffset
            {
                if unique && group.allSatisfy({ entries[$0].value == first }) {
                    throw PorterError(
                        .duplicatePrimaryKey, "\(group.count) objects share the primary key \(first.text)",
                        location: location)
                }
                if unique, let (a, _) = duplicate(in: group) {
                    throw PorterError(
                        .duplicatePrimaryKey, "2 objects share the primary key \(entries[a].value.text)",
                        location: location)
                }
                // Sorted by value, then key (equal values are then in key order).
                var list = group
                list.sort { a, b in
                    let c =
                        originals.map { WriterSetOrder.compare($0[a], $0[b]) }
                        ?? entries[a].value.compare(entries[b].value)
                    return c != 0 ? c < 0 : entries[a].key < entries[b].key
                }
                slots.append(try WriterBPlusTree.integers(list.map { entries[$0].key }, out: out))
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
            levelRefs.append(
                try writeNode(keys: Array(keys[start..<end]), slots: Array(slots[start..<end]), inner: false))
            levelKeys.append(end > start ? keys[end - 1] : 0)
            start = end
        } while start < keys.count
        while levelRefs.count > 1 {
            var nextKeys: [Int64] = []
            var nextRefs: [Int64] = []
            var s = 0
            while s < levelRefs.count {
                let e = min(s + size, levelRefs.count)
                nextRefs.append(
                    try writeNode(keys: Array(levelKeys[s..<e]), slots: Array(levelRefs[s..<e]), inner: true))
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
        return try out.append(
            WriterNode.integers([keysRef] + slots, flags: .init(isInner: inner, hasRefs: true, context: true)))
    }
}
