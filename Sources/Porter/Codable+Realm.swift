import Foundation

// Codable as Realm's types are (realm-swift 10.54): a model class that declares `Codable` and
// whose `@Persisted` values are all Codable gets the synthesized `init(from:)` and
// `encode(to:)`, each property coded as its wrapped value; collections as JSON arrays, a map
// as a JSON object, ObjectId and Decimal128 as strings (PorterModel).

extension Persisted: Decodable where Value: Decodable {
    /// The decoded value as the property's own (unmanaged) value.
    public init(from decoder: any Decoder) throws {
        unmanaged = try Value(from: decoder)
        options = PersistedOptions()
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the property's value as the value itself (an optional's nil as null).
    ///
    /// As in Realm, synthesized coding is for unmanaged objects (made by the program or by a
    /// decoder): the wrapper holds only the object's own value, not what a realm stores.
    public func encode(to encoder: any Encoder) throws {
        try (unmanaged ?? Value._porterDefault()).encode(to: encoder)
    }
}

/// A property wrapper whose wrapped value may be nil, so a missing key decodes as nil (Realm's
/// `OptionalCodingWrapper`).
public protocol OptionalCodingWrapper {
    /// The optional wrapped type.
    associatedtype WrappedType: ExpressibleByNilLiteral
    /// A wrapper holding `wrappedValue`.
    init(wrappedValue: WrappedType)
}

extension Persisted: OptionalCodingWrapper where Value: ExpressibleByNilLiteral {}

extension KeyedDecodingContainer {
    /// An optional `@Persisted` property whose key is missing decodes as nil, as a plain optional
    /// property does (chosen by the synthesized `init(from:)` over the general `decode`).
    public func decode<T: Decodable & OptionalCodingWrapper>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? T(wrappedValue: nil)
    }
}

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the elements of an array.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd { elements.append(try container.decode(Element.self)) }
        append(objectsIn: elements)
    }
}

extension List: Encodable where Element: Encodable {
    /// The elements as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the elements of an array (duplicates kept once).
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { insert(try container.decode(Element.self)) }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    /// The elements as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Map: Decodable where Key: Decodable, Value: Decodable {
    /// An unmanaged map of the entries of a dictionary (a JSON object).
    public convenience init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Key: Value].self))
    }
}

extension Map: Encodable where Key: Encodable, Value: Encodable {
    /// The entries as a dictionary (a JSON object).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dictionary)
    }
}
