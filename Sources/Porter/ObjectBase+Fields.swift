@_spi(Reflection) import Swift
import Foundation

/// Where one `@Persisted` property of a model class sits in its instances.
struct PersistedField {
    /// The Swift property name (without the wrapper's `_`).
    let name: String
    /// The byte offset of the field (a `Persisted` wrapper, or a legacy property's reference) in
    /// the instance.
    let offset: Int
    /// The wrapper's type, which reads it.
    let access: any PersistedFieldAccess.Type
    /// Reads the field's value without making a type-erased wrapper per object.
    let reader: any PersistedFieldReading
}

/// Reads a `Persisted` wrapper out of an instance at a known offset.
protocol PersistedFieldAccess {
    /// The wrapper stored at `offset` in `object`.
    static func property(in object: ObjectBase, at offset: Int) -> AnyPersistedProperty
    /// A reader of fields of this wrapper type.
    static func reader() -> any PersistedFieldReading
}

/// What adding an object needs of one of its fields, without a type-erased wrapper per object
/// (making one looked up the wrapper's generic metadata each time).
protocol PersistedFieldReading: AnyObject {
    /// Names the field's storage and encodes its unmanaged value (objects added through `writer`).
    func encodeUnmanaged(in object: ObjectBase, at offset: Int, name: String, _ writer: _PorterWriter) throws -> Value
}

extension Persisted: PersistedFieldAccess {
    static func property(in object: ObjectBase, at offset: Int) -> AnyPersistedProperty {
        PersistedFieldRef<Value>(object: object, offset: offset)
    }

    static func reader() -> any PersistedFieldReading { PersistedFieldReader<Value>() }
}

/// Reads `Persisted<Value>` fields where they lie in the object.
final class PersistedFieldReader<Value: _Persistable>: PersistedFieldReading {
    // Called through the `PersistedFieldReading` existential, so the generic body ran unspecialized
    // (about 360 instructions per field of an object added); the common property types get their
    // own specialized copies, picked by one metadata comparison each.
    @_specialize(where Value == Int)
    @_specialize(where Value == String)
    @_specialize(where Value == Double)
    @_specialize(where Value == Float)
    @_specialize(where Value == Bool)
    @_specialize(where Value == Date)
    @_specialize(where Value == ObjectId)
    @_specialize(where Value == Data)
    @_specialize(where Value == Decimal128)
    @_specialize(where Value == UUID)
    @_specialize(where Value == Int64)
    @_specialize(where Value == Int32)
    @_specialize(where Value == Optional<Int>)
    @_specialize(where Value == Optional<String>)
    @_specialize(where Value == Optional<Double>)
    @_specialize(where Value == Optional<Date>)
    @_specialize(where Value == Optional<Bool>)
    @_specialize(where Value == Optional<ObjectId>)
    func encodeUnmanaged(in object: ObjectBase, at offset: Int, name: String, _ writer: _PorterWriter) throws
        -> PorterModel.Value
    {
        try withExtendedLifetime(object) {
            let field = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
                .assumingMemoryBound(to: Persisted<Value>.self)
            // A default made here is kept: an ObjectId made now is the one the object keeps.
            return try field.pointee.ownValue(keeping: true)._porterEncode(writer)
        }
    }
}

/// The `@Persisted` fields of each model class, found once per class from the runtime's field
/// offsets. `@Persisted` values are held in the object, so the fields are read and written where
/// they lie (`Mirror` hands out copies); the runtime lists the fields of every Swift class.
final class PersistedFieldTable: @unchecked Sendable {
    static let shared = PersistedFieldTable()
    private let lock = NSLock()
    /// Fields by class.
    private var tables: [ObjectIdentifier: [PersistedField]] = [:]
    /// Class names by class (``ObjectBase/className()`` reflects the type's name each time).
    private var names: [ObjectIdentifier: String] = [:]
    /// Property names by storage key path (see ``name(of:in:)``).
    private var keyPathNames: [AnyKeyPath: String] = [:]

    /// The fields of `object`'s class.
    func fields(of object: ObjectBase) -> [PersistedField] {
        let type = Swift.type(of: object)
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = tables[id]
        lock.unlock()
        if let known { return known }
        let found = Self.offsets(of: type)
        lock.lock()
        tables[id] = found
        lock.unlock()
        return found
    }

    /// The name of the field at `offset` in `object`'s class ("?" when there is none).
    func name(at offset: Int, in object: ObjectBase) -> String {
        fields(of: object).first { $0.offset == offset }?.name ?? "?"
    }

    /// The name of the `@Persisted` property whose storage key path is `keyPath`: the field at
    /// the address the key path projects (once per key path).
    static func name<EnclosingSelf: ObjectBase, Value>(
        of keyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>, in object: EnclosingSelf
    ) -> String {
        let table = shared
        table.lock.lock()
        let known = table.keyPathNames[keyPath]
        table.lock.unlock()
        if let known { return known }
        let offset = withExtendedLifetime(object) { Persisted<Value>.fieldOffset(of: keyPath, in: object) }
        let name = table.name(at: offset, in: object)
        table.lock.lock()
        table.keyPathNames[keyPath] = name
        table.lock.unlock()
        return name
    }

    /// The schema class name of a model class, computed once.
    func className(of type: ObjectBase.Type, _ compute: () -> String) -> String {
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = names[id]
        lock.unlock()
        if let known { return known }
        let name = compute()
        lock.lock()
        names[id] = name
        lock.unlock()
        return name
    }

    private static func offsets(of type: ObjectBase.Type) -> [PersistedField] {
        var fields: [PersistedField] = []
        // `_EachFieldOptions.classType`, spelled by value (it is a `static var`, which Swift 6 refuses).
        let complete = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) {
            name, offset, fieldType, _ in
            if let access = fieldType as? any PersistedFieldAccess.Type {
                let label = String(cString: name)
                fields.append(
                    PersistedField(
                        name: label.hasPrefix("_") ? String(label.dropFirst()) : label, offset: offset,
                        access: access, reader: access.reader()))
            }
            return true
        }
        // Only a class the Swift runtime does not describe (none on Linux) is not listed.
        precondition(complete, "\(type): the Swift runtime does not list this class's fields")
        return fields
    }
}
