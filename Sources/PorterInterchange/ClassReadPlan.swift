import PorterModel

/// What the reader needs to know about one class, computed once per import: properties by
/// name and position, each link property's target, and the primary key.
final class ClassReadPlan {
    let schema: ObjectSchema
    let name: String
    /// Every property in declared order (computed ones included, to report them by name).
    let properties: [Property]
    let byName: [String: Int]
    /// The properties as class instances, parallel to `properties`: reading a field takes one
    /// reference instead of copying a `Property` (and retaining each of its strings).
    let infos: [PropertyReadInfo]
    /// For each property, the index of its link target's plan (nil for other properties).
    var targets: [Int?] = []
    let primaryKey: Property?
    /// The primary key's position in `properties`.
    let primaryKeyIndex: Int?
    let isEmbedded: Bool
    /// Properties a document must give: single, non-optional values without a declared default
    /// (links and mixed are optional by Realm's rules; the primary key has its own check).
    let requiredIndexes: [Int]

    init(_ schema: ObjectSchema) {
        self.schema = schema
        name = schema.name
        properties = schema.properties
        infos = schema.properties.map(PropertyReadInfo.init)
        byName = Dictionary(
            schema.properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        primaryKey = schema.primaryKeyProperty
        primaryKeyIndex = schema.primaryKey.flatMap { pk in schema.properties.firstIndex { $0.name == pk } }
        isEmbedded = schema.isEmbedded
        requiredIndexes = schema.properties.indices.filter { i in
            let p = schema.properties[i]
            return !p.isOptional && !p.isCollection && p.defaultValue == nil && p.name != schema.primaryKey
                && p.type != .object && p.type != .mixed && p.type != .linkingObjects
        }
    }

    /// The index of the property named `key`; documents usually list fields in schema order
    /// (exports do), so the expected position is tried before hashing the name.
    @inline(__always)
    func index(of key: String, expected: Int) -> Int? {
        if expected < properties.count && properties[expected].name == key { return expected }
        return byName[key]
    }

    /// Plans for every class of a schema, with link targets resolved to indexes.
    static func plans(for schema: Schema) -> (plans: [ClassReadPlan], index: [String: Int]) {
        let plans = schema.classes.map(ClassReadPlan.init)
        let index = Dictionary(plans.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for plan in plans {
            plan.targets = plan.properties.map { $0.type == .object ? $0.objectType.flatMap { index[$0] } : nil }
        }
        return (plans, index)
    }
}

/// One property of a ``ClassReadPlan``.
final class PropertyReadInfo {
    let property: Property

    init(_ property: Property) {
        self.property = property
    }
}
