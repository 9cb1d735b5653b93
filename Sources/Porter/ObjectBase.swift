import Foundation

/// The common base of ``Object`` and ``EmbeddedObject``: a model class whose `@Persisted`
/// properties are stored, unmanaged (holding its own values) until it is added to a ``Realm``,
/// then managed (reading and writing through to the database).
///
/// Model objects are reference types meant for one thread, like Realm's: they are not `Sendable`.
/// Subclasses need no initializer of their own; Porter creates instances with their `init()`.
open class ObjectBase: RealmCollectionValue, CustomStringConvertible {
    /// Where the object lives once managed; nil while unmanaged, or once the write transaction
    /// that added it was rolled back (the realm does not keep every object it added in a write).
    var _managed: ManagedState? {
        get {
            guard let state = _managedState else { return nil }
            if let write = state.addedIn, write.isRolledBack {
                _managedState = nil
                _row = nil
                return nil
            }
            return state
        }
        set {
            _managedState = newValue
            _row = nil
        }
    }
    // Unchecked: read on every property access of a managed object; only ever used on one thread.
    @exclusivity(unchecked) private var _managedState: ManagedState?

    /// Makes an object just made with `init()` managed: unlike the ``_managed`` setter, it has no
    /// state or row to drop (a realm does this for every object it hands out).
    final func _becomeManaged(_ state: consuming ManagedState) {
        _managedState = state
    }
    /// Whether the object is unmanaged and not frozen, so its properties hold their own values.
    /// (An object whose adding write was rolled back is not, until ``_managed`` is read.)
    @usableFromInline final var _isPlainUnmanaged: Bool { _managedState == nil && _frozenSource == nil }
    /// Whether the object is plain unmanaged and its properties' reads return their own values
    /// (not a prototype recording the key paths of a query).
    @usableFromInline final var _holdsOwnValues: Bool {
        _managedState == nil && _frozenSource == nil && _keyPathRecorder == nil
    }
    /// The stored values last read for this managed object (see ``ManagedRow``).
    @usableFromInline @exclusivity(unchecked) final var _row: ManagedRow?
    /// Set while a query or sort key path is being resolved on a prototype.
    @exclusivity(unchecked) final var _keyPathRecorder: KeyPathRecorder?
    /// Where a frozen copy was frozen from (see ``freeze()``); nil for live objects.
    @exclusivity(unchecked) final var _frozenSource: ManagedState?

    /// Creates an unmanaged object with its declared initial values.
    ///
    /// A plain designated initializer, as Realm's: a model may override it
    /// (`override init() { super.init() }`) or add its own convenience initializers.
    public init() {
        // Properties declared without `@Persisted` (`let age = RealmProperty<Int?>()`) learn their
        // object; the subclass's fields are set before this runs.
        if LegacyProperties.anyDeclared { LegacyProperties.bind(self) }
    }

    /// How Porter makes an object of a class it knows only at run time (each object a realm hands
    /// out): `init()` of that class, whichever class overrides it. Not for use by programs.
    ///
    /// Required, so every model class has it; convenience, so models inherit it whenever they
    /// inherit or override `init()` (a model declaring only other designated initializers has no
    /// `init()` to run, and is told so by the compiler rather than trapping when read).
    public required convenience init(_porterMake: Void) {
        self.init()
    }

    /// Override to store the class under another name than the Swift class name (Realm's hook).
    open class func _realmObjectName() -> String? { nil }

    /// The class name in the schema: `_realmObjectName()` or the Swift class name.
    public class func className() -> String {
        PersistedFieldTable.shared.className(of: self) { _realmObjectName() ?? String(describing: self) }
    }

    // MARK: - Realm's class-level model hooks

    /// The primary key property's name. Realm honours this for models without
    /// `@Persisted(primaryKey: true)`; Porter does too.
    open class func primaryKey() -> String? { nil }

    /// Names of properties to index besides those declared `@Persisted(indexed: true)`.
    open class func indexedProperties() -> [String] { [] }

    /// Names of properties to ignore. Only `@Persisted` properties are stored, so every other
    /// property is ignored already; listing a `@Persisted` one here leaves it out of the schema.
    open class func ignoredProperties() -> [String] { [] }

    /// The realm managing this object, or nil while it is unmanaged.
    public var realm: Realm? { _managed?.realm }

    /// Whether the object was managed and no longer exists (deleted, or its write was rolled back).
    public var isInvalidated: Bool {
        guard let managed = _managed else { return false }
        return !((try? managed.realm.reader.exists(managed.className, managed.key)) ?? false)
    }

