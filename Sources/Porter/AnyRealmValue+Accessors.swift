import Foundation

/// Realm's typed accessors of `AnyRealmValue` (each nil when the value holds another kind).
extension AnyRealmValue {
    /// The float held, if any.
    public var floatValue: Float? { if case .float(let v) = self { return v } else { return nil } }
    /// The data held, if any.
    public var dataValue: Data? { if case .data(let v) = self { return v } else { return nil } }
    /// The ObjectId held, if any.
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { return v } else { return nil } }
    /// The decimal held, if any.
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { return v } else { return nil } }
    /// The UUID held, if any.
    public var uuidValue: UUID? { if case .uuid(let v) = self { return v } else { return nil } }
    /// The object held, if it is a `T` (Realm's `objectValue(_:)`).
    public func objectValue<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let o) = self { return o as? T } else { return nil }
    }
    /// The object held, whatever its class; its properties are reachable by name
    /// (`value.dynamicObject?["name"]`), as through Realm's `DynamicObject`.
    public var dynamicObject: Object? { if case .object(let o) = self { return o } else { return nil } }
}
