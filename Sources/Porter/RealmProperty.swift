@_spi(Reflection) import Swift
import Foundation
import PorterModel

// Realm's older property declarations, which need no property wrapper: `let age =
// RealmProperty<Int?>()`, `let value = RealmOptional<Int>()` and `let owners =
// LinkingObjects(fromType: Person.self, property: "dogs")`. They are found the way `@Persisted`
// properties are (by the runtime's field offsets, checked against `Mirror`), are the same schema
// properties as `@Persisted var age: Int?`, and read and write through their object once it is
// managed. Each instance learns its object when the object is made (`ObjectBase.init()`).

/// A type a ``RealmProperty`` can hold: the optional numbers and `Bool` (`Int?`, `Double?` …)
/// and ``AnyRealmValue``, as in Realm.
public protocol RealmPropertyType: _Persistable {}

/// A type a ``RealmOptional`` can hold: `Int`, `Int8`, `Int16`, `Int32`, `Int64`, `Float`,
/// `Double` and `Bool`, as in Realm.
public protocol RealmOptionalType: _Persistable {}

extension Int: RealmOptionalType {}
extension Int8: RealmOptionalType {}
extension Int16: RealmOptionalType {}
extension Int32: RealmOptionalType {}
extension Int64: RealmOptionalType {}
extension Float: RealmOptionalType {}
extension Double: RealmOptionalType {}
extension Bool: RealmOptionalType {}

extension AnyRealmValue: RealmPropertyType {}
extension Optional: RealmPropertyType where Wrapped: RealmOptionalType {}

/// A property of a model class declared without `@Persisted`, as Realm's `RealmProperty`:
///
/// ```swift
/// class Person: Object {
///     let age = RealmProperty<Int?>()
///     let anything = RealmProperty<AnyRealmValue>()
/// }
/// person.age.value = 30
/// ```
///
/// The same schema property as `@Persisted var age: Int?`; `value` reads and writes through the
/// object once it is managed.
public final class RealmProperty<Value: RealmPropertyType>: CustomStringConvertible {
    let storage: PersistedStorage<Value>
    /// The object this property belongs to (set when the object is made).
    weak var owner: ObjectBase?

    /// A property holding the type's default (nil, or `.none` for `AnyRealmValue`).
    public init() {
        storage = PersistedStorage(initial: nil)
        LegacyProperties.noteDeclared()
    }

    /// The property's value: its own while the object is unmanaged, the database's once managed.
    public var value: Value {
        get { legacyRead(storage, owner) }
        set { legacyWrite(storage, owner, newValue) }
    }

    /// The value's description.
    public var description: String { String(describing: value) }
}

extension RealmProperty: Equatable where Value: Equatable {
    /// Whether both hold equal values.
    public static func == (lhs: RealmProperty<Value>, rhs: RealmProperty<Value>) -> Bool { lhs.value == rhs.value }
}

extension RealmProperty: Codable where Value: Codable {
    /// Decodes the value (a missing or null one is the type's default).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        if !container.decodeNil() { value = try container.decode(Value.self) }
    }

    /// Encodes the value.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// An optional number or `Bool` property declared without `@Persisted`, as Realm's (deprecated)
/// `RealmOptional`: `let age = RealmOptional<Int>()` is the schema property `@Persisted var age: Int?`.
public final class RealmOptional<Value: RealmOptionalType>: CustomStringConvertible {
    let storage: PersistedStorage<Value?>
    /// The object this property belongs to (set when the object is made).
    weak var owner: ObjectBase?

    /// A property holding `value` (nil when not given); a value given here is the schema default.
    public init(_ value: Value? = nil) {
        storage = PersistedStorage(initial: value.map { .some($0) })
        LegacyProperties.noteDeclared()
    }

    /// The property's value: its own while the object is unmanaged, the database's once managed.
    public var value: Value? {
        get { legacyRead(storage, owner) }
        set { legacyWrite(storage, owner, newValue) }
    }

