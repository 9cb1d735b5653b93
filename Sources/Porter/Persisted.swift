import Foundation

/// Marks a property of an ``Object`` or ``EmbeddedObject`` subclass as stored, as Realm's
/// `@Persisted` does. Properties without it are ignored.
///
/// ```swift
/// @Persisted(primaryKey: true) var _id: ObjectId   // primary key (generated when not set)
/// @Persisted(indexed: true) var name = ""          // indexed
/// @Persisted var breed: String?                    // optional
/// @Persisted var status = Status.active            // PersistableEnum, default "active"
/// @Persisted(originProperty: "owner") var walkers: LinkingObjects<Dog>
/// ```
///
/// The property name is the Swift name. An initial value that is the same for every new instance
/// becomes the schema default (`= 3`, `= Status.active`); one that differs each time (`= Date()`,
/// `= ObjectId.generate()`) is computed per object and not part of the schema.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    @usableFromInline let storage: PersistedStorage<Value>

    /// A property declared without an initial value: it starts at the type's default.
    @inlinable public init() {
        storage = PersistedStorage.make(initial: nil, options: PersistedOptions())
    }

    /// A property declared with an initial value.
    @inlinable public init(wrappedValue: Value) {
        storage = PersistedStorage.make(initial: wrappedValue, options: PersistedOptions())
    }

    /// A property that is (or, with `false`, is not) the primary key.
    @inlinable public init(primaryKey: Bool) {
        storage = PersistedStorage.make(initial: nil, options: PersistedOptions(isPrimaryKey: primaryKey))
    }

    /// A primary-key property with an initial value.
    @inlinable public init(wrappedValue: Value, primaryKey: Bool) {
        storage = PersistedStorage.make(initial: wrappedValue, options: PersistedOptions(isPrimaryKey: primaryKey))
    }

    /// A property with (or without) an index.
    @inlinable public init(indexed: Bool) {
        storage = PersistedStorage.make(initial: nil, options: PersistedOptions(isIndexed: indexed))
    }

    /// An indexed property with an initial value.
    @inlinable public init(wrappedValue: Value, indexed: Bool) {
        storage = PersistedStorage.make(initial: wrappedValue, options: PersistedOptions(isIndexed: indexed))
    }

    /// Not used: the value is read and written through the enclosing object (below). Declaring
    /// `@Persisted` outside an `Object`/`EmbeddedObject` subclass is a compile-time error.
    @available(
        *, unavailable, message: "@Persisted can only be used on properties of Object and EmbeddedObject subclasses"
    )
    public var wrappedValue: Value {
        get { storage.current() }
        set { storage.store(newValue) }
    }

    /// Reads and writes the property of `object`: its own value while unmanaged, the database's
    /// once managed.
    // Inlinable so the client's optimizer specializes it and turns the storage key path into a
    // field access (a generic key path projection per read cost more than the read itself).
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        // Always inlined into the model's accessors: only there is the key path a literal the
        // optimizer turns into a field access (a specialized but separate setter projected it).
        @inline(__always) get {
            // A managed object's value comes from its current row without touching the wrapper (a
            // key-path access to the model's field, checked for exclusivity, on every read):
            // specialized for the property's type when its column is known, …
            if let row = object._row, let value = row.currentValue(Value.self, keyPath: storageKeyPath) {
                return value
            }
            // … else through the path that names the property and records its column.
            if let value = try? PersistedStorage<Value>.rowValue(
                in: object, keyPath: storageKeyPath,
                name: {
                    object[keyPath: storageKeyPath].storage.resolvedName(in: object, keyPath: storageKeyPath)
                })
            {
                return value
            }
            return object[keyPath: storageKeyPath].storage.read(in: object, keyPath: storageKeyPath)
        }
        @inline(__always) set {
            let storage = object[keyPath: storageKeyPath].storage
            // An unmanaged, unfrozen object keeps the value itself: set here, specialized (most
            // values of objects about to be added are set this way).
            // A value read from a row is never linking objects: asking that first spares building the
            // type's `_porterType` per set.
            if object._isPlainUnmanaged && (Value._porterReadsFromRow || Value._porterType.type != .linkingObjects) {
                // A shared storage (an object a realm is making; see `SharedStorages`) keeps nothing.
                if !storage.isShared { storage.store(newValue) }
            } else {
                // No key path passed on: using it here made every set instantiate it (a runtime call,
                // a retain and a release), where only the field access it names is needed. The
                // storage learns its name once (see `resolvedName`).
                storage.write(newValue, in: object)
            }
        }
    }
}

extension Persisted where Value: _LinkingObjectsProtocol {
    /// The objects whose `originProperty` links to this one (Realm's inverse relationship).
    /// The origin class is the element type: `LinkingObjects<Dog>` with origin `"owner"`
    /// lists the dogs whose `owner` is this object.
    @inlinable public init(originProperty: String) {
        storage = PersistedStorage.make(initial: nil, options: PersistedOptions(originProperty: originProperty))
    }
}

/// The options given in `@Persisted(…)`.
@usableFromInline struct PersistedOptions {
    var isPrimaryKey = false
    var isIndexed = false
    var originProperty: String?

    @usableFromInline init(isPrimaryKey: Bool = false, isIndexed: Bool = false, originProperty: String? = nil) {
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed
        self.originProperty = originProperty
    }
}
