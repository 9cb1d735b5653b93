import Foundation

/// An ordered list property (`@Persisted var dogs: List<Dog>`), as Realm's `List`.
///
/// Unmanaged, it holds its own elements. Managed, it is a live view of the stored list: reads
/// see the current elements, and each change (`append`, `insert`, `remove`, `move`, assignment
/// through the subscript) writes just that element, inside a write transaction. Embedded
/// elements that are removed or replaced are deleted, as in Realm.
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, MutableCollection,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    typealias Storage = ElementStorage<Element>

    var storage: Storage

    /// An empty unmanaged list.
    public init() { storage = .unmanaged([]) }

    /// An unmanaged list of the given elements.
    public init(arrayLiteral elements: Element...) { storage = .unmanaged(elements) }

    /// An unmanaged list of a sequence's elements.
    public init<S: Sequence>(_ elements: S) where S.Element == Element { storage = .unmanaged(Array(elements)) }

    init(managed: _ManagedProperty) { storage = .managed(managed) }

    /// The realm of the object owning the list, or nil while unmanaged.
    public var realm: Realm? { storage.realm }

    /// All elements, in order (one read of the stored list when managed).
    public var elements: [Element] { storage.elements }

    /// The position of the first element.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { count }

    /// The number of elements.
    public var count: Int { storage.count }

    /// The element at `position`; setting it replaces the stored element.
    /// An index outside `0..<count` stops the program, as for `Array`.
    public subscript(position: Int) -> Element {
        get {
            switch storage {
            case .unmanaged(let items): return items[position]
            case .managed(let p):
                do {
                    let value = try p.reader.listElement(
                        p.owner.className, p.owner.key, p.property.name, at: position)
                    return try Element._porterDecode(value, p.realm)
                } catch let error as PorterError where error.code == .usage {
                    preconditionFailure("List index \(position) is out of range: \(error.message)")
                } catch {
                    p.realm.recordReadError(error, location: p.location)
                    return Element._porterDefault()
                }
            }
        }
        set {
            switch storage {
            case .unmanaged(var items):
                items[position] = newValue
                storage = .unmanaged(items)
            case .managed(let p):
                p.change { writer in
                    let value = try newValue._porterEncode(writer)
                    let stored = try p.database.listSet(
                        p.owner.className, p.owner.key, p.property.name, at: position, value)
                    try writer.attachEmbedded(newValue._porterEmbeddedObjects(), stored: stored)
                }
            }
        }
    }

    /// Iterates over a snapshot of the elements (one read when managed).
    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }

    /// Inserts `element` at `index` (`index == count` appends).
    public func insert(_ element: Element, at index: Int) {
        switch storage {
        case .unmanaged(var items):
            items.insert(element, at: index)
            storage = .unmanaged(items)
        case .managed(let p):
            p.change { writer in
                let value = try element._porterEncode(writer)
                let stored = try p.database.listInsert(
                    p.owner.className, p.owner.key, p.property.name, value, at: index)
                try writer.attachEmbedded(element._porterEmbeddedObjects(), stored: stored)
            }
        }
    }

    /// Appends an element (an unmanaged object is added to the realm when the list is managed).
    public func append(_ element: Element) { insert(element, at: count) }

    /// Appends every element of a sequence (Realm's name).
    public func append<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// Porter's earlier name for ``append(objectsIn:)``.
    @available(*, deprecated, renamed: "append(objectsIn:)")
    public func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        append(objectsIn: elements)
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        switch storage {
        case .unmanaged(var items):
            items.remove(at: index)
            storage = .unmanaged(items)
        case .managed(let p):
            p.change { _ in try p.database.listRemove(p.owner.className, p.owner.key, p.property.name, at: index) }
        }
    }

    /// Removes the first `number` elements.
    public func removeFirst(_ number: Int = 1) {
        for _ in 0..<number { remove(at: 0) }
    }

    /// Removes the last `number` elements.
    public func removeLast(_ number: Int = 1) {
        for _ in 0..<number { remove(at: count - 1) }
    }

    /// Removes every element.
    public func removeAll() {
        switch storage {
        case .unmanaged:
            storage = .unmanaged([])
        case .managed(let p):
            p.change { _ in try p.database.set(p.owner.className, p.owner.key, p.property.name, .list([])) }
        }
    }

    /// Moves the element at `from` so that it ends up at index `to` (an embedded element is kept).
    public func move(from: Int, to: Int) {
        switch storage {
        case .unmanaged(var items):
            items.insert(items.remove(at: from), at: to)
            storage = .unmanaged(items)
        case .managed(let p):
            p.change { _ in try p.database.listMove(p.owner.className, p.owner.key, p.property.name, from: from, to: to)
            }
        }
    }

    /// Exchanges two elements (by moving them, so embedded elements are kept).
    public func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        let (low, high) = (Swift.min(i, j), Swift.max(i, j))
        move(from: high, to: low)
        move(from: low + 1, to: high)
    }

    /// Replaces the element at `index`.
    public func replace(index: Int, object: Element) { self[index] = object }

    /// `[a, b, c]`.
    public var description: String { "List<\(Element.self)>\(elements.map { describeValue($0) })" }
}

extension List: _Persistable {
    /// The element type's schema shape as a list.
    /// A live view, not a value in the object's row.
    public static var _porterReadsFromRow: Bool { false }
    public static var _porterType: _PorterTypeInfo {
        Element._porterType.inCollection(.list)
    }
    /// An empty list.
    public static func _porterDefault() -> List<Element> { List() }
    /// An unmanaged list of the stored elements.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> List<Element> {
        guard case .list(let items) = value else { throw mismatch(value, List<Element>.self) }
        return List(try items.map { try Element._porterDecode($0, realm) })
    }
    /// The elements' stored values.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        .list(try elements.map { try $0._porterEncode(writer) })
    }
    /// A live view of the managed object's list.
    public static func _porterManaged(_ property: _ManagedProperty) throws -> List<Element> {
        List(managed: property)
    }
    /// An unmanaged list of detached elements.
    public func _porterDetached(_ copier: _DetachCopier) -> List<Element> {
        List(elements.map { $0._porterDetached(copier) })
    }
    /// The embedded elements, in order.
    public func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)] {
        elements.flatMap { $0._porterEmbeddedObjects() }
    }
}
