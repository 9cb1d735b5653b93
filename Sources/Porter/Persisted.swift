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
    /// The unmanaged value; nil until first set or read when the declaration gave no initial value
    /// (so a non-optional link's default object, or an ObjectId, is only made when needed).
    /// Held in the object itself: a storage object per property was an allocation and a release
    /// for every property of every object made (a third of adding an object).
    @usableFromInline var unmanaged: Value?
    /// The `@Persisted(…)` options, and whether an initial value was given.
    @usableFromInline let options: PersistedOptions

    /// A property declared without an initial value: it starts at the type's default.
    @inlinable public init() {
        unmanaged = nil
        options = PersistedOptions()
    }

    /// A property declared with an initial value.
    @inlinable public init(wrappedValue: Value) {
        unmanaged = wrappedValue
        options = PersistedOptions(hasInitialValue: true)
    }

    /// A property that is (or, with `false`, is not) the primary key.
    @inlinable public init(primaryKey: Bool) {
        unmanaged = nil
        options = PersistedOptions(isPrimaryKey: primaryKey)
    }

    /// A primary-key property with an initial value.
    @inlinable public init(wrappedValue: Value, primaryKey: Bool) {
        unmanaged = wrappedValue
        options = PersistedOptions(isPrimaryKey: primaryKey, hasInitialValue: true)
    }

    /// A property with (or without) an index.
    @inlinable public init(indexed: Bool) {
        unmanaged = nil
        options = PersistedOptions(isIndexed: indexed)
    }

    /// An indexed property with an initial value.
    @inlinable public init(wrappedValue: Value, indexed: Bool) {
        unmanaged = wrappedValue
        options = PersistedOptions(isIndexed: indexed, hasInitialValue: true)
    }

    /// Not used: the value is read and written through the enclosing object (below). Declaring
    /// `@Persisted` outside an `Object`/`EmbeddedObject` subclass is a compile-time error.
    @available(
        *, unavailable, message: "@Persisted can only be used on properties of Object and EmbeddedObject subclasses"
    )
    public var wrappedValue: Value {
        get { unmanaged ?? Value._porterDefault() }
        set { unmanaged = newValue }
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
            // An unmanaged object's own value, …
            if object._holdsOwnValues, let value = object[keyPath: storageKeyPath].unmanaged {
                return value
            }
            // … else through the path that names the property and records its column.
            if let value = try? PersistedAccess<Value>.rowValue(
                in: object, keyPath: storageKeyPath, name: { name(of: storageKeyPath, in: object) })
            {
                return value
            }
            return read(object, storageKeyPath)
        }
        @inline(__always) set {
            // An unmanaged, unfrozen object keeps the value itself: set here, specialized (most
            // values of objects about to be added are set this way).
            // A value read from a row is never linking objects: asking that first spares building the
            // type's `_porterType` per set.
            if object._isPlainUnmanaged && (Value._porterReadsFromRow || Value._porterType.type != .linkingObjects) {
                object[keyPath: storageKeyPath].unmanaged = newValue
            } else {
                // The field named by its offset, not the key path: passing the key path on made
                // every set (the unmanaged ones above too) instantiate it, where the literal is
                // otherwise only a field access. The access ends before the write.
                write(newValue, object, fieldOffset: fieldOffset(of: storageKeyPath, in: object))
            }
        }
    }

    /// The name of the property whose storage key path is `keyPath`.
    @usableFromInline static func name<EnclosingSelf: ObjectBase>(
        of keyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>, in object: EnclosingSelf
    ) -> String {
        PersistedFieldTable.name(of: keyPath, in: object)
    }

    /// The value of the property of `object` that its row did not give: the database's when
    /// managed, its own (made from the type's default on first use) otherwise.
    @usableFromInline static func read<EnclosingSelf: ObjectBase>(
        _ object: EnclosingSelf, _ keyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        PersistedAccess<Value>.read(
            in: object, keyPath: keyPath, name: { PersistedFieldTable.name(of: keyPath, in: object) },
            unmanaged: {
                let keeping = object._isPlainUnmanaged
                return object[keyPath: keyPath].ownValue(keeping: keeping)
            })
    }

    /// The unmanaged value, made from the type's default when there is none yet (declared without
    /// an initial value and never set). The made value is kept when `keeping`: by an object that
    /// is its own, not a managed or frozen one (which never uses it, and may be read on other
    /// threads).
    @inlinable mutating func ownValue(keeping: Bool) -> Value {
        if let unmanaged { return unmanaged }
        let made = Value._porterDefault()
        if keeping { unmanaged = made }
        return made
    }

    /// The byte offset in `object` of the field `keyPath` names: the address the key path
    /// projects (inlined, a literal key path is only a field access; the access ends on return).
    @inlinable @inline(__always) static func fieldOffset<EnclosingSelf: ObjectBase>(
        of keyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>, in object: EnclosingSelf
    ) -> Int {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeRawPointer($0) - base }
    }

    /// Sets the property of `object` when it is not a plain unmanaged one (managed: through the
    /// database; frozen, or linking objects: refused). The field is the one at `fieldOffset`.
    @usableFromInline static func write(_ newValue: Value, _ object: ObjectBase, fieldOffset: Int) {
        PersistedFieldRef<Value>(object: object, offset: fieldOffset).write(newValue)
    }
}

extension Persisted where Value: _LinkingObjectsProtocol {
    /// The objects whose `originProperty` links to this one (Realm's inverse relationship).
    /// The origin class is the element type: `LinkingObjects<Dog>` with origin `"owner"`
    /// lists the dogs whose `owner` is this object.
    @inlinable public init(originProperty: String) {
        unmanaged = nil
        options = PersistedOptions(originProperty: originProperty)
    }
}

/// The options given in `@Persisted(…)`, in one word held by every property of every object:
/// the flags, and the origin property of linking objects as a number (see ``OriginProperties``).
@usableFromInline struct PersistedOptions: Sendable {
    @usableFromInline let bits: UInt32

    @inlinable init(isPrimaryKey: Bool = false, isIndexed: Bool = false, hasInitialValue: Bool = false) {
        bits = (isPrimaryKey ? 1 : 0) | (isIndexed ? 2 : 0) | (hasInitialValue ? 4 : 0)
    }

    /// The options of linking objects whose origin is `originProperty` (none with nil).
    @usableFromInline init(originProperty: String?) {
        bits = originProperty.map { OriginProperties.number(of: $0) << 8 } ?? 0
    }

    /// `@Persisted(primaryKey: true)`.
    var isPrimaryKey: Bool { bits & 1 != 0 }
    /// `@Persisted(indexed: true)`.
    var isIndexed: Bool { bits & 2 != 0 }
    /// Whether the declaration gave an initial value (`@Persisted var n = 3`).
    var hasInitialValue: Bool { bits & 4 != 0 }
    /// `@Persisted(originProperty: …)`.
    var originProperty: String? { bits >> 8 == 0 ? nil : OriginProperties.name(bits >> 8) }
}

/// The origin property names of linking objects, numbered from 1 in the order first seen, so
/// that ``PersistedOptions`` stays one word.
enum OriginProperties {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var names: [String] = []
    nonisolated(unsafe) private static var numbers: [String: UInt32] = [:]

    /// The number of `name`, given on first sight.
    static func number(of name: String) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if let known = numbers[name] { return known }
        names.append(name)
        let number = UInt32(names.count)
        numbers[name] = number
        return number
    }

    /// The name numbered `number`.
    static func name(_ number: UInt32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return names[Int(number) - 1]
    }
}
