import Foundation

// The scalar types of the Realm Swift cheat sheet. Each maps onto one engine type; integers of
// every width are stored as `int` (64-bit) and checked for range when read back.

extension Bool: RealmCollectionValue {
    /// Stored as `bool`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.bool) }
    /// `false`.
    public static func _porterDefault() -> Bool { false }
    /// Reads a `bool`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(value, Bool.self) }
        return b
    }
    /// A `bool`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .bool(self) }
}

/// The fixed-width integers Realm supports: all are stored as a 64-bit `int`.
public protocol _PersistableInteger: RealmCollectionValue, FixedWidthInteger {}

extension _PersistableInteger {
    /// Stored as `int`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.int) }
    /// Zero.
    public static func _porterDefault() -> Self { 0 }
    /// Reads an `int`, checking that it fits this width.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        guard case .int(let i) = value else { throw mismatch(value, Self.self) }
        guard let fitting = Self(exactly: i) else {
            throw PorterError(
                .invalidValue, "stored value \(i) is out of range for \(Self.self) (\(Self.min)...\(Self.max))")
        }
        return fitting
    }
    /// An `int`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        guard let wide = Int64(exactly: self) else {
            throw PorterError(.invalidValue, "value \(self) is out of range for a 64-bit int")
        }
        return .int(wide)
    }
}

extension Int: _PersistableInteger {}
extension Int8: _PersistableInteger {}
extension Int16: _PersistableInteger {}
extension Int32: _PersistableInteger {}
extension Int64: _PersistableInteger {}

extension Float: RealmCollectionValue {
    /// Stored as `float`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.float) }
    /// Zero.
    public static func _porterDefault() -> Float { 0 }
    /// Reads a `float`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Float {
        guard case .float(let f) = value else { throw mismatch(value, Float.self) }
        return f
    }
    /// A `float`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .float(self) }
}

extension Double: RealmCollectionValue {
    /// Stored as `double`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.double) }
    /// Zero.
    public static func _porterDefault() -> Double { 0 }
    /// Reads a `double`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Double {
        guard case .double(let d) = value else { throw mismatch(value, Double.self) }
        return d
    }
    /// A `double`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .double(self) }
}

extension String: RealmCollectionValue {
    /// Stored as `string`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.string) }
    /// The empty string.
    public static func _porterDefault() -> String { "" }
    /// Reads a `string`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> String {
        guard case .string(let s) = value else { throw mismatch(value, String.self) }
        return s
    }
    /// A `string`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .string(self) }
}

extension Data: RealmCollectionValue {
    /// Stored as `data`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.data) }
    /// Empty data.
    public static func _porterDefault() -> Data { Data() }
    /// Reads `data`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Data {
        guard case .data(let d) = value else { throw mismatch(value, Data.self) }
        return d
    }
    /// `data`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .data(self) }
}

extension Date: RealmCollectionValue {
    /// Stored as `date`: a `Date` is a `Double` of seconds, rounded to the nearest nanosecond
    /// when stored and read back as the nearest `Double` (exact for every `Date` more than about
    /// 97 days from 1970, where a `Double` step is coarser than a nanosecond).
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.date) }
    /// The epoch, which is also what the engine gives a new object.
    public static func _porterDefault() -> Date { Date(timeIntervalSince1970: 0) }
    /// Reads a `date`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Date {
        guard case .date(let t) = value else { throw mismatch(value, Date.self) }
        return t.date
    }
    /// A `date`, rounded to the nearest nanosecond.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .date(Timestamp(self)) }
}

extension Timestamp: RealmCollectionValue {
    /// Stored as `date`, exactly (to the nanosecond, which a `Date`'s `Double` cannot hold).
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.date) }
    /// The epoch.
    public static func _porterDefault() -> Timestamp { Timestamp(seconds: 0, nanoseconds: 0) }
    /// Reads a `date`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Timestamp {
        guard case .date(let t) = value else { throw mismatch(value, Timestamp.self) }
        return t
    }
    /// A `date`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .date(self) }
}

extension Decimal128: RealmCollectionValue {
    /// Stored as `decimal128`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.decimal128) }
    /// Zero.
    public static func _porterDefault() -> Decimal128 { Decimal128(0) }
    /// Reads a `decimal128`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Decimal128 {
        guard case .decimal128(let d) = value else { throw mismatch(value, Decimal128.self) }
        return d
    }
    /// A `decimal128`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .decimal128(self) }
}

extension ObjectId: RealmCollectionValue {
    /// Stored as `objectId`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.objectId) }
    /// A newly generated ObjectId, as in Realm (so `@Persisted(primaryKey: true) var _id: ObjectId` works).
    public static func _porterDefault() -> ObjectId { .generate() }
    /// Reads an `objectId`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> ObjectId {
        guard case .objectId(let o) = value else { throw mismatch(value, ObjectId.self) }
        return o
    }
    /// An `objectId`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .objectId(self) }
}

extension UUID: RealmCollectionValue {
    /// Stored as `uuid`.
    public static var _porterType: _PorterTypeInfo { _PorterTypeInfo(.uuid) }
    /// A new random UUID, as in Realm.
    public static func _porterDefault() -> UUID { UUID() }
    /// Reads a `uuid`.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> UUID {
        guard case .uuid(let u) = value else { throw mismatch(value, UUID.self) }
        return u
    }
    /// A `uuid`.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .uuid(self) }
}
