import Foundation

// `T?` is the optional form of a supported type: `String?` is `string?`, `Person?` a to-one link,
// `List<Int?>` a list of optional ints. Collections, `AnyRealmValue` (always nullable) and
// `LinkingObjects` have no optional form, and `T??` has no meaning: those compile (Swift cannot
// express the restriction) and are reported by schema derivation, naming the class and property.

extension Optional: _Persistable where Wrapped: _Persistable {
    /// The wrapped type made optional, or unsupported when it has no optional form.
    /// As the wrapped type.
    public static var _porterReadsFromRow: Bool { Wrapped._porterReadsFromRow }
    public static var _porterType: _PorterTypeInfo {
        var info = Wrapped._porterType
        guard info.unsupportedReason == nil else { return info }
        if info.collection != .none {
            info.unsupportedReason =
                "lists, sets and maps cannot be optional (declare the collection itself non-optional)"
        } else if info.type == .linkingObjects {
            info.unsupportedReason = "LinkingObjects cannot be optional"
        } else if info.type == .mixed {
            info.unsupportedReason = "AnyRealmValue cannot be optional (it holds .none for null)"
        } else if info.isOptional {
            info.unsupportedReason = "a double optional has no stored form"
        } else {
            info.isOptional = true
        }
        return info
    }

    /// `nil`.
    public static func _porterDefault() -> Wrapped? { nil }

    /// `nil` for null, otherwise the wrapped type's reading.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Wrapped? {
        if value.isNull { return nil }
        return try Wrapped._porterDecode(value, realm)
    }

    /// Null for `nil`, otherwise the wrapped value's stored form.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value {
        guard let wrapped = self else { return .null }
        return try wrapped._porterEncode(writer)
    }

    /// The wrapped value, detached.
    public func _porterDetached(_ copier: _DetachCopier) -> Wrapped? {
        map { $0._porterDetached(copier) }
    }

    /// The wrapped value's embedded objects.
    public func _porterEmbeddedObjects() -> [(key: String?, object: ObjectBase)] {
        self?._porterEmbeddedObjects() ?? []
    }
}

extension Optional: RealmCollectionValue where Wrapped: RealmCollectionValue {}
