import Foundation

/// An enum stored as its raw value, as in Realm:
///
/// ```swift
/// enum Status: String, PersistableEnum { case active, retired }
/// final class Dog: Object { @Persisted var status = Status.active }   // schema: string, default "active"
/// ```
///
/// Any supported scalar raw type works (`Int`, `String`, `Double` …). A property declared without an
/// initial value starts at the first case. Reading a stored raw value that names no case returns
/// the property's fallback and records the problem in ``Realm/lastReadError``.
public protocol PersistableEnum: RealmCollectionValue, RawRepresentable, CaseIterable
where RawValue: RealmCollectionValue {}

extension PersistableEnum {
    /// The raw type's schema shape.
    public static var _porterType: _PorterTypeInfo {
        var info = RawValue._porterType
        if info.type == .object || info.type == .mixed || info.collection != .none || info.isOptional {
            info.unsupportedReason = "a PersistableEnum's raw type must be a non-optional scalar"
        }
        return info
    }

    /// The first case (Realm's choice too).
    public static func _porterDefault() -> Self {
        guard let first = allCases.first else {
            // An enum without cases has no value at all; declaring a property of it is a programming error.
            preconditionFailure("PersistableEnum '\(Self.self)' has no cases, so a property of it cannot have a value")
        }
        return first
    }

    /// The case whose raw value is stored.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        let raw = try RawValue._porterDecode(value, realm)
        guard let result = Self(rawValue: raw) else {
            throw PorterError(.invalidValue, "stored value \(raw) is not a case of \(Self.self)")
        }
        return result
    }

    /// The raw value.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        try rawValue._porterEncode(writer)
    }
}
