import Foundation
import PorterModel

/// A value as a Realm file holds it: what the reader produces for each property of an object and
/// what the writer consumes.
///
/// Dates keep Realm's full precision (seconds and nanoseconds). Links name their target class and
/// object key; an unresolved link (a tombstone) is never produced: to-one links, dictionary values
/// and mixed values read as `.null`, list and set elements are left out. Embedded objects come
/// inline, with values parallel to their class's persisted properties.
///
/// Not `indirect`: the recursive cases hold arrays (already references), so scalars stay inline
/// instead of costing an allocation each.
public enum RealmValue: Sendable, Equatable {
    /// Null (an unset optional, a null mixed, a null collection element).
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit integer.
    case int(Int64)
    /// A 32-bit float.
    case float(Float)
    /// A 64-bit double.
    case double(Double)
    /// A UTF-8 string (may contain NUL).
    case string(String)
    /// Binary data.
    case binary(Data)
    /// A timestamp: seconds since 1970 and nanoseconds, both carrying the same sign (realm-core's `Timestamp`).
    case timestamp(seconds: Int64, nanoseconds: Int32)
    /// A 128-bit decimal (any stored width, widened to BID128).
    case decimal128(Decimal128)
    /// A 12-byte ObjectId.
    case objectId(ObjectId)
    /// A UUID.
    case uuid(UUID)
    /// A link to a top-level object: to-one links, collection elements, dictionary values, typed links in mixed.
    case link(className: String, key: Int64)
    /// An embedded object: its object key and values parallel to its class's persisted properties.
    case embedded(className: String, key: Int64, values: [RealmValue])
    /// A list: a list property's elements, or a list nested in a mixed (format 24).
    case list([RealmValue])
    /// A set property's elements, in stored order.
    case set([RealmValue])
    /// A dictionary (string keys): a map property's entries, or a dictionary nested in a mixed (format 24), in stored order.
    case dictionary([RealmDictionaryEntry])
}

/// One entry of a Realm dictionary.
public struct RealmDictionaryEntry: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: RealmValue

    /// Creates an entry.
    public init(key: String, value: RealmValue) {
        self.key = key
        self.value = value
    }
}
