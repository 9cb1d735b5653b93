import PorterModel

/// Sorts objects by one column of values of one Swift type: (value, key) pairs ordered by value,
/// equal values by key, as ``ValueOrder/sortCompare(_:_:)`` orders a column of that kind (callers
/// map nulls and NaN aside, and strings to ``UTF8Ordered``).
///
/// The pairs are compared through `Comparable` rather than through a closure, and the caller sorts
/// an array of ``Entry`` in its own module, where the sort specializes to inline comparisons (a
/// closure call per comparison was half the time of a sorted query; a generic sort function here,
/// called across modules, ran unspecialized and 3–9× slower). Keys are unique, so an unstable sort
/// gives one exact order.
package enum PairSort {
    /// One object's value and key, ordered by value, then key.
    package struct Entry<V: Comparable>: Comparable {
        @usableFromInline let value: V
        /// The object's key.
        package let key: Int64

        /// The entry of one object.
        @inlinable
        package init(value: V, key: Int64) {
            self.value = value
            self.key = key
        }

        @inlinable
        package static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.value < rhs.value || (lhs.value == rhs.value && lhs.key < rhs.key)
        }

        @inlinable
        package static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value && lhs.key == rhs.key }
    }

    /// A value ordered the other way round (equal values stay equal, so ties still go by key).
    package struct Descending<V: Comparable>: Comparable {
        @usableFromInline let value: V

        /// Wraps `value`.
        @inlinable
        package init(_ value: V) { self.value = value }

        @inlinable
        package static func < (lhs: Self, rhs: Self) -> Bool { rhs.value < lhs.value }

        @inlinable
        package static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
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
