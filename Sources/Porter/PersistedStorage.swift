import Foundation

/// Reads and writes of a property of an object that are not an unmanaged object's own value:
/// shared by `@Persisted` (whose value is held in the object) and the legacy properties (whose
/// value is held by a ``PersistedStorage``).
@usableFromInline enum PersistedAccess<Value: _Persistable> {
    /// The value of a managed object's property from its current row (see ``ManagedRow``).
    /// - Throws: ``RowMiss`` when the object has no current row or the row does not hold the
    ///   property: the caller reads it otherwise. (Thrown, not an optional: generic code would
    ///   look up `Optional<Value>`'s metadata per read.)
    @usableFromInline static func rowValue(in object: ObjectBase, keyPath: AnyKeyPath?, name: () -> String) throws
        -> Value
    {
        guard let row = object._row, row.isCurrent else { throw RowMiss() }
        return try row.value(Value.self, keyPath: keyPath, name: name)
    }

    /// The value of the property of `object`: `unmanaged()` while unmanaged, the database's
    /// once managed.
    static func read(in object: ObjectBase, keyPath: AnyKeyPath?, name: () -> String, unmanaged: () -> Value)
        -> Value
    {
        // The common case first: a managed object whose stored values are current (an object no
        // longer managed has none, or an outdated one: rolling back changes the stamp).
        do {
            return try rowValue(in: object, keyPath: keyPath, name: name)
        } catch {
            // Not a value the row holds, or one that does not decode: read on its own below.
        }
        if let recorder = object._keyPathRecorder {
            recorder.names.append(name())
            return unmanaged()
        }
        guard let managed = object._managed else { return unmanaged() }
        do {
            return try managed.realm.rowValue(Value.self, object, managed, keyPath: keyPath, name: name)
        } catch {
            // Not a value the row holds, or one that does not decode: read on its own below.
        }
        return managed.realm.readProperty(Value.self, managed, name())
    }

    /// Sets the property of `object`: through `storeUnmanaged` while unmanaged, the database's
    /// once managed.
    static func write(_ newValue: Value, in object: ObjectBase, name: () -> String, storeUnmanaged: (Value) -> Void) {
        if Value._porterType.type == .linkingObjects {
            // Assigning is the only write Swift cannot rule out at compile time for one wrapper type.
            preconditionFailure("\(type(of: object).className()).\(name()): LinkingObjects properties are read-only")
        }
        if object._frozenSource != nil {
            preconditionFailure(
                "\(type(of: object).className()).\(name()): cannot modify a frozen object; thaw() it first")
        }
        guard let managed = object._managed else {
            storeUnmanaged(newValue)
            return
        }
        managed.realm.writeProperty(newValue, managed, name())
    }
}

/// The value behind one legacy property (`RealmProperty`, `RealmOptional`): a class, shared by
/// the property object and its object's field.
final class PersistedStorage<Value: _Persistable> {
    /// The unmanaged value (a `Value`) when ``hasValue``; unset until first read when the property
    /// had no initial value. Type-erased: destroying a generic `Value?` looked up
    /// `Optional<Value>`'s metadata each time.
    @exclusivity(unchecked) var boxed: Any
    /// Whether ``boxed`` holds the unmanaged value.
    @exclusivity(unchecked) var hasValue: Bool
    /// Whether the declaration gave an initial value (`RealmOptional(3)`).
    let hasInitialValue: Bool
    /// The property name, learned from the enclosing object's field table.
    @exclusivity(unchecked) var name: String?

    init(initial: Value?) {
        if let initial {
            boxed = initial
            hasValue = true
        } else {
            boxed = ()
            hasValue = false
        }
        hasInitialValue = initial != nil
    }

    /// The unmanaged value, made from the type's default on first use.
    func current() -> Value {
        if hasValue { return unboxed }
        let made = Value._porterDefault()
        store(made)
        return made
    }

    /// Keeps `value` as the unmanaged value.
    func store(_ value: Value) {
        boxed = value
        hasValue = true
    }

    /// Forgets the unmanaged value.
    func clear() {
        boxed = ()
        hasValue = false
    }

