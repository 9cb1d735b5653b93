import PorterModel

/// Data-aware diagnostics: what the old database's data says about each change.
extension DiffReport {
    /// How many examples diagnostics keep.
    public static let sampleLimit = 5

    /// Fills ``DiffEntry/diagnostics`` from the old database (read through `inspector`, which sees
    /// old names: renames are mapped back).
    package mutating func addDiagnostics(from inspector: some SchemaDataInspector) throws {
        for index in entries.indices {
            entries[index].diagnostics = try diagnostics(for: entries[index].change, inspector)
        }
        hasDiagnostics = true
    }

    private func diagnostics(for change: SchemaChange, _ inspector: some SchemaDataInspector) throws
        -> ChangeDiagnostics?
    {
        var d = ChangeDiagnostics()
        let limit = DiffReport.sampleLimit
        let oldClass = oldClassName(change.className)
        guard oldSchema[oldClass] != nil else { return nil }
        d.objectCount = try inspector.objectCount(oldClass)
        switch change {
        case .removeClass:
            d.valuesLost = d.objectCount
        case .removeProperty(let c, let p):
            d.valuesLost = try inspector.valueCounts(oldClass, oldProperty(c, p)).nonNull
        case .changePropertyType(let c, let from, let to):
            let source = oldProperty(c, from)
            let counts = try inspector.valueCounts(oldClass, source)
            if ValueConversion.isSupported(from: from, to: to) {
                let rule = ValueConversion.defaultRule(from: from.type, to: to.type)
                d.conversion = "\(from.typeShorthand) -> \(to.typeShorthand) (\(rule.rawValue))"
                d.unconvertible =
                    ValueConversion.isTotal(from.type, to.type)
                    ? SampledCount(count: 0)
                    : try inspector.unconvertibleValues(oldClass, source, to: to, rule: rule, sampleLimit: limit)
                d.valuesLost = 0
                if !to.isOptional && !to.isCollection && from.isOptional { d.nullsBlockingRequired = counts.null }
            } else {
                d.valuesLost = counts.nonNull
            }
        case .makeRequired(let c, let p):
            d.nullsBlockingRequired = try inspector.valueCounts(oldClass, oldProperty(c, p)).null
        case .changePrimaryKey(let c, _, let new?):
            if let property = renamedOld[c]?.property(named: new) {
                d.duplicates = try inspector.duplicateValues(oldClass, oldProperty(c, property), sampleLimit: limit)
            } else if let count = d.objectCount, count > 1 {
                // A new property holds its default in every existing object.
                d.duplicates = SampledCount(count: 1, sample: ["the default value (\(count) objects)"])
            }
        case .changeClassType(let c, true):
            let counts = try inspector.embeddingCounts(oldClass, sources: linkSources(to: c), sampleLimit: limit)
            d.orphans = counts.orphans
            d.multiplyLinked = counts.multiplyLinked
            d.mixedLinks = counts.mixedLinks
        default:
            break
        }
        return d
    }

    /// Old-schema properties that will still link to `className` (new name) after the migration,
    /// plus every surviving `mixed` property.
    func linkSources(to className: String) -> [LinkSource] {
        var sources: [LinkSource] = []
        for cls in newSchema.classes {
            guard let renamedClass = renamedOld[cls.name] else { continue }
            for property in cls.persistedProperties {
                guard let current = renamedClass.property(named: property.name), !current.isComputed else { continue }
                let links =
                    current.type == .object && current.objectType == className && property.type == .object
                    && property.objectType == className
                if links || (current.type == .mixed && property.type == .mixed) {
                    sources.append(
                        LinkSource(className: oldClassName(cls.name), property: oldProperty(cls.name, current)))
                }
            }
        }
        return sources
    }

    /// The old name of a class given its new name.
    func oldClassName(_ newName: String) -> String {
        renames.classes.first { $0.to == newName }?.from ?? newName
    }

    /// `property` (named as in the renamed schema) with its old name, following chained renames back.
    func oldProperty(_ className: String, _ property: Property) -> Property {
        var name = property.name
        for rename in renames.properties.reversed() where rename.className == className && rename.to == name {
            name = rename.from
        }
        var old = property
        old.name = name
        if let target = old.objectType { old.objectType = oldClassName(target) }
        return old
    }
}
