import Foundation
import PorterModel

/// Writes the collection of one object's list, set or dictionary property and returns its ref
/// (0 for an empty collection, as realm-core leaves it).
struct WriterCollectionEncoder {
    let leaf: WriterLeafEncoder

    func write(_ value: RealmValue, column: WriterColumn) throws -> Int64 {
        switch value {
        case .list(let elements):
            return try writeElements(elements, column: column)
        case .set(let elements):
            let sorted = WriterSetOrder.sortedUnique(
                elements, decimalColumn: column.type == .decimal,
                nanLast: column.type == .float || column.type == .double, fileFormat: leaf.fileFormat,
                mixedColumn: column.type == .mixed, keepStringOrder: leaf.mixedSetStringsInCoreOrder)
            return try writeElements(sorted, column: column)
        case .dictionary(let entries):
            return try WriterMixedEncoder(leaf: leaf).writeDictionary(entries)
        default:
            return 0
        }
    }

    private func writeElements(_ elements: [RealmValue], column: WriterColumn) throws -> Int64 {
        if elements.isEmpty { return 0 }
        // Nested collections need keys unique across the whole B+tree.
        if column.type == .mixed { return try WriterMixedEncoder(leaf: leaf).writeTree(elements) }
        return try WriterBPlusTree.write(count: elements.count, out: leaf.out) { range in
            try leaf.write(elements[range], type: column.type, nullable: column.isNullable, inCollection: true)
        }
    }
}

/// Set order of format 24 (core `Mixed::compare`): null first, numbers by value, strings and
/// binaries bytewise, timestamps by time, ObjectIds and UUIDs bytewise, links by object key.
enum WriterSetOrder {
    /// In a `decimal128?` set realm-core orders a null (stored as a NaN with payload 0xaa) after
    /// real NaNs and before -Infinity (seen in realm-core 14's own files); elsewhere null is first.
    ///
    /// `nanLast`: a `float` or `double` set compares with the type's own `<` in realm-core, under
    /// which NaN is neither less nor greater than anything; its lookups (a binary search) find
    /// every other element only when NaNs come after them all. A `mixed` set orders NaN first.
    static func sortedUnique(
        _ elements: [RealmValue], decimalColumn: Bool = false,
        nanLast: Bool = false, fileFormat: Int = WriterFileFormat.current, mixedColumn: Bool = false,
        keepStringOrder: Bool = false
    ) -> [RealmValue] {
        var stringOrder: [String: Int] = [:]
        if keepStringOrder && mixedColumn {
            for case (let i, .string(let s)) in elements.enumerated() where stringOrder[s] == nil { stringOrder[s] = i }
        }
        let order: (RealmValue, RealmValue) -> Int =
            fileFormat < 24
            ? {
                WriterFileFormat.legacySetCompare(
                    $0, $1, fileFormat: fileFormat, mixed: mixedColumn, stringOrder: stringOrder)
            } : { Self.compare($0, $1) }
        var sorted = elements.sorted { order($0, $1) < 0 }
        if nanLast {
            let nans = sorted.filter(isNaN)
            if !nans.isEmpty { sorted = sorted.filter { !isNaN($0) } + nans }
        }
        if decimalColumn, sorted.first == .null {
            let nans = sorted.dropFirst().prefix {
                if case .decimal128(let d) = $0 { return (d.high >> 58) & 0x1F == 0x1F } else { return false }
            }
            if !nans.isEmpty { sorted = Array(nans) + [.null] + sorted.dropFirst(1 + nans.count) }
        }
        var out: [RealmValue] = []
        out.reserveCapacity(sorted.count)
        for e in sorted where out.last.map({ order($0, e) != 0 }) ?? true { out.append(e) }
        return out
    }

    static func isNaN(_ v: RealmValue) -> Bool {
        switch v {
        case .float(let f): return f.isNaN
        case .double(let d): return d.isNaN
        default: return false
        }
    }

    /// Type rank between kinds that do not compare by value.
    static func rank(_ v: RealmValue) -> Int {
        switch v {
        case .null: return 0
        case .bool: return 1
        case .int, .float, .double, .decimal128: return 2
        case .string: return 3
        case .binary: return 4
        case .timestamp: return 5
        case .objectId: return 6
        case .uuid: return 7
        case .link: return 8
        // Collections in a mixed: equal to their own kind (realm-core's `Mixed::compare`).
        case .list: return 9
        case .set: return 10
        case .dictionary: return 11
        default: return 12
        }
    }

    private static func number(_ v: RealmValue) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .float(let f): return Double(f)
        case .double(let d): return d
        case .decimal128(let d): return Double(d.description) ?? .nan
        default: return nil
        }
    }

    private static func bytes<C: Collection>(_ a: C, _ b: C) -> Int where C.Element == UInt8 {
        if a.lexicographicallyPrecedes(b) { return -1 }
        return b.lexicographicallyPrecedes(a) ? 1 : 0
    }

    private static func ordered<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }

    static func compare(_ a: RealmValue, _ b: RealmValue) -> Int {
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return ordered(x ? 1 : 0, y ? 1 : 0)
        case (.int(let x), .int(let y)): return ordered(x, y)
        case (.string(let x), .string(let y)): return bytes(Array(x.utf8), Array(y.utf8))
        case (.binary(let x), .binary(let y)): return bytes(x, y)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)):
            return s1 != s2 ? ordered(s1, s2) : ordered(n1, n2)
        case (.objectId(let x), .objectId(let y)): return ordered(x, y)
        case (.uuid(let x), .uuid(let y)):
            return bytes(withUnsafeBytes(of: x.uuid) { Array($0) }, withUnsafeBytes(of: y.uuid) { Array($0) })
        case (.link(let c1, let k1), .link(let c2, let k2)): return c1 != c2 ? ordered(c1, c2) : ordered(k1, k2)
        case (.decimal128(let x), .decimal128(let y)): return WriterDecimal.compare(x, y)
        default:
            guard let x = number(a), let y = number(b) else { return 0 }
            if x.isNaN || y.isNaN { return x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
            return ordered(x, y)
        }
    }
}
