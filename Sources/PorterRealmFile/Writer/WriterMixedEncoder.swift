import Foundation
import PorterModel

/// `ArrayMixed` (core `array_mixed.cpp`): has-refs [composite, ints, int pairs, strings, refs, keys].
/// A composite entry is `value << 8 | payload << 5 | (DataType + 1)` (0 = null); small ints and
/// bools are inline, wide ints and float/double bit patterns go to `ints`, timestamps, decimals
/// and typed links to `pairs`, strings, binaries, ObjectIds and UUIDs to `strings`. A list or
/// dictionary nested in a value (format 24) is its own collection, referred to from `refs`, and
/// gets a non-zero key in `keys` (`ArrayMixed::set_key`): realm-core finds a nested collection
/// again by that key, which must be unique within the array (or B+tree) holding it.
struct WriterMixedEncoder {
    let leaf: WriterLeafEncoder

    private enum Payload: Int64 { case inline = 0, ints = 1, pairs = 2, strings = 3, refs = 4 }

    /// `DataType` of a nested list and a nested dictionary (core `data_type.hpp`).
    static let listType: Int64 = 19, dictionaryType: Int64 = 21

    /// Writes one `ArrayMixed` leaf; nested collections get keys from `nextKey` on.
    func write(_ values: ArraySlice<RealmValue>) throws -> Int64 {
        var nextKey: Int64 = 1
        return try write(values, nextKey: &nextKey)
    }

    /// A B+tree of mixed values (a list of mixed, a dictionary's values, a nested list), its
    /// nested collections keyed uniquely across the whole tree.
    func writeTree(_ values: [RealmValue]) throws -> Int64 {
        var nextKey: Int64 = 1
        return try WriterBPlusTree.write(count: values.count, out: leaf.out) { range in
            try write(values[range], nextKey: &nextKey)
        }
    }

    /// A nested list (0 when empty, as realm-core leaves a new one).
    func writeList(_ elements: [RealmValue]) throws -> Int64 {
        elements.isEmpty ? 0 : try writeTree(elements)
    }

    /// A dictionary: `[keys B+tree<String> (sorted bytewise), values B+tree<Mixed>]` (0 when empty).
    func writeDictionary(_ entries: [RealmDictionaryEntry]) throws -> Int64 {
        if entries.isEmpty { return 0 }
        if leaf.fileFormat < 23 { return try WriterLegacyDictionary(leaf: leaf).write(entries) }
        let sorted = entries.sorted { WriterFileFormat.keyPrecedes($0.key, $1.key, fileFormat: leaf.fileFormat) }
        let keys = try WriterBPlusTree.write(count: sorted.count, out: leaf.out) { range in
            try leaf.writeBlobs(sorted[range].map { Array($0.key.utf8) }, isString: true)
        }
        let values = try writeTree(sorted.map(\.value))
        return try leaf.out.append(WriterNode.integers([keys, values], flags: .init(hasRefs: true)))
    }

    func write(_ values: ArraySlice<RealmValue>, nextKey: inout Int64) throws -> Int64 {
        var composite = [Int64]()
        composite.reserveCapacity(values.count)
        var ints = [Int64]()
        var pairs = [Int64]()
        var strings = [[UInt8]?]()
        var collections = [Int64]()
        var keys = [Int64]()
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
            case .list(let elements):
                collections.append(try writeList(elements))
                composite.append(entry(Self.listType, .refs, Int64(collections.count - 1)))
            case .dictionary(let entries):
                collections.append(try writeDictionary(entries))
                composite.append(entry(Self.dictionaryType, .refs, Int64(collections.count - 1)))
            case .embedded, .set:
                preconditionFailure("checked before encoding")
            }
            if !collections.isEmpty {
                // A key for each value that is a collection; 0 for the others.
                keys.append(contentsOf: repeatElement(0, count: composite.count - keys.count))
                if case .list = v { keys[keys.count - 1] = nextKey; nextKey += 1 }
                if case .dictionary = v { keys[keys.count - 1] = nextKey; nextKey += 1 }
            }
        }
        var refs: [Int64] = [try leaf.out.append(WriterNode.integers(composite))]
        refs.append(ints.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(ints)))
        refs.append(pairs.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(pairs)))
        refs.append(strings.isEmpty ? 0 : try leaf.writeBlobs(strings, isString: true))
        refs.append(
            collections.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(collections, flags: .init(hasRefs: true)))
        )
        keys.append(contentsOf: repeatElement(0, count: keys.isEmpty ? 0 : composite.count - keys.count))
        refs.append(keys.isEmpty ? 0 : try leaf.out.append(WriterNode.integers(keys)))
        // Before format 24 the array has four slots (core 13 `ArrayMixed::create`); nested collections were refused.
        if leaf.fileFormat < 24 { refs.removeLast(2) }
        return try leaf.out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
    }
}
