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
        var nulls: [ObjectKey] = []
        var sorted: [ObjectKey]
        switch kind(of: values) {
        case .int:
            var pairs: [(Int64, ObjectKey)] = []
            pairs.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                if case .int(let i) = value { pairs.append((i, key)) } else { nulls.append(key) }
            }
            sorted = order(&pairs, descending: descending, less: <)
        case .number:
            var pairs: [(Double, ObjectKey)] = []
            pairs.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                switch value {
                case .int(let i): pairs.append((Double(i), key))
                case .float(let f): pairs.append((Double(f), key))
                case .double(let d): pairs.append((d, key))
                default: nulls.append(key)
                }
            }
            sorted = order(&pairs, descending: descending, less: <)
        case .string:
            var pairs: [(String, ObjectKey)] = []
            pairs.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                if case .string(let s) = value { pairs.append((s, key)) } else { nulls.append(key) }
            }
            // Unicode code points: the bytes of the UTF-8, as ValueOrder compares strings.
            sorted = order(&pairs, descending: descending) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        case .date:
            var pairs: [(Timestamp, ObjectKey)] = []
            pairs.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                if case .date(let t) = value { pairs.append((t, key)) } else { nulls.append(key) }
            }
            sorted = order(&pairs, descending: descending, less: <)
        case .other:
            var pairs = Array(zip(values, keys))
            pairs.sort { a, b in
                let order = ValueOrder.sortCompare(a.0, b.0)
                if order != 0 { return descending ? order > 0 : order < 0 }
                return a.1 < b.1
            }
            return pairs.map(\.1)
        }
        nulls.sort()
        return descending ? sorted + nulls : nulls + sorted
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

    /// Sorts `pairs` by value (reversed when `descending`), equal values by key; gives the keys.
    private static func order<T>(_ pairs: inout [(T, ObjectKey)], descending: Bool, less: (T, T) -> Bool)
        -> [ObjectKey]
    {
        if descending {
            pairs.sort { a, b in less(b.0, a.0) || (!less(a.0, b.0) && a.1 < b.1) }
        } else {
            pairs.sort { a, b in less(a.0, b.0) || (!less(b.0, a.0) && a.1 < b.1) }
        }
        return pairs.map(\.1)
    }
}
