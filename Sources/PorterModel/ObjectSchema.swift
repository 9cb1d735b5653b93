/// One object type ("class"): its name, properties in declared order, primary key and whether it
/// is embedded (lives only inside one parent object).
public struct ObjectSchema: Sendable, Hashable {
    /// The class name, unique within a schema.
    public var name: String
    /// Properties in declared order, including computed `linkingObjects` ones.
    public var properties: [Property]
    /// The name of the primary-key property, if any.
    public var primaryKey: String?
    /// Whether objects of this class are embedded in a parent.
    public var isEmbedded: Bool

    /// Creates an object type.
    public init(name: String, properties: [Property], primaryKey: String? = nil, embedded: Bool = false) {
        self.name = name
        self.properties = properties
        self.primaryKey = primaryKey
        self.isEmbedded = embedded
    }

    /// Stored properties, in declared order.
    public var persistedProperties: [Property] { properties.filter { !$0.isComputed } }
    /// `linkingObjects` properties, in declared order.
    public var computedProperties: [Property] { properties.filter { $0.isComputed } }

    /// The property with this name, if any.
    public func property(named name: String) -> Property? { properties.first { $0.name == name } }

    /// The primary-key property, if the class has one and it exists.
    public var primaryKeyProperty: Property? { primaryKey.flatMap { property(named: $0) } }
}

/// A whole schema: the object types and the schema version they belong to.
///
/// Classes are kept sorted by name, as realm-core keeps them, so two schemas that declare the same
/// classes in another order are equal. Property order inside a class is the declared order.
public struct Schema: Sendable, Hashable {
    /// The schema version (`schemaVersion` in files).
    public var version: UInt64
    /// Object types, sorted by name.
    public private(set) var classes: [ObjectSchema]

    /// Creates a schema; `classes` are sorted by name.
    public init(version: UInt64 = 0, classes: [ObjectSchema]) {
        self.version = version
        self.classes = classes.sorted { $0.name < $1.name }
    }

    /// The class with this name, if any (the first one, should a broken schema hold several).
    public subscript(className: String) -> ObjectSchema? {
        // `classes` is sorted by name: binary search keeps lookups cheap in schemas with
        // thousands of classes (every link and every object operation looks its class up).
        var low = 0, high = classes.count
        while low < high {
            let mid = (low + high) / 2
            if classes[mid].name < className { low = mid + 1 } else { high = mid }
        }
        return low < classes.count && classes[low].name == className ? classes[low] : nil
    }

    /// Replaces or adds a class, keeping the name order.
    public mutating func upsert(_ objectSchema: ObjectSchema) {
        classes.removeAll { $0.name == objectSchema.name }
        classes.append(objectSchema)
        classes.sort { $0.name < $1.name }
    }

    /// Removes the class with this name, if present.
    public mutating func remove(className: String) {
        classes.removeAll { $0.name == className }
    }

    /// Every class name.
    public var classNames: [String] { classes.map(\.name) }
}
