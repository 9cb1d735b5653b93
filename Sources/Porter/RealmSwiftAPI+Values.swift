import Foundation

// Realm Swift 10.54 spellings of values and identity that code written for Realm uses every day:
// ObjectId's initializers, `ObjectKeyIdentifiable`, realms and maps compared with `==`, merging
// into a map, and key-value reads over collections of objects.

extension ObjectId {
    /// The zero ObjectId (all twelve bytes 0), as Realm's `ObjectId()`.
    public init() {
        self.init(bytes: [UInt8](repeating: 0, count: 12))!
    }

    /// Parses 24 hexadecimal digits written in the code (Realm's `ObjectId("5f1b…")`). As in
    /// Realm, a literal that is not 24 hexadecimal digits stops the program, quoting it; use
    /// `init(string:)` for strings read at run time.
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        do {
            try self.init(string: text)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}

extension ObjectId: Codable {
    /// Decodes the 24-hexadecimal-digit string Realm encodes.
    /// - Throws: `DecodingError.dataCorrupted` quoting the string when it is not an ObjectId.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(string: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Encodes the 24 lowercase hexadecimal digits.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

/// Gives model objects a stable `id` for `Identifiable` (Realm's `ObjectKeyIdentifiable`): the
/// same for every instance of one managed object, the instance's identity while unmanaged.
public protocol ObjectKeyIdentifiable: Identifiable, ObjectBase {
    /// The stable identity of the object.
    var id: UInt64 { get }
}

extension ObjectKeyIdentifiable {
    /// The class and object key of a managed object (FNV-1a of the class name mixed with the
    /// key); the instance's address while unmanaged.
    public var id: UInt64 {
        guard let managed = _managed else { return UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue)) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in managed.className.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash ^ UInt64(bitPattern: managed.key.rawValue)
    }
}

extension Realm: Equatable {
    /// Whether two realms are the same realm: same file (or in-memory identifier) opened on the
    /// same thread, sharing one connection, as Realm's `==`.
    public static func == (lhs: Realm, rhs: Realm) -> Bool { lhs.core === rhs.core }
}

extension Map: Equatable {
    /// Managed maps are equal when they are the same property of the same object in the same
    /// realm; unmanaged maps when they hold the same entries (as Realm's `==`).
    public static func == (lhs: Map, rhs: Map) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.managed(let l), .managed(let r)):
            return l.realm == r.realm && l.owner == r.owner && l.property.name == r.property.name
        case (.unmanaged(let l), .unmanaged(let r)):
            return l == r
        default:
            return false
        }
    }
}

extension Map {
    /// Adds the entries of a sequence of pairs (a dictionary, another map …); for a key already
    /// present, `combine` gets the current and the new value and returns the one to store, as
    /// `Dictionary.merge(_:uniquingKeysWith:)`. Inside a write transaction when managed.
    public func merge<S: Sequence>(_ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (key: Key, value: Value) {
        for entry in other { try mergeEntry(entry.key, entry.value, combine) }
    }

    /// Adds the entries of a sequence of unlabeled `(key, value)` tuples, as the labeled form.
    public func merge<S: Sequence>(_ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (Key, Value) {
        for entry in other { try mergeEntry(entry.0, entry.1, combine) }
    }

    /// Stores `value` under `key`, combined with the value already there.
    private func mergeEntry(_ key: Key, _ value: Value, _ combine: (Value, Value) throws -> Value) rethrows {
        if let current = self[key] {
            updateValue(try combine(current, value), forKey: key)
        } else {
            updateValue(value, forKey: key)
        }
    }
}

extension List where Element: ObjectBase {
    /// The value of a property (or key path through links) for every object, in order (Realm's
    /// key-value coding on collections: `dogs.value(forKey: "name") as! [String]`).
    public func value(forKey key: String) -> [Any?] { map { $0.value(forKeyPath: key) } }
    /// Same as ``value(forKey:)``, for a key path through links (`"owner.name"`).
    public func value(forKeyPath keyPath: String) -> [Any?] { value(forKey: keyPath) }
    /// Sets a property of every object (inside a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) {
        for object in Array(self) { object.setValue(value, forKey: key) }
    }
}

extension MutableSet where Element: ObjectBase {
    /// The value of a property for every object (Realm's key-value coding on collections).
    public func value(forKey key: String) -> [Any?] { map { $0.value(forKeyPath: key) } }
    /// Same as ``value(forKey:)``, for a key path through links.
    public func value(forKeyPath keyPath: String) -> [Any?] { value(forKey: keyPath) }
    /// Sets a property of every object (inside a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) {
        for object in Array(self) { object.setValue(value, forKey: key) }
    }
}

extension LinkingObjects {
    /// The value of a property for every linking object (Realm's key-value coding on collections).
    public func value(forKey key: String) -> [Any?] { map { $0.value(forKeyPath: key) } }
    /// Same as ``value(forKey:)``, for a key path through links.
    public func value(forKeyPath keyPath: String) -> [Any?] { value(forKey: keyPath) }
}

extension Results where Element: ObjectBase {
    /// Same as ``value(forKey:)``, for a key path through links (`"owner.name"`).
    public func value(forKeyPath keyPath: String) -> [Any?] { map { $0.value(forKeyPath: keyPath) } }
}

extension ObjectBase {
    /// The value at a key path through to-one links and embedded objects (`"owner.name"`), nil
    /// when a link on the way is nil (NSObject's `value(forKeyPath:)`, as Realm objects answer it).
    /// An unknown key stops the program naming class and key, as in Realm.
    public func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            guard let object = current as? ObjectBase else { return nil }
            current = object.value(forKey: String(key))
        }
        return current
    }
}

extension Query where T: _QueryCollection, T._QueryCollectionElement: _QueryComparable {
    /// Some element of the collection is less than `rhs` (`$0.scores < 3`, `$0.tasks.ratings < 3`).
    public static func < (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any < rhs }
    /// Some element is at most `rhs`.
    public static func <= (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any <= rhs }
    /// Some element is greater than `rhs` (`$0.tasks.ratings > 3`).
    public static func > (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any > rhs }
    /// Some element is at least `rhs`.
    public static func >= (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any >= rhs }
}

extension Query where T: _QueryCollection, T._QueryCollectionElement: _Persistable {
    /// Some element of the collection equals `rhs` (`$0.tags == "red"`).
    public static func == (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any == rhs }
    /// Some element of the collection differs from `rhs`.
    public static func != (lhs: Query<T>, rhs: T._QueryCollectionElement) -> Query<Bool> { lhs.any != rhs }
}