    /// The value's description.
    public var description: String { value.map { String(describing: $0) } ?? "nil" }
}

extension RealmOptional: Equatable where Value: Equatable {
    /// Whether both hold equal values.
    public static func == (lhs: RealmOptional<Value>, rhs: RealmOptional<Value>) -> Bool { lhs.value == rhs.value }
}

extension RealmOptional: Codable where Value: Codable {
    /// Decodes the value (nil for null).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Encodes the value (null for nil).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Reads a legacy property: through its object when bound, else its own value.
private func legacyRead<V: _Persistable>(_ storage: PersistedStorage<V>, _ owner: ObjectBase?) -> V {
    guard let owner else { return storage.current() }
    return storage.read(in: owner)
}

/// Writes a legacy property: its own value while its object is plain unmanaged, else through it
/// (the write-transaction and frozen-object checks of `@Persisted`).
private func legacyWrite<V: _Persistable>(_ storage: PersistedStorage<V>, _ owner: ObjectBase?, _ value: V) {
    guard let owner, !owner._isPlainUnmanaged else {
        storage.store(value)
        return
    }
    storage.write(value, in: owner)
}

// MARK: - Found as properties

/// A property declared without `@Persisted` that must know its object.
protocol LegacyPropertyBinding: AnyObject {
    /// Records the object the property belongs to.
    func bind(to owner: ObjectBase)
}

/// What `RealmProperty` and `RealmOptional` share as schema properties.
protocol LegacyStoredProperty: LegacyPropertyBinding, AnyPersistedProperty {
    associatedtype Stored: _Persistable
    var storage: PersistedStorage<Stored> { get }
    var owner: ObjectBase? { get set }
}

extension LegacyStoredProperty {
    func bind(to owner: ObjectBase) { self.owner = owner }

    var options: PersistedOptions { PersistedOptions(hasInitialValue: storage.hasInitialValue) }
    var typeInfo: _PorterTypeInfo { Stored._porterType }
    var swiftTypeName: String { String(describing: Self.self) }

    func setName(_ name: String) { storage.name = name }

    func initialStoredValue() -> PorterModel.Value? {
        guard storage.hasInitialValue, storage.hasValue, let initial = storage.boxed as? Stored else { return nil }
        return try? initial._porterEncode(_PorterWriter.schemaDefaults)
    }

    func encodeUnmanaged(_ writer: _PorterWriter) throws -> PorterModel.Value {
        try storage.current()._porterEncode(writer)
    }

    func embeddedObjects() -> [(key: String?, object: ObjectBase)] { storage.current()._porterEmbeddedObjects() }

    func currentValue(of object: ObjectBase) -> Any { storage.read(in: object) }

    func assignDetached(from value: Any, copier: _DetachCopier) {
        guard let typed = value as? Stored else { return }
        storage.store(typed._porterDetached(copier))
    }

    func releaseUnmanagedValue() { storage.clear() }

    func decodeAny(_ value: PorterModel.Value, realm: Realm?) -> Any? { try? Stored._porterDecode(value, realm) }

    func assign(_ value: Any, in object: ObjectBase) -> Bool {
        guard let typed = Stored._porterFromAny(value) else { return false }
        storage.write(typed, in: object)
        return true
    }
}

extension RealmProperty: LegacyStoredProperty {}
extension RealmOptional: LegacyStoredProperty {}

/// Field access for the class-typed legacy properties: the field is one reference to the instance.
protocol LegacyFieldAccess: PersistedFieldAccess, AnyPersistedProperty, AnyObject {}

extension LegacyFieldAccess {
    static func property(in object: ObjectBase, at offset: Int) -> AnyPersistedProperty {
        withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: offset, as: Self.self)
        }
    }

    static func reader() -> any PersistedFieldReading { LegacyFieldReader<Self>() }
}

