import Foundation

extension Schema {
    /// The schema of Swift model classes, derived from their `@Persisted` properties by
    /// reflection, as Realm derives it: one class per model class (a subclass is a class of its
    /// own with its superclass's properties first), properties in declared order, link targets
    /// named by class name, and initial values that are the same for every new instance as defaults.
    ///
    /// ```swift
    /// let schema = try Schema(version: 3, objectTypes: [Dog.self, Person.self, Address.self])
    /// ```
    ///
    /// - Throws: `PorterError/Code/invalidSchema` (`Schema validation failed with N error(s):`)
    ///   with one detail line per problem, each starting with `Class.property: `: unsupported types,
    ///   non-optional to-one links, more than one primary key, a primary key on an embedded
    ///   object, `LinkingObjects` without an origin, and every rule of `validate()`.
    public init(version: UInt64 = 0, objectTypes: [ObjectBase.Type]) throws {
        var classes: [ObjectSchema] = []
        var errors: [String] = []
        var typesByName: [String: ObjectBase.Type] = [:]
        var seen = Set<ObjectIdentifier>()
        for type in objectTypes where seen.insert(ObjectIdentifier(type)).inserted {
            let name = type.className()
            if let other = typesByName[name] {
                errors.append(
                    "\(name): the class name is used by two model classes (\(other) and \(type)); rename one with _realmObjectName()"
                )
                continue
            }
            typesByName[name] = type
            guard type is Object.Type || type is EmbeddedObject.Type else {
                errors.append("\(name): model classes must subclass Object or EmbeddedObject")
                continue
            }
            let derived = ModelReflection.cachedObjectSchema(of: type)
            classes.append(derived.schema)
            errors += derived.errors
        }
        let schema = Schema(version: version, classes: classes)
        errors += schema.validationErrors()
        guard errors.isEmpty else {
            throw PorterError(
                .invalidSchema, "Schema validation failed with \(errors.count) error(s):", details: errors)
        }
        self = schema
    }
}

/// Reads a model class's schema from two fresh instances.
enum ModelReflection {
    /// The class's schema and the problems only the Swift declaration can show (the rest is left
    /// to schema validation, so each problem is reported once).
    static func objectSchema(of type: ObjectBase.Type) -> (schema: ObjectSchema, errors: [String]) {
        let className = type.className()
        let isEmbedded = type is EmbeddedObject.Type
        let first = type.init(_porterMake: ())._persistedProperties()
        waitForClockTick()
        // A second instance tells stable initial values (`= 3`) from per-instance ones (`= Date()`).
        let second = type.init(_porterMake: ())._persistedProperties()
        var properties: [Property] = []
        var primaryKey: String?
        var errors: [String] = []
        let ignored = Set(type.ignoredProperties())
        let indexed = Set(type.indexedProperties())
        for (index, entry) in first.enumerated() where !ignored.contains(entry.name) {
            let location = "\(className).\(entry.name)"
            let wrapper = entry.property
            let info = wrapper.typeInfo
            if let reason = info.unsupportedReason {
                errors.append("\(location): type '\(wrapper.swiftTypeName)' is not supported: \(reason)")
                continue
            }
            if info.type == .linkingObjects && wrapper.options.originProperty == nil {
                errors.append(
                    "\(location): LinkingObjects must name the property that links here: @Persisted(originProperty: \"…\")"
                )
                continue
            }
            var property = Property(
                name: entry.name, type: info.type, objectType: info.objectClass?.className(),
                optional: info.isOptional, collection: info.collection,
                indexed: wrapper.options.isIndexed || indexed.contains(entry.name),
                linkOriginProperty: wrapper.options.originProperty)
            let initial = wrapper.initialStoredValue()
            if let initial, index < second.count, second[index].property.initialStoredValue() == initial {
                property.defaultValue = initial
            }
            if info.type == .object && info.collection == .none && !info.isOptional {
                errors.append("\(location): a to-one link must be optional: declare it as '\(wrapper.swiftTypeName)?'")
                property.isOptional = true
            }
            if wrapper.options.isPrimaryKey {
                if isEmbedded {
                    errors.append("\(location): embedded objects cannot have a primary key")
                } else if let existing = primaryKey {
                    errors.append(
                        "\(location): the class already has the primary key '\(existing)'; only one property can be the primary key"
                    )
                } else {
                    primaryKey = entry.name
                }
            }
            properties.append(property)
        }
        // Realm's `primaryKey()` override names the key of a model that declares none with `@Persisted`.
        if primaryKey == nil, let named = type.primaryKey() {
            if properties.contains(where: { $0.name == named }) {
                primaryKey = named
            } else {
                errors.append("\(className): primaryKey() names '\(named)', which is not a @Persisted property")
            }
        }
        return (
            ObjectSchema(name: className, properties: properties, primaryKey: primaryKey, embedded: isEmbedded), errors
        )
    }

    /// Waits until the clock has moved on (by one step of a `Date` read as a stored date), so two instances made on either side never share a `Date()` initial value.
    private static func waitForClockTick() {
        let start = Timestamp(Date())
        while Timestamp(Date()) == start {}
    }
}
