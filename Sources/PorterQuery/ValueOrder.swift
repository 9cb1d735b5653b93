import Foundation
import PorterModel

/// Orders stored values for query comparisons and sorting.
///
/// Done in Swift rather than SQL because the storage encodings do not all order like the values
/// (decimal128 and some doubles are stored as blobs). Numbers compare by value across int, float,
/// double and decimal128; strings by Unicode code points (UTF-8 bytes); data bytewise; dates,
/// ObjectIds and UUIDs by time or bytes.
package enum ValueOrder {
    /// -1, 0 or 1 when `a` and `b` are comparable (same kind of value, neither null), else nil.
    package static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.bool(let x), .bool(let y)): return sign(x ? 1 : 0, y ? 1 : 0)
        case (.string(let x), .string(let y)):
            // Byte order of the UTF-8, compared in place (copying both to arrays per comparison made
            // sorting by a string property slow).
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (.data(let x), .data(let y)): return bytes(Array(x), Array(y))
        case (.date(let x), .date(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.objectId(let x), .objectId(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.uuid(let x), .uuid(let y)):
            return bytes(withUnsafeBytes(of: x.uuid) { Array($0) }, withUnsafeBytes(of: y.uuid) { Array($0) })
        case (.link(let x), .link(let y)) where x.className == y.className: return sign(x.key.rawValue, y.key.rawValue)
        default:
            guard let x = number(a), let y = number(b) else { return nil }
            if x.isNaN || y.isNaN { return nil }
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// A total order for sorting: null first, then values grouped by kind, each group in
    /// ``compare(_:_:)`` order (NaN before other numbers).
    package static func sortCompare(_ a: Value, _ b: Value) -> Int {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        if let result = compare(a, b) { return result }
        let nanA = number(a)?.isNaN ?? false
        let nanB = number(b)?.isNaN ?? false
        if nanA != nanB { return nanA ? -1 : 1 }
        return 0
    }

    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: return 0
        case .bool: return 1
        case .int, .float, .double, .decimal128: return 2
        case .string: return 3
        case .data: return 4
        case .date: return 5
        case .objectId: return 6
        case .uuid: return 7
        case .link: return 8
        case .list, .set, .map, .object: return 9
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .float(let f): return Double(f)
        case .double(let d): return d
        case .decimal128(let d): return d.doubleValue
        default: return nil
        }
    }

    private static func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x == y ? 0 : (x < y ? -1 : 1) }

    private static func bytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        if x == y { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }
}