    /// The object's schema: its realm's when managed, the model class's while unmanaged.
    public var objectSchema: ObjectSchema {
        if let managed = _managed, let schema = managed.realm.database.schema[managed.className] { return schema }
        return ModelReflection.objectSchema(of: type(of: self)).schema
    }

    /// Whether both are the same stored object (or the same instance, when unmanaged).
    public func isSameObject(as other: ObjectBase?) -> Bool {
        guard let other else { return false }
        return self == other
    }

    /// `Dog { name = Rex; age = 3 }`: the current values of the persisted properties.
    open var description: String {
        let fields = _persistedProperties().map { "\($0.name) = \(describeValue($0.property.currentValue(of: self)))" }
        return "\(type(of: self).className()) { \(fields.joined(separator: "; ")) }"
    }

    // MARK: Equality

    /// Same instance, or managed by the same database and naming the same stored object.
    public static func == (lhs: ObjectBase, rhs: ObjectBase) -> Bool {
        if lhs === rhs { return true }
        guard let l = lhs._managed, let r = rhs._managed else { return false }
        return l.realm.database === r.realm.database && l.className == r.className && l.key == r.key
    }

    /// Hashes the stored identity when managed, the instance otherwise.
    public func hash(into hasher: inout Hasher) {
        if let managed = _managed {
            hasher.combine(managed.className)
            hasher.combine(managed.key)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    // MARK: _Persistable (a link, or an embedded object)

    /// A link to this class.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.object, objectClass: self) }

    /// A new unmanaged object (only used for non-optional links, which the schema rejects).
    public static func _porterDefault() -> Self { Self(_porterMake: ()) }

    /// The managed object a stored link points to.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        guard case .link(let link) = value else { throw mismatch(value, Self.self) }
        guard let realm else { throw PorterError(.usage, "a link can only be read through a realm") }
        return realm.managedObject(Self.self, link)
    }

    /// A link (adding the object first when it is unmanaged), or the fields of an embedded object.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        self is EmbeddedObject ? try writer.embedded(self) : try writer.link(to: self)
    }

    /// An unmanaged copy (one per stored object, so cycles stay cycles).
    public func _porterDetached(_ copier: _DetachCopier) -> Self { copier.detached(self) }

    /// Itself when embedded.
    public func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)] {
        self is EmbeddedObject ? [(nil, self)] : []
    }
}

/// A top-level model class: objects live on their own, can have a primary key, and can be linked
/// to from any number of objects.
///
/// ```swift
/// final class Dog: Object {
///     @Persisted(primaryKey: true) var _id: ObjectId
///     @Persisted var name = ""
/// }
/// ```
open class Object: ObjectBase {}

/// A model class whose objects live inside one parent object (Realm's embedded objects): assigned
/// by value, deleted with their parent or when replaced, never queried on their own, and never
/// with a primary key.
open class EmbeddedObject: ObjectBase {}

/// Where a managed object lives.
struct ManagedState {
    /// The realm; objects keep it open, as Realm's do.
    let realm: Realm
    /// The class name in the schema.
    let className: String
    /// The object's key.
    let key: ObjectKey
    /// The write transaction that made the object managed, while it may still be rolled back.
    var addedIn: WriteAttachment?

    init(realm: Realm, className: String, key: ObjectKey, addedIn: WriteAttachment? = nil) {
        self.realm = realm
        self.className = className
        self.key = key
        self.addedIn = addedIn
    }

    /// A link to the object.
    var link: ObjectLink { ObjectLink(className, key) }
}

/// Collects the property names a key path reads on a prototype (see `KeyPathNames.swift`).
final class KeyPathRecorder {
    /// Names in the order they were read.
    var names: [String] = []
}

/// A short rendering of a property value for ``ObjectBase/description``.
func describeValue(_ value: Any) -> String {
    if let object = value as? ObjectBase {
        if let managed = object._managed { return "\(managed.className)(\(managed.key))" }
        return "\(type(of: object).className())(unmanaged)"
    }
    if let optional = value as? OptionalDescribing { return optional.describedOrNil }
    // An object held in a mixed value is named, not described, so a cycle cannot recurse forever.
    if let mixed = value as? AnyRealmValue, case .object(let object) = mixed {
        return "object(\(describeValue(object)))"
    }
    return String(describing: value)
}

/// Lets ``describeValue(_:)`` print `nil` instead of `Optional(…)`.
protocol OptionalDescribing {
    /// The wrapped value's rendering, or `nil`.
    var describedOrNil: String { get }
}

extension Optional: OptionalDescribing {
    var describedOrNil: String { map { describeValue($0) } ?? "nil" }
}