    /// The property name (the object's fields are listed once to learn it).
    func resolvedName(in object: ObjectBase) -> String {
        if let name { return name }
        _ = object._persistedProperties()
        return name ?? "?"
    }

    /// The value of the property of `object`: its own while unmanaged, the database's once managed.
    func read(in object: ObjectBase) -> Value {
        PersistedAccess<Value>.read(
            in: object, keyPath: nil, name: { resolvedName(in: object) }, unmanaged: { current() })
    }

    /// Sets the property of `object`: its own value while unmanaged, the database's once managed.
    func write(_ newValue: Value, in object: ObjectBase) {
        PersistedAccess<Value>.write(newValue, in: object, name: { resolvedName(in: object) }, storeUnmanaged: store)
    }
}

/// Type-erased access to a `@Persisted` property found by reflection.
protocol AnyPersistedProperty {
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

/// One `@Persisted` field of one object, read and written where it lies in the object (found
/// by the field table, see ``PersistedFieldTable``).
struct PersistedFieldRef<Value: _Persistable>: AnyPersistedProperty {
    let object: ObjectBase
    let offset: Int

    /// Runs `body` on the field in place (the reference held keeps the object alive).
    private func withField<R>(_ body: (inout Persisted<Value>) throws -> R) rethrows -> R {
        try withExtendedLifetime(object) {
            let field = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
                .assumingMemoryBound(to: Persisted<Value>.self)
            return try body(&field.pointee)
        }
    }

    /// The unmanaged value, made from the type's default on first use (see
    /// ``Persisted/ownValue(keeping:)``).
    private func current() -> Value {
        let keeping = object._isPlainUnmanaged
        return withField { $0.ownValue(keeping: keeping) }
    }

    private func store(_ value: Value) { withField { $0.unmanaged = value } }

    var options: PersistedOptions { withField { $0.options } }
    var typeInfo: _PorterTypeInfo { Value._porterType }
    var swiftTypeName: String { String(describing: Value.self) }

    private var name: String { PersistedFieldTable.shared.name(at: offset, in: object) }

    func setName(_ name: String) {}

    func initialStoredValue() -> PorterModel.Value? {
        let info = Value._porterType
        guard options.hasInitialValue, let initial = withField({ $0.unmanaged }),
            info.type != .object, info.type != .linkingObjects
        else { return nil }
        return try? initial._porterEncode(_PorterWriter.schemaDefaults)
    }

    func encodeUnmanaged(_ writer: _PorterWriter) throws -> PorterModel.Value {
        try current()._porterEncode(writer)
    }

    func embeddedObjects() -> [(key: String?, object: ObjectBase)] {
        current()._porterEmbeddedObjects()
    }

    func currentValue(of object: ObjectBase) -> Any {
        PersistedAccess<Value>.read(in: object, keyPath: nil, name: { name }, unmanaged: current)
    }

    func assignDetached(from value: Any, copier: _DetachCopier) {
        // Only objects being made as copies (unmanaged or frozen ones) get here.
        guard Value._porterType.type != .linkingObjects, let typed = value as? Value else { return }
        store(typed._porterDetached(copier))
    }

    func releaseUnmanagedValue() { withField { $0.unmanaged = nil } }

    func decodeAny(_ value: PorterModel.Value, realm: Realm?) -> Any? {
        try? Value._porterDecode(value, realm)
    }

    func assign(_ value: Any, in object: ObjectBase) -> Bool {
        guard Value._porterType.type != .linkingObjects, let typed = Value._porterFromAny(value) else { return false }
        write(typed)
        return true
    }

    /// Sets the property: its own value while the object is unmanaged, the database's once managed.
    func write(_ newValue: Value) {
        PersistedAccess<Value>.write(newValue, in: object, name: { name }, storeUnmanaged: store)
    }
}

extension ObjectBase {
    /// The `@Persisted` (and legacy) properties of this object, superclass properties first, each
    /// in declared order, named by their Swift name (without the wrapper's `_`).
    func _persistedProperties() -> [(name: String, property: AnyPersistedProperty)] {
        PersistedFieldTable.shared.fields(of: self).map { field in
            let property = field.access.property(in: self, at: field.offset)
            property.setName(field.name)
            return (field.name, property)
        }
    }
}
