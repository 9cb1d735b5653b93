import Foundation

/// Where a `List` or `MutableSet` keeps its elements: its own array while unmanaged, the stored
/// collection of its owner once managed. The reads both types share live here.
enum ElementStorage<Element: RealmCollectionValue> {
    case unmanaged([Element])
    case managed(_ManagedProperty)

    /// The realm of the owning object, or nil while unmanaged.
    var realm: Realm? { if case .managed(let p) = self { return p.realm } else { return nil } }

    /// All elements, in stored order (one read of the stored collection when managed).
    var elements: [Element] {
        switch self {
        case .unmanaged(let items): return items
        case .managed(let p): return p.decode(p.storedElements(), as: Element.self)
        }
    }

    /// The number of elements (a count query when managed, no element is read).
    var count: Int {
        switch self {
        case .unmanaged(let items): return items.count
        case .managed(let p):
            return p.read(fallback: 0) {
                try p.reader.collectionCount(p.owner.className, p.owner.key, p.property.name)
            }
        }
    }
}
