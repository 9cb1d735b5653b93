import PorterModel

/// Sorts objects by one column of values of one Swift type: (value, key) pairs ordered by value,
/// equal values by key, as ``ValueOrder/sortCompare(_:_:)`` orders a column of that kind (callers
/// map nulls and NaN aside, and strings to ``UTF8Ordered``).
///
/// The pairs are compared through `Comparable` rather than through a closure, and the functions are
/// inlinable, so a sort specializes to inline comparisons of the values in the caller's module (a
/// closure call per comparison was half the time of a sorted query). Keys are unique, so an
/// unstable sort gives one exact order.
package enum PairSort {
    /// `keys` (parallel to `values`) ordered by `values`, descending when `descending`; equal values
    /// in ascending key order either way.
    @inlinable
    package static func keys<V: Comparable>(_ keys: [ObjectKey], by values: [V], descending: Bool) -> [ObjectKey] {
        precondition(keys.count == values.count)
        return descending ? ascending(keys, values.map { Descending($0) }) : ascending(keys, values)
    }

    /// `keys` by ascending `values`, ties by key.
    @inlinable
    static func ascending<V: Comparable>(_ keys: [ObjectKey], _ values: [V]) -> [ObjectKey] {
        var entries: [Entry<V>] = []
        entries.reserveCapacity(keys.count)
        for (value, key) in zip(values, keys) { entries.append(Entry(value: value, key: key.rawValue)) }
        entries.sort()
        return entries.map { ObjectKey($0.key) }
    }

    /// One object's value and key, ordered by value, then key.
    @usableFromInline
    struct Entry<V: Comparable>: Comparable {
        @usableFromInline let value: V
        @usableFromInline let key: Int64

        @inlinable
        init(value: V, key: Int64) {
            self.value = value
            self.key = key
        }

        @inlinable
        static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.value < rhs.value || (lhs.value == rhs.value && lhs.key < rhs.key)
        }

        @inlinable
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value && lhs.key == rhs.key }
    }

    /// A value ordered the other way round (equal values stay equal, so ties still go by key).
    @usableFromInline
    struct Descending<V: Comparable>: Comparable {
        @usableFromInline let value: V

        @inlinable
        init(_ value: V) { self.value = value }

        @inlinable
        static func < (lhs: Self, rhs: Self) -> Bool { rhs.value < lhs.value }

        @inlinable
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    }
}

/// A string ordered by Unicode code points (the bytes of its UTF-8), as ``ValueOrder`` and Realm
/// compare strings; Swift's own `String` comparison (canonical equivalence) is not that order.
package struct UTF8Ordered: Comparable {
    /// The string.
    @usableFromInline let string: String

    /// Wraps `string`.
    @inlinable
    package init(_ string: String) { self.string = string }

    @inlinable
    package static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    @inlinable
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }
}
