import Foundation

/// A class projection, as Realm's: a view of a model object through chosen (and renamed, or
/// transformed through links and collections) properties.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.address.city) var homeCity
///     @Projected(\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
/// }
/// let people = realm.objects(PersonProjection.self)
/// try realm.write { people[0].firstName = "Ali" }   // writes Person.firstName
/// ```
open class Projection<Root: Object>: RealmFetchable, _ProjectionRoot, Hashable, CustomStringConvertible {
    /// The projected object.
    public let rootObject: Root

    /// A projection of `object`.
    public required init(projecting object: Root) { rootObject = object }

    /// The projected object, type-erased for ``Projected``.
    public var _projectedRoot: ObjectBase { rootObject }

    /// The realm of the projected object, or nil while it is unmanaged.
    public var realm: Realm? { rootObject.realm }

    /// Whether the projected object was deleted.
    public var isInvalidated: Bool { rootObject.isInvalidated }

    /// The projected class's name.
    public static func _fetchedClassName() -> String { Root.className() }

    /// A projection of the stored object.
    public static func _fetched(_ realm: Realm, _ link: ObjectLink) -> Self {
        Self(projecting: realm.managedObject(Root.self, link))
    }

    /// Projections of the same object are equal.
    public static func == (lhs: Projection<Root>, rhs: Projection<Root>) -> Bool { lhs.rootObject == rhs.rootObject }

    /// Hashes the projected object.
    public func hash(into hasher: inout Hasher) { hasher.combine(rootObject) }

    /// `PersonProjection<Person> { firstName = Ali; … }`.
    open var description: String {
        let fields = _projectedProperties().map { "\($0.label) = \(describeValue($0.property.value(of: self)))" }
        return "\(type(of: self))<\(Root.className())> { \(fields.joined(separator: "; ")) }"
    }

    /// The `@Projected` properties, in declared order.
    func _projectedProperties() -> [(label: String, property: AnyProjected)] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label, let property = child.value as? AnyProjected else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, property)
        }
    }
}

/// What ``Projected`` reads through.
public protocol _ProjectionRoot: AnyObject {
    /// The projected object.
    var _projectedRoot: ObjectBase { get }
}

/// Type-erased access to a `@Projected` property.
protocol AnyProjected {
    /// The current value for `projection`.
    func value(of projection: _ProjectionRoot) -> Any
    /// The first property of the root class the key path reads.
    var rootPropertyName: String? { get }
}

/// One property of a ``Projection``: a key path from the projected class, as Realm's `@Projected`.
/// Assigning writes through the key path (inside a write transaction when managed); a key path
/// that cannot be written (through a collection transformation) is read-only.
@propertyWrapper
public struct Projected<T: ObjectBase, Value>: AnyProjected {
    let keyPath: KeyPath<T, Value>

    /// Projects the property `projectedKeyPath` names.
    public init(_ projectedKeyPath: KeyPath<T, Value>) { keyPath = projectedKeyPath }

    /// Not used: the value is read through the enclosing projection (below).
    @available(*, unavailable, message: "@Projected can only be used on properties of Projection subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Projected can only be used on properties of Projection subclasses") }
        set { fatalError("@Projected can only be used on properties of Projection subclasses") }
    }

    /// Reads and writes the property through the projected object.
    public static subscript<EnclosingSelf: _ProjectionRoot>(
        _enclosingInstance projection: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Projected<T, Value>>
    ) -> Value {
        get { projection[keyPath: storageKeyPath].read(projection) }
        set {
            let keyPath = projection[keyPath: storageKeyPath].keyPath
            guard let root = projection._projectedRoot as? T,
                let writable = keyPath as? ReferenceWritableKeyPath<T, Value>
            else {
                preconditionFailure("\(type(of: projection)): the projected key path \(keyPath) cannot be written")
            }
            root[keyPath: writable] = newValue
        }
    }

    private func read(_ projection: _ProjectionRoot) -> Value {
        guard let root = projection._projectedRoot as? T else {
            preconditionFailure(
                "\(type(of: projection)) projects \(type(of: projection._projectedRoot)), not \(T.self)")
        }
        return root[keyPath: keyPath]
    }

    func value(of projection: _ProjectionRoot) -> Any { read(projection) }

    var rootPropertyName: String? { KeyPathNames.firstName(of: keyPath) }
}

