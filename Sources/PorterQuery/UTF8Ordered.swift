import PorterModel

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
