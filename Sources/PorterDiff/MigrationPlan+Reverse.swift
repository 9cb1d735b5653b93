import PorterModel

/// The inverse of a migration plan: from its target schema back to the schema it was made from.
extension MigrationPlan {
    /// Base-type conversions whose exact forward conversion the reverse conversion undoes value for
    /// value (every value the forward conversion produced converts back to the original).
    public static let invertibleConversions: Set<String> = [
        "int->string", "int->decimal128", "int->double", "int->float", "bool->int", "bool->string",
        "float->double", "float->string", "double->string", "objectId->string", "uuid->string", "decimal128->string",
    ]

    /// The plan that undoes this one: renames back, added properties and classes removed,
    /// conversions back where exact both ways, embedded classes back to top level, from
    /// `targetSchema` to `old` (the schema this plan was made from; checked by its checksum).
    ///
    /// Returns the plan and what cannot be inverted (data the forward plan removed, lossy
    /// conversions, shapes with no way back): one line per operation. Those are covered
    /// (`deleteData`, defaults or the given fills) only with `allowDataLoss`; a removed property
    /// with a fill among `fills` is invertible (the fill stands for the lost values).
    /// - Throws: ``PorterError/Code/usage`` when `old` is not the plan's source schema.
    public func reversed(
        to old: Schema, fills: [FillArgument] = [],
        allowDataLoss: Bool = false
    ) throws -> (plan: MigrationPlan, nonInvertible: [String]) {
        guard old.sha256Checksum == oldSchemaChecksum else {
            throw PorterError(
                .usage,
                "the schema given is not the one the plan was made from (version \(old.version), "
                    + "checksum \(old.sha256Checksum); the plan's is \(oldSchemaChecksum))")
        }
        // Forward class renames (old → new), to name classes as the reverse plan's target (v1) does.
        var oldNameOf: [String: String] = [:]
        var inverse = RenameSet()
        for operation in operations {
            if case .renameClass(let from, let to) = operation { oldNameOf[to] = from }
        }
        for operation in operations.reversed() {
            switch operation {
            case .renameClass(let from, let to):
                inverse.classes.append(ClassRename(from: to, to: from))
            case .renameProperty(let c, let from, let to):
                inverse.properties.append(PropertyRename(className: oldNameOf[c] ?? c, from: to, to: from))
            default:
                break
            }
        }
        var nonInvertible: [String] = []
        var addedForward = Set<String>()
        let filled = Set(fills.map(\.subject))
        for operation in operations {
            switch operation {
            case .deleteData(let c, let p?):
                let subject = "\(oldNameOf[c] ?? c).\(p)"
                if !filled.contains(subject) {
                    nonInvertible.append(
                        "\(subject): the forward plan deleted its values (deleteData); going back "
                            + "needs a --fill \(subject)=VALUE or --allow-data-loss")
                }
            case .deleteData(let c, nil):
                nonInvertible.append(
                    "\(oldNameOf[c] ?? c): the forward plan deleted its objects (deleteData); going back "
                        + "restores the class empty: pass --allow-data-loss")
            case .deleteOrphans(let c):
                nonInvertible.append(
                    "\(oldNameOf[c] ?? c): the forward plan deleted its objects without a parent "
                        + "(deleteOrphans); they cannot come back: pass --allow-data-loss")
            case .convert(let conversion):
                if let lossy = Self.lossyConversion(conversion, old: old, target: targetSchema, oldNameOf: oldNameOf) {
                    nonInvertible.append(lossy)
                }
            case .change(let change) where change.operation == "addProperty":
                if let p = change.propertyName { addedForward.insert("\(change.className).\(p)") }
            case .change(let change) where change.operation == "addClass":
                addedForward.insert(change.className)
            default:
                break
            }
        }
        let made = try MigrationPlan.make(
            from: targetSchema, to: old, renames: inverse, fills: fills, allowDataLoss: true)
        var operations: [PlanOperation] = []
        for operation in made.plan.operations {
            switch operation {
            case .deleteData(let c, let p):
                // Removing what the forward plan added is its inverse; anything else is loss.
                let subject = p.map { "\(c).\($0)" } ?? c
                if !addedForward.contains(subject) && !nonInvertible.contains(where: { $0.hasPrefix(subject + ":") }) {
                    nonInvertible.append(
                        "\(subject): has no way back to \(old[c]?.property(named: p ?? "")?.typeShorthand ?? "the old schema") "
                            + "(no conversion): pass --allow-data-loss to delete its values")
                }
                if addedForward.contains(subject) || allowDataLoss { operations.append(operation) }
            default:
                operations.append(operation)
            }
        }
        var plan = made.plan
        plan.operations = operations
        plan.comment =
            ["The inverse of the plan from schema version \(fromVersion) to \(toVersion) (\(checksum))."]
            + nonInvertible.map { "Not invertible: \($0)" }
        return (plan, nonInvertible)
    }

    /// Why a forward conversion cannot be undone value for value, or nil when it can.
    private static func lossyConversion(
        _ conversion: PlanConversion, old: Schema, target: Schema,
        oldNameOf: [String: String]
    ) -> String? {
        let subject = conversion.subject
        guard let to = target[conversion.className]?.property(named: conversion.property) else { return nil }
        let from =
            conversion.from.flatMap { try? Property(name: conversion.property, typeShorthand: $0) }
            ?? old[oldNameOf[conversion.className] ?? conversion.className]?.property(named: conversion.property)
        guard let from else { return "\(subject): the forward conversion's source type is unknown" }
        let rule = conversion.rule ?? ValueConversion.defaultRule(from: from.type, to: to.type)
        let pair = "\(from.type.rawValue)->\(to.type.rawValue)"
        let sameShape = from.collection == to.collection
        if from.type == to.type && sameShape { return nil }
        if rule == .exact && sameShape && (to.type == .mixed || invertibleConversions.contains(pair)) { return nil }
        return
            "\(oldNameOf[conversion.className] ?? conversion.className).\(conversion.property): the forward conversion "
            + "\(from.typeShorthand) -> \(to.typeShorthand) (\(rule.rawValue)) is not exact both ways: going back may "
            + "change values; pass --allow-data-loss to accept"
    }
}
