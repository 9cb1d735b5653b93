import Foundation

/// The state behind one `@Persisted` property of one object. A class, so that `Mirror` (which
/// hands out copies of the wrapper struct) still reaches the object's own storage.
@usableFromInline final class PersistedStorage<Value: _Persistable> {
    /// The unmanaged value (a `Value`) when ``hasValue``; unset until first read when the property
    /// had no initial value (so a non-optional link's default object, or an ObjectId, is only
    /// made when needed). Type-erased on purpose: destroying a generic `Value?` looked up
    /// `Optional<Value>`'s metadata each time (a typed `Value?` measured 10% more instructions per
    /// object added). Not an `Any?` either: assigning one went through `Optional`'s generic value
    /// witnesses, about 4k instructions per object added (its values set, then released).
    @exclusivity(unchecked) @usableFromInline var boxed: Any
    /// Whether ``boxed`` holds the unmanaged value.
    @exclusivity(unchecked) @usableFromInline var hasValue: Bool
    /// Whether the declaration gave an initial value (`@Persisted var n = 3`).
    @usableFromInline let hasInitialValue: Bool
    /// The `@Persisted(…)` options.
    @usableFromInline let options: PersistedOptions
    /// The property name, learned from the enclosing object's `Mirror`.
    @exclusivity(unchecked) @usableFromInline var name: String?
    /// Whether this storage is shared by the managed objects of its class a realm makes (see
    /// ``SharedStorages``): named, and never holding a value of its own.
    @exclusivity(unchecked) @usableFromInline var isShared = false

    // Inlinable so that a model class's initializer (run for every object a realm hands out)
    // specializes it: the generic one looked up `Optional<Value>`'s metadata each time.
    @inlinable init(initial: Value?, options: PersistedOptions) {
        if let initial {
            boxed = initial
            hasValue = true
        } else {
            boxed = ()
            hasValue = false
        }
        hasInitialValue = initial != nil
        self.options = options
    }

    /// A storage for a property being initialized: the shared one while a realm makes a managed
    /// object of a class whose storages are shared (see ``SharedStorages``), else a new one.
    @inlinable static func make(initial: Value?, options: PersistedOptions) -> PersistedStorage<Value> {
        // Specialized in the model's initializer: a generic hand-out with a closure per property
        // cost about 110 instructions of every object a realm makes. The thread holding the
        // construct slot (iterating results) takes the next storage here, without a call.
        // Objects made by the program (about to be added) find no context on any thread: two
        // atomic loads, not thread-local lookups.
        if ConstructSlot.isHeldHere {
            if let shared = ConstructSlot.takeNext(ObjectIdentifier(PersistedStorage<Value>.self)) {
                return unsafeDowncast(shared, to: PersistedStorage<Value>.self)
            }
        } else if !SharedStorageContext.isAnyThreadContextInstalled {
            return PersistedStorage(initial: initial, options: options)
        } else if let shared = SharedStorageContext.nextShared(ObjectIdentifier(PersistedStorage<Value>.self)) {
            return unsafeDowncast(shared, to: PersistedStorage<Value>.self)
        }
        let made = PersistedStorage(initial: initial, options: options)
        SharedStorageContext.recordMade(made)
        return made
    }

    /// The unmanaged value, made from the type's default on first use.
    func current() -> Value {
        if hasValue { return unboxed }
        let made = Value._porterDefault()
        if !isShared { store(made) }
        return made
    }

    /// Keeps `value` as the unmanaged value.
    @inlinable func store(_ value: Value) {
        boxed = value
        hasValue = true
    }

    /// Forgets the unmanaged value.
    func clear() {
        boxed = ()
        hasValue = false
    }

    /// The value of a managed object's property from its current row (see ``ManagedRow``).
    /// - Throws: ``RowMiss`` when the object has no current row or the row does not hold the
    ///   property: the caller reads it through the storage. (Thrown, not an optional: generic
    ///   code would look up `Optional<Value>`'s metadata per read.)
    @usableFromInline static func rowValue(in object: ObjectBase, keyPath: AnyKeyPath?, name: () -> String) throws
        -> Value
    {
        guard let row = object._row, row.isCurrent else { throw RowMiss() }
        return try row.value(Value.self, keyPath: keyPath, name: name)
    }

    /// The property name. Objects a realm hands out learn it from the realm's cache (keyed by
    /// the storage key path); otherwise the object is reflected once, which names all its properties.
    @usableFromInline func resolvedName(in object: ObjectBase, keyPath: AnyKeyPath? = nil) -> String {
        if let name { return name }
        let realm = object._managed?.realm
        if let keyPath, let cached = realm?.propertyNames[keyPath] {
            name = cached
            return cached
        }
        _ = object._persistedProperties()
        let resolved = name ?? "?"
        if let keyPath { realm?.propertyNames[keyPath] = resolved }
        return resolved
    }

    /// The value of the property of `object`: its own while unmanaged, the database's once managed.
    @usableFromInline func read(in object: ObjectBase, keyPath: AnyKeyPath? = nil) -> Value {
        // The common case first: a managed object whose stored values are current (an object no
        // longer managed has none, or an outdated one: rolling back changes the stamp).
        do {
            return try Self.rowValue(in: object, keyPath: keyPath, name: { resolvedName(in: object, keyPath: keyPath) })
        } catch {
            // Not a value the row holds, or one that does not decode: read on its own below.
        }
        if let recorder = object._keyPathRecorder {
            recorder.names.append(resolvedName(in: object))
            return current()
        }
        guard let managed = object._managed else { return current() }
        do {
            return try managed.realm.rowValue(
                Value.self, object, managed, keyPath: keyPath, name: { resolvedName(in: object, keyPath: keyPath) })
        } catch {
            // Not a value the row holds, or one that does not decode: read on its own below.
        }
        return managed.realm.readProperty(Value.self, managed, resolvedName(in: object, keyPath: keyPath))
    }