/// The values one property takes over a collection of objects (`\Person.friends.projectTo.firstName`):
/// live, read-only, in the collection's order.
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible {
    let read: () -> [Element]

    /// The position of the first value.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { read().count }
    /// The value at `position`.
    public subscript(position: Int) -> Element { read()[position] }
    /// `["a", "b"]`.
    public var description: String { "ProjectedCollection\(read().map { describeValue($0) })" }
}

/// Maps a collection of objects to one of their properties (`friends.projectTo.firstName`).
@dynamicMemberLookup
public struct ElementMapper<Element: ObjectBase> {
    let elements: () -> [Element]

    /// The values of one property of every element.
    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        let elements = self.elements
        return ProjectedCollection { elements().map { $0[keyPath: member] } }
    }
}

extension List where Element: ObjectBase {
    /// Projects one property of the elements (for `@Projected(\Person.friends.projectTo.name)`).
    public var projectTo: ElementMapper<Element> { ElementMapper { self.elements } }
}

extension MutableSet where Element: ObjectBase {
    /// Projects one property of the elements.
    public var projectTo: ElementMapper<Element> { ElementMapper { self.elements } }
}

extension LinkingObjects {
    /// Projects one property of the linking objects.
    public var projectTo: ElementMapper<Element> { ElementMapper { Array(self) } }
}

extension Realm {
    /// Every object of the projected class, as projections.
    public func objects<P: _ProjectionFetchable>(_ type: P.Type) -> Results<P> {
        do {
            _ = try objectSchema(for: P._projectedClass)
        } catch {
            recordReadError(error, location: P._fetchedClassName())
        }
        return Results(realm: self, className: P._fetchedClassName())
    }
}

/// Projections ``Realm/objects(_:)`` can fetch.
public protocol _ProjectionFetchable: RealmFetchable {
    /// The projected model class.
    static var _projectedClass: ObjectBase.Type { get }
}

extension Projection: _ProjectionFetchable {
    /// The projected model class.
    public static var _projectedClass: ObjectBase.Type { Root.self }
}

/// Projections that can be observed (Realm's `ProjectionObservable`).
public protocol ProjectionObservable: _ProjectionRoot {
    /// A projection of the same class of another object.
    static func _reprojected(_ object: ObjectBase) -> Self
}

extension Projection: ProjectionObservable {
    /// A projection of `object`, which must be a `Root`.
    public static func _reprojected(_ object: ObjectBase) -> Self {
        guard let root = object as? Root else {
            preconditionFailure("\(Self.self) projects \(Root.self), not \(type(of: object))")
        }
        return Self(projecting: root)
    }
}

extension ProjectionObservable {
    /// Observes the projected object: `.change(projection, changes)` (named by the projection's
    /// properties) after each commit that changes a projected property, `.deleted` when it is deleted.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        var labels: [String: String] = [:]
        for child in Mirror(reflecting: self).children {
            guard let raw = child.label, let property = child.value as? AnyProjected else { continue }
            let label = raw.hasPrefix("_") ? String(raw.dropFirst()) : raw
            guard keyPaths?.contains(label) ?? true, let root = property.rootPropertyName, labels[root] == nil else {
                continue
            }
            labels[root] = label
        }
        return _projectedRoot.observe(keyPaths: Array(labels.keys), on: queue) { change in
            switch change {
            case .change(let object, let properties):
                let renamed = properties.compactMap { p in
                    labels[p.name].map { PropertyChange(name: $0, oldValue: p.oldValue, newValue: p.newValue) }
                }
                if !renamed.isEmpty { block(.change(Self._reprojected(object), renamed)) }
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            }
        }
    }
}

// A projection is stored as a link to its projected object: that makes projections collection
// values, as in Realm (where `Results<Element: RealmCollectionValue>` holds them), so a
// `List<PersonProjection>` holds projections of the linked `Person` objects.
extension Projection: RealmCollectionValue {
    /// A link to the projected class.
    public static var _porterType: _PorterTypeInfo { Root._porterType }
    /// A projection of a new unmanaged object.
    public static func _porterDefault() -> Self { Self(projecting: Root._porterDefault()) }
    /// A projection of the linked object.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        Self(projecting: try Root._porterDecode(value, realm))
    }
    /// A link to the projected object.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { try rootObject._porterEncode(writer) }
    /// A projection of the detached copy of the projected object.
    public func _porterDetached(_ copier: _DetachCopier) -> Self {
        Self(projecting: rootObject._porterDetached(copier))
    }
    /// The projection itself, or a projection of a `Root` object.
    public static func _porterFromAny(_ value: Any) -> Self? {
        if let projection = value as? Self { return projection }
        return (value as? Root).map { Self(projecting: $0) }
    }
}
