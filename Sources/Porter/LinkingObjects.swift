import Foundation

/// Marks ``LinkingObjects`` for `@Persisted(originProperty:)`.
public protocol _LinkingObjectsProtocol {}

/// The objects that link to an object through one property: Realm's inverse relationship.
///
/// ```swift
/// final class Person: Object {
///     @Persisted(originProperty: "owner") var walkedDogs: LinkingObjects<Dog>
/// }
/// ```
///
/// Live (each read reflects the current links) and read-only: it has no public initializer and no
/// mutating operation; links change only through the origin property. An unmanaged object's
/// linking objects are empty.
public final class LinkingObjects<Element: ObjectBase>: RandomAccessCollection, CustomStringConvertible,
    _LinkingObjectsProtocol
{
    /// The property read, when made for a managed object's `@Persisted` property.
    private let fixedSource: _ManagedProperty?
    private let cache = LiveCache<[ObjectLink]>()
    /// For a property declared `let owners = LinkingObjects(fromType:property:)`: the origin
    /// property, the object it belongs to and its name (see `RealmProperty.swift`).
    let declaredOrigin: String?
    weak var owner: ObjectBase?
    var declaredName: String?

    init(source: _ManagedProperty?) {
        fixedSource = source
        declaredOrigin = nil
    }

    /// The linking objects of the model class's objects whose `property` links to this one
    /// (Realm's declaration without `@Persisted`: `let owners = LinkingObjects(fromType:
    /// Person.self, property: "dogs")`); empty until the object is managed.
    public init(fromType _: Element.Type, property propertyName: String) {
        fixedSource = nil
        declaredOrigin = propertyName
        LegacyProperties.noteDeclared()
    }

    /// The property read: the given one, or the declared property of the owner once managed.
    var source: _ManagedProperty? {
        if let fixedSource { return fixedSource }
        guard let owner else { return nil }
        // Named when the object's properties are listed (once per object, on first use).
        if declaredName == nil { _ = owner._persistedProperties() }
        guard let name = declaredName, let managed = owner._managed,
            let property = try? managed.realm.schemaProperty(managed.className, name)
        else { return nil }
        return _ManagedProperty(realm: managed.realm, owner: managed.link, property: property)
    }

    /// The realm of the object, or nil while unmanaged.
    public var realm: Realm? { source?.realm }

    /// The links, from the cache while the database is unchanged.
    private var links: [ObjectLink] {
        guard let source else { return [] }
        return cache.value(source.database) {
            source.read(fallback: []) {
                try source.reader.linkingObjects(source.owner.className, source.owner.key, source.property.name)
            }
        }
    }

    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { links.count }

    /// The object at `position` (in key order of the origin objects).
    public subscript(position: Int) -> Element {
        let current = links
        precondition(
            position >= 0 && position < current.count,
            "LinkingObjects index \(position) is out of range (count \(current.count))")
        guard let realm else { preconditionFailure("LinkingObjects of an unmanaged object are empty") }
        return realm.managedObject(Element.self, current[position])
    }

    /// Iterates over a snapshot of the objects.
    public func makeIterator() -> IndexingIterator<[Element]> {
        guard let realm else { return [Element]().makeIterator() }
        return links.map { realm.managedObject(Element.self, $0) }.makeIterator()
    }

    /// `LinkingObjects<Dog>[Dog(1), Dog(4)]`.
    public var description: String { "LinkingObjects<\(Element.self)>\(links.map(\.description))" }
}

extension LinkingObjects: _Persistable {
    /// A `linkingObjects` property of the element class.
    /// A live view, not a value in the object's row.
    public static var _porterReadsFromRow: Bool { false }
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.linkingObjects, objectClass: Element.self) }
    /// Empty (an unmanaged object has no links to it).
    public static func _porterDefault() -> LinkingObjects<Element> { LinkingObjects(source: nil) }
    /// Never stored.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> LinkingObjects<Element> {
        throw PorterError(.usage, "LinkingObjects are computed, never stored")
    }
    /// Never stored.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        throw PorterError(.invalidValue, "LinkingObjects properties are read-only")
    }
    /// A live view of the object's linking objects.
    public static func _porterManaged(_ property: _ManagedProperty) throws -> LinkingObjects<Element> {
        LinkingObjects(source: property)
    }
    /// Empty, as for any unmanaged object.
    public func _porterDetached(_ copier: _DetachCopier) -> LinkingObjects<Element> { LinkingObjects(source: nil) }
}