    /// Sets the property of `object`: its own value while unmanaged, the database's once managed.
    @usableFromInline func write(_ newValue: Value, in object: ObjectBase, keyPath: AnyKeyPath? = nil) {
        if Value._porterType.type == .linkingObjects {
            // Assigning is the only write Swift cannot rule out at compile time for one wrapper type.
            preconditionFailure(
                "\(type(of: object).className()).\(resolvedName(in: object)): LinkingObjects properties are read-only")
        }
        if object._frozenSource != nil {
            preconditionFailure(
                "\(type(of: object).className()).\(resolvedName(in: object)): cannot modify a frozen object; thaw() it first"
            )
        }
        guard let managed = object._managed else {
            if !isShared { store(newValue) }
            return
        }
        managed.realm.writeProperty(newValue, managed, resolvedName(in: object, keyPath: keyPath))
    }
}

/// Type-erased access to a `@Persisted` property found by reflection.
protocol AnyPersistedProperty {
    /// The storage object (identity of the property within its object).
    var storageObject: AnyObject { get }
    /// The `@Persisted(…)` options.
    var options: PersistedOptions { get }
    /// The schema shape of the property's type.
    var typeInfo: _PorterTypeInfo { get }
    /// The Swift type, for messages.
    var swiftTypeName: String { get }
    /// Records the property name.
    func setName(_ name: String)
    /// The declared initial value as a stored value, when there is one and it can be a default.
    func initialStoredValue() -> Value?
    /// The unmanaged value's stored form (objects added or linked through `writer`).
    func encodeUnmanaged(_ writer: _PorterWriter) throws -> Value
    /// The embedded objects the unmanaged value holds.
    func embeddedObjects() -> [(key: String?, object: ObjectBase)]
    /// The current value of this property of `object` (through the database when managed).
    func currentValue(of object: ObjectBase) -> Any
    /// Sets the unmanaged value to a detached copy of `value` when it has the property's type.
    func assignDetached(from value: Any, copier: _DetachCopier)
    /// Forgets the unmanaged value (the object is managed: its value lives in the database).
    func releaseUnmanagedValue()
    /// Sets this property of `object` from a loosely typed value (written through when managed).
    /// - Returns: false when the value cannot be converted to the property's type.
    func assign(_ value: Any, in object: ObjectBase) -> Bool
    /// A stored value of this property as its Swift value (nil when it does not decode).
    func decodeAny(_ value: Value, realm: Realm?) -> Any?
}

extension Persisted: AnyPersistedProperty {
    var storageObject: AnyObject { storage }
    var options: PersistedOptions { storage.options }
    var typeInfo: _PorterTypeInfo { Value._porterType }
    var swiftTypeName: String { String(describing: Value.self) }

    func setName(_ name: String) {
        // A shared storage was named before it was shared (other threads read it).
        if !storage.isShared { storage.name = name }
    }

    func initialStoredValue() -> PorterModel.Value? {
        let info = Value._porterType
        guard storage.hasInitialValue, storage.hasValue, let initial = storage.boxed as? Value,
            info.type != .object, info.type != .linkingObjects
        else { return nil }
        return try? initial._porterEncode(_PorterWriter.schemaDefaults)
    }

    func encodeUnmanaged(_ writer: _PorterWriter) throws -> PorterModel.Value {
        try storage.current()._porterEncode(writer)
    }

    func embeddedObjects() -> [(key: String?, object: ObjectBase)] {
        storage.current()._porterEmbeddedObjects()
    }

    func currentValue(of object: ObjectBase) -> Any { storage.read(in: object) }

    func assignDetached(from value: Any, copier: _DetachCopier) {
        guard Value._porterType.type != .linkingObjects, !storage.isShared, let typed = value as? Value else { return }
        storage.store(typed._porterDetached(copier))
    }

    func releaseUnmanagedValue() { if !storage.isShared { storage.clear() } }

    func decodeAny(_ value: PorterModel.Value, realm: Realm?) -> Any? {
        try? Value._porterDecode(value, realm)
    }

    func assign(_ value: Any, in object: ObjectBase) -> Bool {
        guard Value._porterType.type != .linkingObjects, let typed = Value._porterFromAny(value) else { return false }
        storage.write(typed, in: object)
        return true
    }
}

extension PersistedStorage: SharedStorageMarking {
    func markShared() { isShared = true }
}

extension ObjectBase {
    /// The `@Persisted` properties of this object, superclass properties first, each in declared
    /// order, named by their Swift name (the `Mirror` label without the wrapper's `_`).
    func _persistedProperties() -> [(name: String, property: AnyPersistedProperty)] {
        guard let fields = PersistedFieldTable.shared.fields(of: self) else { return _reflectedPersistedProperties() }
        return fields.map { field in
            let property = field.access.property(in: self, at: field.offset)
            property.setName(field.name)
            return (field.name, property)
        }
    }

    /// ``_persistedProperties()`` found through `Mirror`.
    func _reflectedPersistedProperties() -> [(name: String, property: AnyPersistedProperty)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var out: [(name: String, property: AnyPersistedProperty)] = []
        for current in mirrors.reversed() {
            for child in current.children {
                guard let label = child.label, let property = child.value as? AnyPersistedProperty else { continue }
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                property.setName(name)
                out.append((name, property))
            }
        }
        return out
    }
}
