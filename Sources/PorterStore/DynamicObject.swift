import PorterModel

/// A snapshot of one stored object read through the dynamic API: its class, key and stored
/// property values in declared order. Links (and embedded objects) are `.link` values; use
/// ``Database/snapshot(_:_:)`` for embedded objects materialized as nested `.object` values.
public struct DynamicObject: Sendable, Equatable {
    /// The object's class.
    public let className: String
    /// The object's key.
    public let key: ObjectKey
    /// The stored properties, in declared order.
    public let properties: [Property]
    /// Values parallel to ``properties``.
    public var values: [Value]

    /// Creates a snapshot.
    public init(className: String, key: ObjectKey, properties: [Property], values: [Value]) {
        self.className = className
        self.key = key
        self.properties = properties
        self.values = values
    }

    /// The value of a stored property, or nil when the class has no such property.
    public subscript(name: String) -> Value? {
        guard let i = properties.firstIndex(where: { $0.name == name }) else { return nil }
        return values[i]
    }

    /// The values keyed by property name.
    public var dictionary: [String: Value] {
        Dictionary(uniqueKeysWithValues: zip(properties.map(\.name), values))
    }

    /// A link to this object.
    public var link: ObjectLink { ObjectLink(className, key) }
}

/// What to do when an object with the same primary key already exists.
public enum UpdatePolicy: Sendable, Equatable {
    /// Fail with ``PorterError/Code/duplicatePrimaryKey``.
    case error
    /// Update the existing object, writing only values that differ.
    case modified
    /// Update the existing object, writing every given value.
    case all
}
