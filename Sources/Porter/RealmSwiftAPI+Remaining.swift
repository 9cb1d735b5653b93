import Foundation
import PorterModel

// Smaller declarations of realm-swift 10.54 that the rest of the API did not cover yet.

extension AnyRealmValue {
    /// A mixed value holding an unmanaged dictionary of mixed values (Realm's `fromDictionary`).
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        .dictionary(Map(dictionary))
    }

    /// A mixed value holding an unmanaged list of mixed values (Realm's `fromArray`).
    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue { .list(List(array)) }
}

extension List {
    /// Replaces the elements in `subrange` with `newElements` (each removal and insertion
    /// written through when managed, inside a write transaction).
    public func replaceSubrange<C: Collection, R: RangeExpression>(_ subrange: R, with newElements: C)
    where C.Element == Element, R.Bound == Int {
        let range = subrange.relative(to: 0..<count)
        for index in range.reversed() { remove(at: index) }
        for (offset, element) in newElements.enumerated() { insert(element, at: range.lowerBound + offset) }
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
        replaceSubrange(bounds, with: [Element]())
    }
}

extension ObjectSchema {
    /// Whether the class is asymmetric (sync-only, write-only objects): never, as Porter has no sync.
    public var isAsymmetric: Bool { false }
}

extension Property {
    /// The property's name in the file: its name (Porter stores properties under their Swift names).
    public var columnName: String { name }
}
