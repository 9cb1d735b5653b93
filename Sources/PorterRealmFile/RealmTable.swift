import PorterModel

/// A user class of a Realm file: a table `class_X` (class `X`), or a non-internal table without
/// the prefix (realm-core's own test files).
public struct RealmTable: Sendable, Equatable {
    /// The class name (without `class_`).
    public let name: String
    /// The table's name in the file.
    public let storedName: String
    /// The TableKey (what links and typed links refer to).
    public let key: UInt32
    /// Whether objects of this class are embedded in a parent.
    public let isEmbedded: Bool
    /// Whether the class is asymmetric (Data Ingest; always empty locally).
    public let isAsymmetric: Bool
    /// The primary-key property, if any.
    public let primaryKey: String?
    /// The persisted properties in Spec order (no backlink columns).
    public let properties: [Property]
}

/// One live object: its object key and values parallel to its table's `properties`.
public struct RealmObject: Sendable, Equatable {
    /// The object key (not data: links name it, exports use primary keys).
    public let key: Int64
    /// Values parallel to `RealmTable.properties`.
    public let values: [RealmValue]
}

/// A backlink column: "objects of `originClass` link here through `originProperty`".
public struct RealmBacklink: Sendable, Equatable {
    /// The class the links point to.
    public let targetClass: String
    /// The class holding the link property.
    public let originClass: String
    /// The link property.
    public let originProperty: String
}
