import Foundation

/// A type projection: a Swift type stored as another supported type, as Realm's
/// `CustomPersistable` does. The conversion must work both ways for every value.
///
/// ```swift
/// struct Celsius: CustomPersistable {
///     var degrees: Double
///     init(persistedValue: Double) { degrees = persistedValue }
///     var persistableValue: Double { degrees }
/// }
/// ```
public protocol CustomPersistable: RealmCollectionValue {
    /// The supported type the value is stored as.
    associatedtype PersistedType: RealmCollectionValue
    /// Makes a value from its stored form.
    init(persistedValue: PersistedType)
    /// The stored form (Realm's name).
    var persistableValue: PersistedType { get }
    /// Porter's earlier name for ``persistableValue``: a type implementing either one conforms.
    @available(*, deprecated, renamed: "persistableValue")
    var persistedValue: PersistedType { get }
}

/// A type projection whose reading can fail (`URL` from a string is the built-in example). A
/// stored value that cannot be converted is reported in ``Realm/lastReadError`` and read as the
/// property's fallback (`nil` for an optional property).
public protocol FailableCustomPersistable: RealmCollectionValue {
    /// The supported type the value is stored as.
    associatedtype PersistedType: RealmCollectionValue
    /// Makes a value from its stored form, or nil when the stored form is not valid.
    init?(persistedValue: PersistedType)
    /// The stored form (Realm's name).
    var persistableValue: PersistedType { get }
    /// Porter's earlier name for ``persistableValue``: a type implementing either one conforms.
    @available(*, deprecated, renamed: "persistableValue")
    var persistedValue: PersistedType { get }
}

// Each name defaults to the other, so a type implements one of them (as `Equatable`'s `==`/`!=`).
extension CustomPersistable {
    /// The stored form, from the deprecated ``persistedValue`` when the type implements only that.
    public var persistableValue: PersistedType { persistedValue }
    /// The stored form, from ``persistableValue``.
    @available(*, deprecated, renamed: "persistableValue")
    public var persistedValue: PersistedType { persistableValue }
}

extension FailableCustomPersistable {
    /// The stored form, from the deprecated ``persistedValue`` when the type implements only that.
    public var persistableValue: PersistedType { persistedValue }
    /// The stored form, from ``persistableValue``.
    @available(*, deprecated, renamed: "persistableValue")
    public var persistedValue: PersistedType { persistableValue }
}

extension CustomPersistable {
    /// The stored type's schema shape.
    public static var _porterType: _PorterTypeInfo { PersistedType._porterType }
    /// The projection of the stored type's default.
    public static func _porterDefault() -> Self { Self(persistedValue: PersistedType._porterDefault()) }
    /// The projection of the stored value.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        Self(persistedValue: try PersistedType._porterDecode(value, realm))
    }
    /// The stored form's value.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        try persistableValue._porterEncode(writer)
    }
}

extension FailableCustomPersistable {
    /// The stored type's schema shape.
    public static var _porterType: _PorterTypeInfo { PersistedType._porterType }
    /// The projection of the stored type's default. A type whose default stored value does not
    /// convert must provide its own `_porterDefault()` (as `URL` does) or always be declared with
    /// an initial value.
    public static func _porterDefault() -> Self {
        guard let value = Self(persistedValue: PersistedType._porterDefault()) else {
            // Only the model declaration can cause this, never stored data.
            preconditionFailure(
                "\(Self.self) has no default value: give its @Persisted property an initial value or make it optional")
        }
        return value
    }
    /// The projection of the stored value.
    /// - Throws: `PorterError/Code/invalidValue` when the stored value does not convert.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        let stored = try PersistedType._porterDecode(value, realm)
        guard let result = Self(persistedValue: stored) else {
            throw PorterError(.invalidValue, "stored value \(stored) cannot be converted to \(Self.self)")
        }
        return result
    }
    /// The stored form's value.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        try persistableValue._porterEncode(writer)
    }
}

extension URL: FailableCustomPersistable {
    /// URLs are stored as their absolute string.
    public typealias PersistedType = String
    /// Parses a stored string; nil when it is not a URL.
    public init?(persistedValue: String) { self.init(string: persistedValue) }
    /// The absolute string.
    public var persistableValue: String { absoluteString }
    /// `about:blank`: the empty string is not a URL, so a non-optional `URL` needs its own default.
    public static func _porterDefault() -> URL { URL(string: "about:blank") ?? URL(fileURLWithPath: "/") }
}
