import PorterModel

/// The schema a plan was made from, rebuilt from the plan alone, for `porter plan --reverse PLAN`
/// (inverting the plan you applied without keeping the old schema file).
extension MigrationPlan {
    /// The schema this plan was made from, rebuilt by undoing its listed changes and renames on
    /// its target schema, and accepted only when its checksum is the plan's `oldSchemaChecksum`.
    ///
    /// A plan lists every change between its schemas, but not everything about what it removed
    /// (a removed class's properties, a removed property's place, index and default): such plans
    /// cannot be undone without the old schema, and this says so.
    /// - Throws: ``PorterError/Code/usage`` naming what cannot be rebuilt, or when the rebuilt
    ///   schema's checksum differs from the plan's.
    public func sourceSchema() throws -> Schema {
        var classes: [String: ObjectSchema] = [:]
        for objectSchema in targetSchema.classes { classes[objectSchema.name] = objectSchema }
        func missing(_ what: String) -> PorterError {
            PorterError(
                .usage,
                "the plan does not record \(what), so the schema it was made from cannot be rebuilt from it: "
                    + "give that schema after the plan (porter plan --reverse PLAN OLD.json)")
        }
        func edit(_ className: String, _ property: String?, _ change: (inout Property) throws -> Void) throws {
            guard var objectSchema = classes[className] else { throw missing("class '\(className)'") }
            guard let property else { return }
            guard let index = objectSchema.properties.firstIndex(where: { $0.name == property }) else {
                throw missing("property '\(className).\(property)'")
            }
            try change(&objectSchema.properties[index])
            classes[className] = objectSchema
        }
        func undo(_ change: PlanChange) throws {
            let fields = JSONValue.object(change.attributes)
            let property = change.propertyName
            switch change.operation {
            case "addClass":
                classes[change.className] = nil
            case "removeClass":
                throw missing("the properties of the removed class '\(change.className)'")
            case "changeClassType":
                guard let embedded = fields["embedded"]?.boolValue, classes[change.className] != nil else {
                    throw missing("class '\(change.className)'")
                }
                classes[change.className]?.isEmbedded = !embedded
            case "addProperty":
                try edit(change.className, nil) { _ in }
                classes[change.className]?.properties.removeAll { $0.name == property }
            case "removeProperty":
                guard let property, let type = fields["type"]?.stringValue, classes[change.className] != nil else {
                    throw missing("the type of the removed property '\(change.subject)'")
                }
                classes[change.className]?.properties.append(try Property(name: property, typeShorthand: type))
            case "changePropertyType":
                guard let from = fields["from"]?.stringValue else {
                    throw missing("the old type of '\(change.subject)'")
                }
                try edit(change.className, property) { current in
                    var old = try Property(name: current.name, typeShorthand: from, indexed: current.isIndexed)
                    old.defaultValue = current.defaultValue
                    current = old
                }
            case "makeOptional": try edit(change.className, property) { $0.isOptional = false }
            case "makeRequired": try edit(change.className, property) { $0.isOptional = true }
            case "addIndex": try edit(change.className, property) { $0.isIndexed = false }
            case "removeIndex": try edit(change.className, property) { $0.isIndexed = true }
            case "changePrimaryKey":
                try edit(change.className, nil) { _ in }
                classes[change.className]?.primaryKey = fields["from"]?.stringValue
            default:
                throw missing("how to undo '\(change.operation)'")
            }
        }
        // Listed changes and conversions name classes and properties by their new names: undo them
        // first, then the renames, last to first.
        for operation in operations {
            switch operation {
            case .change(let change):
                try undo(change)
            case .convert(let conversion):
                guard let from = conversion.from else { continue }
                try edit(conversion.className, conversion.property) { property in
                    let old = try Property(name: property.name, typeShorthand: from, indexed: property.isIndexed)
                    property.type = old.type
                    property.objectType = old.objectType
                    property.isOptional = old.isOptional
                    property.collection = old.collection
                }
            default:
                break
            }
        }
        for operation in operations.reversed() {
            switch operation {
            case .renameProperty(let className, let from, let to):
                try edit(className, to) { $0.name = from }
                if classes[className]?.primaryKey == to { classes[className]?.primaryKey = from }
            case .renameClass(let from, let to):
                guard var objectSchema = classes.removeValue(forKey: to) else { throw missing("class '\(to)'") }
                objectSchema.name = from
                classes[from] = objectSchema
                for name in Array(classes.keys) {
                    for index in classes[name]!.properties.indices
                    where classes[name]!.properties[index].objectType == to {
                        classes[name]!.properties[index].objectType = from
                    }
                }
            default:
                break
            }
        }
        let schema = Schema(version: fromVersion, classes: Array(classes.values))
        guard schema.sha256Checksum == oldSchemaChecksum else {
            throw missing("everything about the schema it was made from (defaults, order or removed details)")
        }
        return schema
    }
}