/// Encodes legacy properties found by field offset.
final class LegacyFieldReader<Field: LegacyFieldAccess>: PersistedFieldReading {
    func encodeUnmanaged(in object: ObjectBase, at offset: Int, name: String, _ writer: _PorterWriter) throws
        -> PorterModel.Value
    {
        let property = Field.property(in: object, at: offset)
        property.setName(name)
        return try property.encodeUnmanaged(writer)
    }
}

extension RealmProperty: LegacyFieldAccess {}
extension RealmOptional: LegacyFieldAccess {}

// MARK: - Binding to the object

/// Tells objects which of their fields are legacy properties to bind.
enum LegacyProperties {
    /// Whether any legacy property was ever made in this process: until then objects skip the
    /// lookup (most programs declare none).
    nonisolated(unsafe) static var anyDeclared = false

    /// Called by each legacy property's initializer.
    static func noteDeclared() {
        if !anyDeclared { anyDeclared = true }
    }

    private static let lock = NSLock()
    /// The byte offsets of each class's legacy fields (nil: found through `Mirror`).
    nonisolated(unsafe) private static var offsets: [ObjectIdentifier: [Int]?] = [:]

    /// Binds the legacy properties of a newly made object to it.
    static func bind(_ object: ObjectBase) {
        let type = Swift.type(of: object)
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = offsets[id]
        lock.unlock()
        let fields: [Int]?
        if let known {
            fields = known
        } else {
            fields = findOffsets(type)
            lock.lock()
            offsets[id] = .some(fields)
            lock.unlock()
        }
        guard let fields else {
            bindReflecting(object)
            return
        }
        guard !fields.isEmpty else { return }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        withExtendedLifetime(object) {
            for offset in fields {
                let reference = base.load(fromByteOffset: offset, as: AnyObject.self)
                (reference as? LegacyPropertyBinding)?.bind(to: object)
            }
        }
    }

    /// The offsets of the legacy fields of `type` (the runtime lists its superclasses' fields
    /// too), or nil when the runtime cannot list them.
    private static func findOffsets(_ type: ObjectBase.Type) -> [Int]? {
        var found: [Int] = []
        // `_EachFieldOptions.classType`, spelled by value (see `PersistedFieldTable`).
        let complete = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) {
            _, offset, fieldType, _ in
            if fieldType is any LegacyPropertyBinding.Type { found.append(offset) }
            return true
        }
        return complete ? found : nil
    }

    /// Binds through `Mirror` (a class whose fields the runtime cannot list).
    private static func bindReflecting(_ object: ObjectBase) {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children { (child.value as? LegacyPropertyBinding)?.bind(to: object) }
            mirror = current.superclassMirror
        }
    }
}

// MARK: - LinkingObjects declared with `let`

extension LinkingObjects: LegacyPropertyBinding, LegacyFieldAccess {
    func bind(to owner: ObjectBase) { self.owner = owner }

    var options: PersistedOptions { PersistedOptions(originProperty: declaredOrigin) }
    var typeInfo: _PorterTypeInfo { LinkingObjects<Element>._porterType }
    var swiftTypeName: String { String(describing: Self.self) }
    func setName(_ name: String) { declaredName = name }
    func initialStoredValue() -> PorterModel.Value? { nil }
    func encodeUnmanaged(_ writer: _PorterWriter) throws -> PorterModel.Value {
        throw PorterError(.invalidValue, "LinkingObjects properties are read-only")
    }
    func embeddedObjects() -> [(key: String?, object: ObjectBase)] { [] }
    func currentValue(of object: ObjectBase) -> Any { self }
    func assignDetached(from value: Any, copier: _DetachCopier) {}
    func releaseUnmanagedValue() {}
    func decodeAny(_ value: PorterModel.Value, realm: Realm?) -> Any? { nil }
    func assign(_ value: Any, in object: ObjectBase) -> Bool { false }
}
