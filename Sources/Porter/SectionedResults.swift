import Foundation

// Realm's sectioned results (`results.sectioned(by:)`): the objects of results grouped into
// sections by a key, each section a collection, live as the results are.

extension Results where Element: Object {
    /// The results sorted by a persisted property and grouped into one section per value of it
    /// (Realm's `sectioned(by:ascending:)`). A key path that does not name one `@Persisted`
    /// property stops the program, as in Realm; use `sectioned(by:sortDescriptors:)`
    /// with a block for computed keys.
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>,
        ascending: Bool = true
    ) -> SectionedResults<Key, Element> {
        guard let name = KeyPathNames.name(of: keyPath) else {
            preconditionFailure(
                "\(Element.className()): sectioned(by:) needs a key path to one @Persisted property; "
                    + "use sectioned(by: { … }, sortDescriptors: […]) for a computed key")
        }
        return SectionedResults(base: sorted(byKeyPath: name, ascending: ascending)) { $0[keyPath: keyPath] }
    }

    /// The results sorted by persisted properties and grouped into sections by a key path
    /// (Realm's `sectioned(by:sortDescriptors:)`).
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        SectionedResults(base: sortDescriptors.isEmpty ? self : sorted(by: sortDescriptors)) { $0[keyPath: keyPath] }
    }

    /// The results sorted by `sortDescriptors` and grouped into sections by the key `block`
    /// computes for each object (Realm's `sectioned(by:sortDescriptors:)` with a block, e.g. the
    /// first letter of a name). Sections are in the order of their first object.
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        SectionedResults(base: sortDescriptors.isEmpty ? self : sorted(by: sortDescriptors), key: block)
    }
}

/// Results grouped into sections by a key, as Realm's `SectionedResults`: a collection of
/// ``ResultsSection``s in the order of their first object, live (each read reflects the
/// current data; the grouping is cached while the database is unchanged).
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: Object>: RandomAccessCollection {
    let base: Results<SectionElement>
    let key: (SectionElement) -> Key
    private let cache = LiveCache<[ResultsSection<Key, SectionElement>]>()

    init(base: Results<SectionElement>, key: @escaping (SectionElement) -> Key) {
        self.base = base
        self.key = key
    }

    /// The sections now.
    var sections: [ResultsSection<Key, SectionElement>] {
        if base.isFrozen { return Self.group(Array(base), key) }
        return cache.value(base.home.database) { Self.group(Array(base), key) }
    }

    private static func group(_ elements: [SectionElement], _ key: (SectionElement) -> Key)
        -> [ResultsSection<Key, SectionElement>]
    {
        var order: [Key] = []
        var members: [Key: [SectionElement]] = [:]
        for element in elements {
            let k = key(element)
            if members[k] == nil { order.append(k) }
            members[k, default: []].append(element)
        }
        return order.map { ResultsSection(key: $0, elements: members[$0] ?? []) }
    }

    /// The realm of the results.
    public var realm: Realm? { base.realm }
    /// Whether the results are a frozen snapshot.
    public var isFrozen: Bool { base.isFrozen }
    /// The section keys, in section order.
    public var allKeys: [Key] { sections.map(\.key) }
    /// The position of the first section.
    public var startIndex: Int { 0 }
    /// One past the last section.
    public var endIndex: Int { sections.count }
    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Key, SectionElement> {
        let all = sections
        precondition(
            position >= 0 && position < all.count,
            "Index \(position) is out of bounds (must be less than \(all.count)).")
        return all[position]
    }
    /// The object at `indexPath` (section, item).
    public subscript(indexPath: IndexPath) -> SectionElement { self[indexPath[0]][indexPath[1]] }
}

extension SectionedResults {
    /// A frozen snapshot of the sections.
    public func freeze() -> SectionedResults<Key, SectionElement> { SectionedResults(base: base.freeze(), key: key) }
    /// The live sections a frozen snapshot was taken from.
    public func thaw() -> SectionedResults<Key, SectionElement>? { SectionedResults(base: base.thaw(), key: key) }
}

/// One section of ``SectionedResults``: its key and its objects, as Realm's `ResultsSection`.
public struct ResultsSection<Key: _Persistable & Hashable, Element: Object>: RandomAccessCollection, Identifiable {
    /// The key every object of the section has.
    public let key: Key
    let elements: [Element]

    /// The section's key (its identity among the sections).
    public var id: Key { key }
    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// One past the last object.
    public var endIndex: Int { elements.count }
    /// The object at `position`.
    public subscript(position: Int) -> Element {
        precondition(
            position >= 0 && position < elements.count,
            "Index \(position) is out of bounds (must be less than \(elements.count)).")
        return elements[position]
    }
    /// The object at `indexPath` (its item).
    public subscript(indexPath: IndexPath) -> Element { self[indexPath[1]] }
}

#if !canImport(UIKit) && !canImport(AppKit)
/// UIKit's and AppKit's index-path spellings, which code addressing sectioned results uses
/// (`sections[IndexPath(item: 0, section: 1)]`); swift-corelibs-foundation has no UIKit.
extension IndexPath {
    /// An index path of an item in a section.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The section (first index).
    public var section: Int { self[0] }
    /// The item within the section (second index).
    public var item: Int { self[1] }
}
#endif
