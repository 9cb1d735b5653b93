@_spi(Reflection) import Swift
import Foundation

/// Where one `@Persisted` property of a model class sits in its instances.
struct PersistedField {
    /// The Swift property name (without the wrapper's `_`).
    let name: String
    /// The byte offset of the `Persisted` wrapper (one reference to its storage) in the instance.
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
        // A copy of the wrapper (a retained reference to the property's storage), as a field read gives.
        withExtendedLifetime(object) {
            UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(
                fromByteOffset: offset, as: Persisted<Value>.self)
        }
    }

    static func reader() -> any PersistedFieldReading { PersistedFieldReader<Value>() }
}

/// Reads `Persisted<Value>` fields: the wrapper is one reference to its storage.
final class PersistedFieldReader<Value: _Persistable>: PersistedFieldReading {
    /// The field's storage, unretained: valid while `object` is alive.
    private func storage(of object: ObjectBase, at offset: Int) -> Unmanaged<PersistedStorage<Value>> {
        let reference = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(
            fromByteOffset: offset, as: UnsafeRawPointer.self)
        return Unmanaged<PersistedStorage<Value>>.fromOpaque(reference)
    }

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
            // Used without retaining it (a retain and release per field added): the object holds it.
            try storage(of: object, at: offset)._withUnsafeGuaranteedRef { storage in
                // Named once: assigning the same name again retained and released it per object added.
                if !storage.isShared && storage.name == nil { storage.name = name }
                return try storage.current()._porterEncode(writer)
            }
        }
    }
}

/// The `@Persisted` fields of each model class, found once per class from the runtime's field
/// offsets: reflecting every object with `Mirror` (to add it, copy it …) cost more than the rest of
/// adding it. Checked against `Mirror` once per class; a class whose fields cannot be found this
/// way (or do not match) keeps being reflected.
final class PersistedFieldTable: @unchecked Sendable {
    static let shared = PersistedFieldTable()
    private let lock = NSLock()
    /// Fields by class; nil for a class that must be reflected.
    private var tables: [ObjectIdentifier: [PersistedField]?] = [:]
    /// Class names by class (``ObjectBase/className()`` reflects the type's name each time).
    private var names: [ObjectIdentifier: String] = [:]

    /// The fields of `object`'s class, or nil when it must be reflected.
    func fields(of object: ObjectBase) -> [PersistedField]? {
        let type = Swift.type(of: object)
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = tables[id]
        lock.unlock()
        if let known { return known }
        let found = Self.offsets(of: type, checkedAgainst: object)
        lock.lock()
        tables[id] = .some(found)
        lock.unlock()
        return found
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

    private static func offsets(of type: ObjectBase.Type, checkedAgainst object: ObjectBase) -> [PersistedField]? {
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
        guard complete else { return nil }
        let reflected = object._reflectedPersistedProperties()
        guard reflected.count == fields.count else { return nil }
        for (field, mirrored) in zip(fields, reflected) {
            let read = field.access.property(in: object, at: field.offset)
            guard field.name == mirrored.name, read.storageObject === mirrored.property.storageObject else {
                return nil
            }
        }
        return fields
    }
}
