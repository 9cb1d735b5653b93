import Foundation

/// A Swift type that a `@Persisted` property can hold: how it appears in the schema, its value
/// when declared without one, and its conversion to and from the engine's ``Value``.
///
/// Porter conforms the supported types (the Realm cheat sheet); users conform their own types
/// through ``PersistableEnum``, ``CustomPersistable`` or ``FailableCustomPersistable`` rather than
/// implementing these underscored requirements.
public protocol _Persistable {
    /// The schema shape of this type (base type, optionality, collection kind, link target).
    static var _porterType: _PorterTypeInfo { get }
    /// The value of a property declared without an initial value (`@Persisted var n: Int`).
    static func _porterDefault() -> Self
    /// Reads a stored value; `realm` is needed to materialize linked objects.
    /// - Throws: `PorterError` when the value does not fit (wrong kind, out of range, unknown case).
    static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self
    /// The stored value; objects are added or linked through `writer`.
    func _porterEncode(_ writer: _PorterWriter) throws -> Value
    /// The value a managed object's property has: decoded from the database by default, a live
    /// view bound to the object for collections and linking objects.
    static func _porterManaged(_ property: _ManagedProperty) throws -> Self
    /// Whether a managed value is one stored value (read from the object's row), not a live
    /// view (collections, linking objects): `_porterType` says so too, but costs more to ask.
    static var _porterReadsFromRow: Bool { get }
    /// A copy that no longer refers to any database (objects copied through `copier`).
    func _porterDetached(_ copier: _DetachCopier) -> Self
    /// The embedded objects this value holds, in stored order (map entries with their keys).
    func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)]
    /// A value of this type from a loosely typed one (`Object(value:)`, `setValue(_:forKey:)`,
    /// `create(_:value:)`): the value itself, a number of another width, a dictionary or array
    /// for an object, an array for a list … nil when it cannot be one.
    static func _porterFromAny(_ value: Any) -> Self?
}

/// A type that can be an element of ``List``, ``MutableSet`` and ``Map`` (every supported type
/// except the collections themselves and ``LinkingObjects``). `Hashable` so unmanaged sets can
/// keep their elements unique, as in Realm.
public protocol RealmCollectionValue: _Persistable, Hashable {}

/// Realm's name for the types its schema discovers from Swift declarations: Porter's
/// `_Persistable` (code generic over `T: _RealmSchemaDiscoverable` compiles unchanged).
public typealias _RealmSchemaDiscoverable = _Persistable

/// The key type of a ``Map``: only `String`, as in Realm.
public protocol _MapKey: Hashable, Comparable {
    /// The key as stored.
    var _porterKey: String { get }
    /// A key from its stored form.
    init(_porterKey: String)
}

extension String: _MapKey {
    /// The key as stored.
    public var _porterKey: String { self }
    /// A key from its stored form.
    public init(_porterKey: String) { self = _porterKey }
}

/// How a Swift type maps onto a schema ``Property`` (everything but the name and options).
public struct _PorterTypeInfo {
    /// The base type.
    public var type: PropertyType
    /// The Swift class of a link target (`object`) or origin (`linkingObjects`).
    public var objectClass: ObjectBase.Type?
    /// Whether the value (or, for a collection, each element) may be null.
    public var isOptional: Bool
    /// List, set, map or none.
    public var collection: CollectionKind
    /// Why the type cannot be stored, when it cannot (`List<Int>?`, `Int??` …).
    public var unsupportedReason: String?

    /// A scalar type.
    public init(_ type: PropertyType, optional: Bool = false) {
        self.type = type
        self.isOptional = optional || type == .mixed
        self.collection = .none
    }

    /// A link (or linking objects) to a class.
    public init(_ type: PropertyType, objectClass: ObjectBase.Type) {
        self.type = type
        self.objectClass = objectClass
        self.isOptional = false
        self.collection = .none
    }

    /// The same element type in a collection, or unsupported when the element cannot be one.
    func inCollection(_ kind: CollectionKind) -> _PorterTypeInfo {
        var info = self
        if unsupportedReason != nil { return info }
        if collection != .none {
            info.unsupportedReason = "collections cannot be nested"
        } else if type == .linkingObjects {
            info.unsupportedReason = "LinkingObjects cannot be a collection element"
        } else {
            info.collection = kind
        }
        return info
    }
}

extension _Persistable {
    /// Decodes the stored value of the property by default.
    public static func _porterManaged(_ property: _ManagedProperty) throws -> Self {
        try _porterDecode(try property.storedValue(), property.realm)
    }

    /// One stored value by default.
    public static var _porterReadsFromRow: Bool { true }

    /// Values are detached already unless they hold objects.
    public func _porterDetached(_ copier: _DetachCopier) -> Self { self }

    /// No embedded objects unless the type holds some.
    public func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)] { [] }

    /// The value when it already has this type.
    public static func _porterFromAny(_ value: Any) -> Self? { value as? Self }
}

/// One property of one managed object: what live collections and lazy reads are bound to.
public struct _ManagedProperty {
    /// The realm the object belongs to.
    public let realm: Realm
    /// The object.
    public let owner: ObjectLink
    /// The property's schema.
    public let property: Property

    /// `Class.property`, for messages.
    var location: String { "\(owner.className).\(property.name)" }

    /// The property's current stored value.
    func storedValue() throws -> Value {
        try realm.reader.value(owner.className, owner.key, property.name)
    }
}

/// The error for a stored value that does not fit a Swift type.
func mismatch(_ value: Value, _ swiftType: Any.Type) -> PorterError {
    PorterError(.invalidValue, "stored \(value.kindName) value cannot be read as \(String(describing: swiftType))")
}
