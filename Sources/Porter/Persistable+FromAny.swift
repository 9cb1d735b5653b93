import Foundation

// Conversions from loosely typed values (`Object(value: ["name": "Rex", "age": 3])`), as Realm
// accepts them: numbers of any width when the value fits, NSNull or nil for null, dictionaries
// and arrays for objects, arrays for lists and sets, dictionaries for maps.

/// An integer of any width (or an integral floating-point number) as `T`, when it fits.
private func integer<T: FixedWidthInteger>(_ value: Any) -> T? {
    switch value {
    case let v as T: return v
    case let v as Int: return T(exactly: v)
    case let v as Int64: return T(exactly: v)
    case let v as Int32: return T(exactly: v)
    case let v as Int16: return T(exactly: v)
    case let v as Int8: return T(exactly: v)
    case let v as Double: return T(exactly: v)
    case let v as NSNumber: return T(exactly: v.int64Value)
    default: return nil
    }
}

/// A number of any kind as a `Double`.
private func floating(_ value: Any) -> Double? {
    switch value {
    case let v as Double: return v
    case let v as Float: return Double(v)
    case let v as Int: return Double(v)
    case let v as Int64: return Double(v)
    case let v as Int32: return Double(v)
    case let v as Decimal128: return v.doubleValue
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
}

extension Int {
    /// An integer of any width that fits.
    public static func _porterFromAny(_ value: Any) -> Int? { integer(value) }
}
extension Int8 {
    /// An integer of any width that fits.
    public static func _porterFromAny(_ value: Any) -> Int8? { integer(value) }
}
extension Int16 {
    /// An integer of any width that fits.
    public static func _porterFromAny(_ value: Any) -> Int16? { integer(value) }
}
extension Int32 {
    /// An integer of any width that fits.
    public static func _porterFromAny(_ value: Any) -> Int32? { integer(value) }
}
extension Int64 {
    /// An integer of any width that fits.
    public static func _porterFromAny(_ value: Any) -> Int64? { integer(value) }
}
extension Double {
    /// Any number.
    public static func _porterFromAny(_ value: Any) -> Double? { floating(value) }
}
extension Float {
    /// Any number (rounded to `Float`).
    public static func _porterFromAny(_ value: Any) -> Float? { floating(value).map(Float.init) }
}

extension Decimal128 {
    /// A `Decimal128`, a string or a number.
    public static func _porterFromAny(_ value: Any) -> Decimal128? {
        switch value {
        case let d as Decimal128: return d
        case let s as String: return try? Decimal128(string: s)
        default:
            if let i: Int64 = integer(value) { return Decimal128(i) }
            return floating(value).map { Decimal128($0) }
        }
    }
}

extension ObjectId {
    /// An `ObjectId` or its 24-digit string.
    public static func _porterFromAny(_ value: Any) -> ObjectId? {
        if let id = value as? ObjectId { return id }
        return (value as? String).flatMap { try? ObjectId(string: $0) }
    }
}

extension UUID {
    /// A `UUID` or its string.
    public static func _porterFromAny(_ value: Any) -> UUID? {
        if let id = value as? UUID { return id }
        return (value as? String).flatMap(UUID.init(uuidString:))
    }
}

extension Optional {
    /// nil for `nil` or `NSNull`, else the wrapped type's conversion.
    public static func _porterFromAny(_ value: Any) -> Wrapped?? where Wrapped: _Persistable {
        if value is NSNull { return .some(nil) }
        if let optional = value as? _OptionalValue, optional._isNil { return .some(nil) }
        return Wrapped._porterFromAny(value).map { .some($0) }
    }
}

/// Tells a `nil` held in an `Any` from a value.
protocol _OptionalValue {
    /// Whether this optional is nil.
    var _isNil: Bool { get }
}

extension Optional: _OptionalValue {
    var _isNil: Bool { self == nil }
}

extension ObjectBase {
    /// The object itself, or a new unmanaged one from a dictionary or array (Realm's `value:`).
    public static func _porterFromAny(_ value: Any) -> Self? {
        if let object = value as? Self { return object }
        guard value is [String: Any] || value is [Any] else { return nil }
        let object = Self(_porterMake: ())
        return object.assignValues(value) ? object : nil
    }
}

extension List {
    /// A list, or an unmanaged list of the elements of an array or any other sequence (results,
    /// another list, a set …), as Realm copies any sequence of values or objects into a list.
    public static func _porterFromAny(_ value: Any) -> List<Element>? {
        if let list = value as? List<Element> { return list }
        return elementsOfSequence(value, Element.self).map(List.init)
    }
}

extension MutableSet {
    /// A set, or an unmanaged set of the elements of an array or any other sequence.
    public static func _porterFromAny(_ value: Any) -> MutableSet<Element>? {
        if let set = value as? MutableSet<Element> { return set }
        return elementsOfSequence(value, Element.self).map(MutableSet.init)
    }
}

/// The elements of `value`, a sequence of values each convertible to `Element` (taken in full
/// first: results and lists are live, and may be the very collection being assigned); nil when
/// `value` is no such sequence. Strings, data and dictionaries are not taken as sequences.
private func elementsOfSequence<Element: _Persistable>(_ value: Any, _: Element.Type) -> [Element]? {
    if value is String || value is Data || value is [String: Any] { return nil }
    guard let sequence = value as? any Sequence else { return nil }
    let items = anyElements(sequence)
    let converted = items.compactMap { Element._porterFromAny($0) }
    return converted.count == items.count ? converted : nil
}

/// A sequence's elements as `Any` (opens the existential).
private func anyElements<S: Sequence>(_ sequence: S) -> [Any] { sequence.map { $0 as Any } }

extension Map {
    /// A map, or an unmanaged map of a dictionary's entries.
    public static func _porterFromAny(_ value: Any) -> Map<Key, Value>? {
        if let map = value as? Map<Key, Value> { return map }
        guard let entries = value as? [String: Any] else { return nil }
        var out: [Key: Value] = [:]
        for (key, item) in entries {
            guard let converted = Value._porterFromAny(item) else { return nil }
            out[Key(_porterKey: key)] = converted
        }
        return Map(out)
    }
}

extension AnyRealmValue {
    /// An `AnyRealmValue`, or the case for a plain value (`3` is `.int(3)`, `nil` is `.none`).
    public static func _porterFromAny(_ value: Any) -> AnyRealmValue? {
        switch value {
        case let v as AnyRealmValue: return v
        case is NSNull: return AnyRealmValue.none
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(v)
        case let v as Float: return .float(v)
        case let v as Double: return .double(v)
        case let v as String: return .string(v)
        case let v as Data: return .data(v)
        case let v as Date: return .date(v)
        case let v as Object: return .object(v)
        case let v as ObjectId: return .objectId(v)
        case let v as Decimal128: return .decimal128(v)
        case let v as UUID: return .uuid(v)
        default:
            if let optional = value as? _OptionalValue, optional._isNil { return AnyRealmValue.none }
            if let i: Int = integer(value) { return .int(i) }
            return nil
        }
    }
}

extension PersistableEnum {
    /// A case, or the case with a raw value.
    public static func _porterFromAny(_ value: Any) -> Self? {
        if let v = value as? Self { return v }
        return RawValue._porterFromAny(value).flatMap(Self.init(rawValue:))
    }
}

extension CustomPersistable {
    /// A value, or the projection of its stored form.
    public static func _porterFromAny(_ value: Any) -> Self? {
        if let v = value as? Self { return v }
        return PersistedType._porterFromAny(value).map(Self.init(persistedValue:))
    }
}

extension FailableCustomPersistable {
    /// A value, or the projection of its stored form when that converts.
    public static func _porterFromAny(_ value: Any) -> Self? {
        if let v = value as? Self { return v }
        return PersistedType._porterFromAny(value).flatMap(Self.init(persistedValue:))
    }
}
