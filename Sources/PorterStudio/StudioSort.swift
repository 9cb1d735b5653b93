import Foundation
import PorterModel
import PorterQuery

/// The studio's sort of a class by one scalar column: ``ValueOrder/sortCompare(_:_:)``'s order
/// (null first, then values by kind; descending reverses the values only), equal values in key
/// order, as `porter export --sort` orders them.
///
/// A column of one kind (integers, numbers, strings, dates) is sorted as pairs of that kind and
/// the key, without the `Value` enum's comparison per step (which made sorting 1,000,000 objects
/// take seconds); any other column through ``ValueOrder``.
enum StudioSort {
    /// `keys` ordered by `values` (parallel to them).
    static func sorted(keys: [ObjectKey], values: [Value], descending: Bool) -> [ObjectKey] {
        precondition(keys.count == values.count)
        let split: (sorted: [ObjectKey], nulls: [ObjectKey])
        switch kind(of: values) {
        case .int:
            split = typed(keys, values, descending) { if case .int(let i) = $0 { i } else { nil } }
        case .number:
            split = typed(keys, values, descending) {
                switch $0 {
                case .int(let i): Double(i)
                case .float(let f): Double(f)
                case .double(let d): d
                default: nil
                }
            }
        case .string:
            // Unicode code points: the bytes of the UTF-8, as ValueOrder compares strings.
            split = typed(keys, values, descending) { if case .string(let s) = $0 { UTF8Ordered(s) } else { nil } }
        case .date:
            split = typed(keys, values, descending) { if case .date(let t) = $0 { t } else { nil } }
        case .other:
            var pairs = Array(zip(values, keys))
            pairs.sort { a, b in
                let order = ValueOrder.sortCompare(a.0, b.0)
                if order != 0 { return descending ? order > 0 : order < 0 }
                return a.1 < b.1
            }
            return pairs.map(\.1)
        }
        let nulls = split.nulls.sorted()
        return descending ? split.sorted + nulls : nulls + split.sorted
    }

    /// The keys of the values `typed` gives, sorted by them (ties by key), and the keys of the rest
    /// (nulls), in key order.
    private static func typed<T: Comparable>(
        _ keys: [ObjectKey], _ values: [Value], _ descending: Bool, _ typed: (Value) -> T?
    ) -> (sorted: [ObjectKey], nulls: [ObjectKey]) {
        var entries: [Entry<T>] = []
        var nulls: [ObjectKey] = []
        entries.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            if let t = typed(value) {
                entries.append(Entry(value: t, key: key.rawValue))
            } else {
                nulls.append(key)
            }
        }
        // Closure literals on this module's entry type: the sort specializes to inline comparisons
        // (sorting a `Comparable` entry type of another module went through its conformance's
        // witness and generic metadata on every comparison: 1.0 s instead of ~0.3 s at 1,000,000).
        if descending {
            entries.sort { $1.value < $0.value || ($0.value == $1.value && $0.key < $1.key) }
        } else {
            entries.sort { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }
        }
        return (entries.map { ObjectKey($0.key) }, nulls)
    }

    /// One object's value of the sorted column and its key.
    private struct Entry<V: Comparable> {
        let value: V
        let key: Int64
    }

    /// What a column holds besides nulls.
    enum Kind { case int, number, string, date, other }

    static func kind(of values: [Value]) -> Kind {
        var kind: Kind?
        for value in values {
            let next: Kind
            switch value {
            case .null: continue
            case .int: next = kind == .number ? .number : .int
            case .float(let f) where !f.isNaN: next = .number
            case .double(let d) where !d.isNaN: next = .number
            case .string: next = .string
            case .date: next = .date
            default: return .other
            }
            switch (kind, next) {
            case (nil, _): kind = next
            case (.int, .number), (.number, .int): kind = .number
            case (let a?, let b) where a == b: break
            default: return .other
            }
        }
        return kind ?? .other
    }
}
