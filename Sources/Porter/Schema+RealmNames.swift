import Foundation

// Realm's names for schema introspection (`realm.schema`, `object.objectSchema`).

extension Schema {
    /// Every class's schema (Realm's name for `classes`).
    public var objectSchema: [ObjectSchema] { classes }
}

extension ObjectSchema {
    /// The class name (Realm's name for `name`).
    public var className: String { name }
    /// The property called `propertyName`, or nil.
    public subscript(propertyName: String) -> Property? { property(named: propertyName) }
}

extension Property {
    /// The linked (or origin) class name (Realm's name for `objectType`).
    public var objectClassName: String? { objectType }
    /// Whether the property is a list.
    public var isArray: Bool { collection == .list }
    /// Whether the property is a set.
    public var isSet: Bool { collection == .set }
    /// Whether the property is a map.
    public var isMap: Bool { collection == .map }
}

extension PropertyType {
    /// Realm's name for `mixed` (`AnyRealmValue`).
    public static var any: PropertyType { .mixed }
    /// Realm's name for `uuid`.
    public static var UUID: PropertyType { .uuid }
}
