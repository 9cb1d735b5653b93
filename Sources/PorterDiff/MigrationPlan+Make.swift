import PorterModel

/// Writing plans (`porter plan`).
extension MigrationPlan {
    /// A plan from `old` to `new`: the requested renames, a `convert` for every type change that
    /// has a conversion, the given fills, and every remaining change listed. Destructive changes
    /// are covered (`deleteData`, `deleteOrphans`) only when `allowDataLoss` is set; otherwise the
    /// returned warnings say what is uncovered and how to accept it.
    public static func make(
        from old: Schema, to new: Schema, renames: RenameSet = RenameSet(), fills: [FillArgument] = [],
        allowDataLoss: Bool = false
    ) throws -> (plan: MigrationPlan, warnings: [String]) {
        let diff = try SchemaDiff.compare(old, new, renames: renames)
        var operations: [PlanOperation] = renames.classes.map { .renameClass(from: $0.from, to: $0.to) }
        operations += diff.renames.properties.map { .renameProperty(className: $0.className, from: $0.from, to: $0.to) }
        var fillValues: [String: Value] = [:]
        for fill in fills { fillValues[fill.subject] = try fill.value(in: new) }
        var warnings: [String] = []
        func uncovered(_ change: SchemaChange, _ cover: PlanOperation) {
            if allowDataLoss {
                operations.append(cover)
            } else {
                warnings.append(
                    "\(change.message) Data would be lost and the plan does not cover it: add \(cover.jsonValue(target: new)) before it, or pass --allow-data-loss."
                )
            }
        }
        for change in diff.changes {
            switch change {
            case .changePropertyType(let c, let from, let to) where ValueConversion.isSupported(from: from, to: to):
                operations.append(
                    .convert(
                        PlanConversion(
                            className: c, property: to.name, from: from.typeShorthand, to: to.typeShorthand,
                            rule: ValueConversion.defaultRule(from: from.type, to: to.type))))
                if !to.isOptional, !to.isCollection, from.isOptional, let value = fillValues["\(c).\(to.name)"] {
                    operations.append(.fill(className: c, property: to.name, value: value))
                }
                continue
            case .changePropertyType(let c, _, let to):
                uncovered(change, .deleteData(className: c, property: to.name))
            case .removeProperty(let c, let p):
                uncovered(change, .deleteData(className: c, property: p.name))
            case .removeClass(let c):
                uncovered(change, .deleteData(className: c.name, property: nil))
            case .changeClassType(let c, true):
                uncovered(change, .deleteOrphans(className: c))
            default:
                break
            }
            operations.append(.change(PlanChange(change)))
            switch change {
            case .addProperty(let c, let p), .makeRequired(let c, let p):
                if let value = fillValues["\(c).\(p.name)"] {
                    operations.append(.fill(className: c, property: p.name, value: value))
                }
            default:
                break
            }
        }
        let likely = RenameDetector.detect(old: diff.renamedOld, new: new, changes: diff.changes)
        warnings += likely.map { "Likely rename: \($0.message)" }
        let plan = MigrationPlan(
            fromVersion: old.version, toVersion: new.version, oldSchemaChecksum: old.sha256Checksum,
            targetSchema: new, operations: operations,
            comment: [
                "Made by porter \(PorterDiffInfo.version) from schema version \(old.version) to \(new.version).",
                "Review it: operations run in order; listed changes are checked against the schemas.",
            ])
        return (plan, warnings)
    }
}

/// Facts about this module that plans record.
package enum PorterDiffInfo {
    /// The Porter version written into plan comments.
    package static let version = "0.1.0"
}
