import Foundation

/// A set property (`@Persisted var tags: MutableSet<String>`), as Realm's `MutableSet`: unique
/// elements without a meaningful order (Porter iterates them in stored order, which is stable).
///
/// Unmanaged, it holds its own elements (in insertion order). Managed, it is a live view: each
/// `insert`/`remove` writes one element, inside a write transaction. Sets cannot hold embedded objects.
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    typealias Storage = ElementStorage<Element>

    var storage: Storage

    /// An empty unmanaged set.
    public init() { storage = .unmanaged([]) }

    /// An unmanaged set of the given elements (duplicates dropped).
    public init(arrayLiteral elements: Element...) { storage = .unmanaged(MutableSet.unique(elements)) }

    /// An unmanaged set of a sequence's elements (duplicates dropped).
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        storage = .unmanaged(MutableSet.unique(elements))
    }

    init(managed: _ManagedProperty) { storage = .managed(managed) }

    private static func unique<S: Sequence>(_ elements: S) -> [Element] where S.Element == Element {
        var seen = Set<Element>()
        return elements.filter { seen.insert($0).inserted }
    }

    /// The realm of the object owning the set, or nil while unmanaged.
    public var realm: Realm? { storage.realm }

    /// All elements (one read when managed).
    public var elements: [Element] { storage.elements }

    /// The position of the first element.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { count }

    /// The number of elements.
    public var count: Int { storage.count }

    /// The element at `position` in iteration order.
    public subscript(position: Int) -> Element { elements[position] }

    /// Iterates over a snapshot of the elements.
    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }

    /// Whether the set holds `element` (one indexed lookup when managed).
    public func contains(_ element: Element) -> Bool {
        switch storage {
        case .unmanaged(let items): return items.contains(element)
        case .managed(let p):
            guard let value = p.queryValue(element) else { return false }
            return p.read(fallback: false) {
                try p.reader.setContains(p.owner.className, p.owner.key, p.property.name, value)
            }
        }
    }

    /// Adds `element` unless the set holds it already.
    public func insert(_ element: Element) {
        switch storage {
        case .unmanaged(var items):
            guard !items.contains(element) else { return }
            items.append(element)
            storage = .unmanaged(items)
        case .managed(let p):
            p.change { writer in
                _ = try p.database.setInsert(
                    p.owner.className, p.owner.key, p.property.name, try element._porterEncode(writer))
            }
        }
    }

    /// Removes `element` if the set holds it.
    public func remove(_ element: Element) {
        switch storage {
        case .unmanaged(var items):
            items.removeAll { $0 == element }
            storage = .unmanaged(items)
        case .managed(let p):
            guard let value = p.queryValue(element) else { return }
            p.change { _ in _ = try p.database.setRemove(p.owner.className, p.owner.key, p.property.name, value) }
        }
    }

    /// Removes every element.
    public func removeAll() {
        switch storage {
        case .unmanaged:
            storage = .unmanaged([])
        case .managed(let p):
            p.change { _ in try p.database.set(p.owner.className, p.owner.key, p.property.name, .set([])) }
        }
    }

    /// Adds every element of a sequence.
    public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
        for element in other { insert(element) }
    }

    /// Removes every element of a sequence.
    public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
        for element in other { remove(element) }
    }

    /// Keeps only the elements that are also in a sequence.
    public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
        let keep = Set(other)
        for element in elements where !keep.contains(element) { remove(element) }
    }

    /// Whether every element is also in `other`.
    public func isSubset<S: Sequence>(of other: S) -> Bool where S.Element == Element {
        Set(elements).isSubset(of: Set(other))
    }

    /// Whether some element is also in `other`.
    public func intersects<S: Sequence>(_ other: S) -> Bool where S.Element == Element {
        !Set(elements).isDisjoint(with: Set(other))
    }

    /// `{a, b}`.
    public var description: String {
        "MutableSet<\(Element.self)>{\(elements.map { describeValue($0) }.joined(separator: ", "))}"
    }
}

extension MutableSet: _Persistable {
    /// The element type's schema shape as a set.
    /// A live view, not a value in the object's row.
    public static var _porterReadsFromRow: Bool { false }
    public static var _porterType: _PorterTypeInfo { Element._porterType.inCollection(.set) }
    /// An empty set.
    public static func _porterDefault() -> MutableSet<Element> { MutableSet() }
    /// An unmanaged set of the stored elements.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> MutableSet<Element> {
        guard case .set(let items) = value else { throw mismatch(value, MutableSet<Element>.self) }
        return MutableSet(try items.map { try Element._porterDecode($0, realm) })
    }
    /// The elements' stored values.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        .set(try elements.map { try $0._porterEncode(writer) })
    }
    /// A live view of the managed object's set.
    public static func _porterManaged(_ property: _ManagedProperty) throws -> MutableSet<Element> {
        MutableSet(managed: property)
    }
    /// An unmanaged set of detached elements.
    public func _porterDetached(_ copier: _DetachCopier) -> MutableSet<Element> {
        MutableSet(elements.map { $0._porterDetached(copier) })
    }
}
