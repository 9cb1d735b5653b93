/// The stable internal key of one object; unique within its class and never reused.
public struct ObjectKey: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key as stored.
    public var rawValue: Int64
    /// Wraps a stored key.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// Wraps a stored key.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    /// Orders keys by their stored number.
    public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.rawValue < rhs.rawValue }
    /// The key as a decimal number.
    public var description: String { String(rawValue) }
}

/// A reference to one object of a named class; what a `mixed` value holds when it holds a link,
/// and how links are passed to and returned from the dynamic API.
public struct ObjectLink: Sendable, Hashable, CustomStringConvertible {
    /// The target's class name.
    public var className: String
    /// The target's key.
    public var key: ObjectKey
    /// Creates a link to `key` in `className`.
    public init(_ className: String, _ key: ObjectKey) {
        self.className = className
        self.key = key
    }
    /// `Class(key)`.
    public var description: String { "\(className)(\(key))" }
}
