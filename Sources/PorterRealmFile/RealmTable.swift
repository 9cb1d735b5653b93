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

    /// Creates a table description (the reader makes them; tests and writers may too).
    public init(
        name: String, storedName: String, key: UInt32, isEmbedded: Bool, isAsymmetric: Bool, primaryKey: String?,
        properties: [Property]
    ) {
        self.name = name
        self.storedName = storedName
        self.key = key
        self.isEmbedded = isEmbedded
        self.isAsymmetric = isAsymmetric
        self.primaryKey = primaryKey
        self.properties = properties
    }
}

/// One live object: its object key and values parallel to its table's `properties`.
public struct RealmObject: Sendable, Equatable {
    /// The object key (not data: links name it, exports use primary keys).
    public let key: Int64
    /// Values parallel to `RealmTable.properties`.
    public let values: [RealmValue]

    /// Creates an object.
    public init(key: Int64, values: [RealmValue]) {
        self.key = key
        self.values = values
    }
}

/// A backlink column: "objects of `originClass` link here through `originProperty`".
public struct RealmBacklink: Sendable, Equatable {
    /// The class the links point to.
    public let targetClass: String
    /// The class holding the link property.
    public let originClass: String
    /// The link property.
    public let originProperty: String

    /// Creates a backlink description.
    public init(targetClass: String, originClass: String, originProperty: String) {
        self.targetClass = targetClass
        self.originClass = originClass
        self.originProperty = originProperty
    }
}
