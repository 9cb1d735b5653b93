/// Schema validation: the rules of Realm's documentation and realm-core's `ObjectSchema::validate`,
/// plus Porter's own naming limits. Every problem is collected, so one run lists them all.
extension Schema {
    /// Throws when ``validationErrors()`` finds anything.
    /// - Throws: ``PorterError/Code/invalidSchema`` with message
    ///   `Schema validation failed with N error(s):` and one detail line per error.
    public func validate() throws {
        let errors = validationErrors()
        guard errors.isEmpty else {
            throw PorterError(
                .invalidSchema, "Schema validation failed with \(errors.count) error(s):", details: errors)
        }
    }

    /// Every rule the schema breaks, one line each, starting with `Class.property: ` or `Class: `;
    /// empty when the schema is valid. Classes come in name order, properties in declared order,
    /// and cycles of embedded classes last.
    public func validationErrors() -> [String] {
        var errors: [String] = []
        var seenClasses = Set<String>()
        var classCounts: [String: Int] = [:]
        for objectSchema in classes { classCounts[objectSchema.name, default: 0] += 1 }
        for objectSchema in classes where seenClasses.insert(objectSchema.name).inserted {
            let count = classCounts[objectSchema.name] ?? 0
            if count > 1 {
                errors.append("\(SchemaNames.display(objectSchema.name)): class name is used by \(count) classes")
            }
            errors += classErrors(objectSchema)
        }
        errors += embeddedCycleErrors()
        return errors
    }

    /// Whether `className` names an embedded class of this schema.
    public func isEmbeddedClass(_ className: String) -> Bool { self[className]?.isEmbedded == true }

    private func classErrors(_ objectSchema: ObjectSchema) -> [String] {
        let prefix = SchemaNames.display(objectSchema.name)
        var errors = SchemaNames.problems(className: objectSchema.name).map { "\(prefix): \($0)" }
        if let primaryKey = objectSchema.primaryKey {
            if objectSchema.isEmbedded { errors.append("\(prefix): embedded class cannot have a primary key") }
            if let property = objectSchema.property(named: primaryKey) {
                let keyTypes: Set<PropertyType> = [.int, .string, .objectId, .uuid]
                if !keyTypes.contains(property.type) || property.isCollection {
                    errors.append(
                        "\(prefix).\(SchemaNames.display(primaryKey)): property of type '\(property.messageTypeName)' cannot be made the primary key"
                    )
                }
            } else {
                errors.append("\(prefix): primary key property '\(SchemaNames.display(primaryKey))' does not exist")
            }
        }
        var nameCounts: [String: Int] = [:]
        for property in objectSchema.properties { nameCounts[property.name, default: 0] += 1 }
        var reportedDuplicates = Set<String>()
        for property in objectSchema.properties {
            let propertyPrefix = "\(prefix).\(SchemaNames.display(property.name))"
            var propertyErrors: [String] = []
            let count = nameCounts[property.name] ?? 0
            if count > 1, reportedDuplicates.insert(property.name).inserted {
                propertyErrors.append("property name is declared \(count) times")
            }
            propertyErrors += SchemaNames.problems(propertyName: property.name)
            propertyErrors += typeErrors(property, in: objectSchema)
            propertyErrors += indexAndDefaultErrors(property)
            errors += propertyErrors.map { "\(propertyPrefix): \($0)" }
        }
        return errors
    }

    /// Link targets, optionality and `linkingObjects` origins.
    private func typeErrors(_ property: Property, in objectSchema: ObjectSchema) -> [String] {
        var errors: [String] = []
        let typeName = property.messageTypeName
        if property.type != .object && property.type != .linkingObjects {
            if let objectType = property.objectType {
                errors.append(
                    "property of type '\(typeName)' cannot have an object type ('\(SchemaNames.display(objectType))')")
            }
            if property.type == .mixed && !property.isOptional {
                errors.append("property of type '\(typeName)' must be optional")
            }
        }
        if property.type != .linkingObjects, property.linkOriginProperty != nil {
            errors.append("only linkingObjects properties can name an origin property")
        }
        switch property.type {
        case .object:
            guard let target = property.objectType, !target.isEmpty else {
                errors.append("property of type '\(typeName)' must name an object type")
                break
            }
            guard let targetSchema = self[target] else {
                errors.append("unknown object type '\(SchemaNames.display(target))'")
                break
            }
            switch property.collection {
            case .none, .map:
                if !property.isOptional { errors.append("property of type '\(typeName)' must be optional") }
            case .list, .set:
                if property.isOptional { errors.append("property of type '\(typeName)' cannot be optional") }
            }
            if property.collection == .set && targetSchema.isEmbedded {
                errors.append("property of type '\(typeName)' cannot hold embedded objects")
            }
        case .linkingObjects:
            if property.isCollection {
                errors.append(
                    "property of type 'linkingObjects' cannot be declared as a \(property.collection.rawValue)")
            }
            if property.isOptional { errors.append("property of type 'linkingObjects' cannot be optional") }
            errors += linkingObjectsErrors(property, in: objectSchema)
        default:
            break
        }
        return errors
    }

    private func linkingObjectsErrors(_ property: Property, in objectSchema: ObjectSchema) -> [String] {
        guard let originClass = property.objectType, !originClass.isEmpty else {
            return ["property of type 'linkingObjects' must name an origin class (\"objectType\")"]
        }
        guard let origin = self[originClass] else {
            return ["unknown object type '\(SchemaNames.display(originClass))'"]
        }
        guard let originName = property.linkOriginProperty, !originName.isEmpty else {
            return ["property of type 'linkingObjects' must name an origin property (\"property\")"]
        }
        let originPath = "\(SchemaNames.display(originClass)).\(SchemaNames.display(originName))"
        guard let originProperty = origin.property(named: originName) else {
            return ["origin property '\(originPath)' does not exist"]
        }
        guard originProperty.type == .object else {
            return ["origin property '\(originPath)' is not a link"]
        }
        guard originProperty.objectType == objectSchema.name else {
            return [
                "origin property '\(originPath)' links to '\(SchemaNames.display(originProperty.objectType ?? ""))', not '\(SchemaNames.display(objectSchema.name))'"
            ]
        }
        return []
    }

    private func indexAndDefaultErrors(_ property: Property) -> [String] {
        var errors: [String] = []
        let typeName = property.messageTypeName
        if property.isIndexed {
            let indexable: Set<PropertyType> = [.bool, .int, .string, .date, .objectId, .uuid, .mixed]
            let ok =
                property.collection == .none
                ? indexable.contains(property.type)
                : (property.collection == .list && property.type == .string)
            if !ok { errors.append("property of type '\(typeName)' cannot be indexed") }
        }
        if let value = property.defaultValue {
            if property.type == .object || property.type == .linkingObjects {
                errors.append("property of type '\(typeName)' cannot have a default value")
            } else if !property.accepts(defaultValue: value) {
                let json = DefaultValueJSON.naturalJSON(value).serialized(pretty: false)
                errors.append("default value \(json) does not match type '\(property.typeShorthand)'")
            }
        }
        return errors
    }
}
