import Foundation
import PorterDocument
import PorterModel

/// The one deterministic order in which set elements are exported: by kind first (null, bool,
/// int, float, double, string, data, date, decimal128, objectId, uuid, links), then by value.
/// Strings and bytes compare by their bytes, floating-point values by IEEE total order, so the
/// order never depends on locale, Unicode normalization or where the values came from.
enum ExportOrder {
    static func less(_ a: ExportedElement, _ b: ExportedElement) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)): return less(x, y)
        case (.scalar, .reference): return true
        case (.reference, .scalar): return false
        case (.reference(let c1, let k1), .reference(let c2, let k2)):
            if c1 != c2 { return utf8Less(c1, c2) }
            return less(k1, k2)
        }
    }

    static func less(_ a: Value, _ b: Value) -> Bool {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return !x && y
        case (.int(let x), .int(let y)): return x < y
        case (.float(let x), .float(let y)): return totalLess(Double(x), Double(y), x.bitPattern < y.bitPattern)
        case (.double(let x), .double(let y)): return totalLess(x, y, x.bitPattern < y.bitPattern)
        case (.string(let x), .string(let y)): return utf8Less(x, y)
        case (.data(let x), .data(let y)): return x.lexicographicallyPrecedes(y)
        case (.date(let x), .date(let y)): return x < y
        case (.decimal128(let x), .decimal128(let y)): return (x.high, x.low) < (y.high, y.low)
        case (.objectId(let x), .objectId(let y)): return x < y
        case (.uuid(let x), .uuid(let y)): return UUIDCodec.bytes(x).lexicographicallyPrecedes(UUIDCodec.bytes(y))
        default: return false
        }
    }

    /// IEEE total order; `tieBreak` separates different NaN payloads and values equal by `==`
    /// (only ±0, which total order already separates).
    private static func totalLess(_ x: Double, _ y: Double, _ tieBreak: Bool) -> Bool {
        if x.bitPattern == y.bitPattern { return false }
        if x.isNaN && y.isNaN { return tieBreak }
        return x.isTotallyOrdered(belowOrEqualTo: y)
    }

    private static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return 0
        case .bool: return 1
        case .int: return 2
        case .float: return 3
        case .double: return 4
        case .string: return 5
        case .data: return 6
        case .date: return 7
        case .decimal128: return 8
        case .objectId: return 9
        case .uuid: return 10
        default: return 11
        }
    }

    /// Byte-wise UTF-8 order (Swift's `<` on `String` treats canonically equivalent strings as equal).
    static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
