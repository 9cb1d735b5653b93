import PorterModel

/// Checking a plan against the schema it is applied to, operation by operation.
extension MigrationPlan {
    /// The executable step of this plan for a file whose schema is `current`.
    ///
    /// Checks, in order: the checksum (the plan was made for exactly this schema), the renames
    /// (realm-core's rules), and each operation against the re-computed difference between the
    /// renamed schema and the target. Every listed change must be a real change, and every real
    /// change must be listed (or, for a type change, converted).
    /// - Throws: ``PorterError/Code/invalidInput`` located at `operations[i]`, or
    ///   ``PorterError/Code/migrationFailed`` for a checksum mismatch.
    public func step(from current: Schema) throws -> MigrationStep {
        guard current.sha256Checksum == oldSchemaChecksum else {
            throw PorterError(
                .migrationFailed,
                "the plan was made for another schema (version \(fromVersion), checksum \(oldSchemaChecksum)); the database has version \(current.version), checksum \(current.sha256Checksum)",
                details: ["make a new plan with 'porter plan DB NEW.json'"])
        }
        var renamed = current
        var pendingRenames: [(index: Int, rename: PropertyRename)] = []
        for (index, operation) in operations.enumerated() {
            do {
                switch operation {
                case .renameClass(let from, let to):
                    try SchemaDiff.renameClass(ClassRename(from: from, to: to), in: &renamed, target: targetSchema)
                case .renameProperty(let c, let from, let to):
                    let rename = PropertyRename(className: renames.newClassName(c), from: from, to: to)
                    try SchemaDiff.renameProperty(rename, in: &renamed, target: targetSchema)
                    pendingRenames.removeAll { $0.rename.className == rename.className && $0.rename.to == from }
                    pendingRenames.append((index, rename))
                default: break
                }
            } catch let error as PorterError {
                throw failure(error.message, at: index)
            }
        }
        for (index, rename) in pendingRenames where targetSchema[rename.className]?.property(named: rename.to) == nil {
            throw failure("Renamed property '\(rename.className).\(rename.to)' does not exist.", at: index)
        }
        let changes = SchemaDiff.compare(renamed, targetSchema)
        var step = MigrationStep(
            oldSchema: current, targetSchema: targetSchema, renames: renames.normalized, renamedOld: renamed,
            changes: changes, planChecksum: checksum)
        var listed = Array(repeating: false, count: changes.count)
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .renameClass, .renameProperty:
                continue
            case .convert(let conversion):
                guard
                    let position = changes.firstIndex(where: {
                        if case .changePropertyType(let c, _, let p) = $0 {
                            return c == conversion.className && p.name == conversion.property
                        }
                        return false
                    }), case .changePropertyType(_, let from, let to) = changes[position]
                else {
                    throw failure("the schemas do not change the type of '\(conversion.subject)'", at: index)
                }
                if conversion.to != to.typeShorthand {
                    throw failure(
                        "'to' is '\(conversion.to)' but the target schema has '\(conversion.subject)' as '\(to.typeShorthand)'",
                        at: index)
                }
                if let fromText = conversion.from, fromText != from.typeShorthand {
                    throw failure(
                        "'from' is '\(fromText)' but the old schema has '\(conversion.subject)' as '\(from.typeShorthand)'",
                        at: index)
                }
                guard ValueConversion.isSupported(from: from, to: to) else {
                    throw failure(
                        "no conversion from '\(from.typeShorthand)' to '\(to.typeShorthand)'; use deleteData for '\(conversion.subject)' to reset its values instead",
                        at: index)
                }
                step.conversions[conversion.subject] = ResolvedConversion(
                    className: conversion.className, from: from, to: to,
                    rule: conversion.rule ?? ValueConversion.defaultRule(from: from.type, to: to.type))
                listed[position] = true
            case .fill(let c, let p, let value):
                guard targetSchema[c]?.property(named: p) != nil else {
                    throw failure("property '\(c).\(p)' is not in the target schema", at: index)
                }
                step.fills["\(c).\(p)"] = value
            case .deleteData(let c, let p):
                guard let cls = renamed[c] else { throw failure("class '\(c)' is not in the old schema", at: index) }
                if let p {
                    guard cls.property(named: p)?.isComputed == false else {
                        throw failure("property '\(c).\(p)' is not a stored property of the old schema", at: index)
                    }
                    step.deletedProperties.insert("\(c).\(p)")
                } else if !step.deletedClasses.contains(c) {
                    step.deletedClasses.append(c)
                }
            case .deleteOrphans(let c):
                guard changes.contains(.changeClassType(className: c, toEmbedded: true)) else {
                    throw failure("class '\(c)' does not become embedded", at: index)
                }
                step.orphanDeletion.insert(c)
            case .change(let listedChange):
                guard let position = changes.indices.first(where: { !listed[$0] && listedChange.matches(changes[$0]) })
                else {
                    throw failure(
                        "\(listedChange.operation) '\(listedChange.subject)' is not a change between the schemas (was the plan edited?)",
                        at: index)
                }
                listed[position] = true
            }
        }
        let unlisted = changes.indices.filter { !listed[$0] }.map { changes[$0].message }
        if !unlisted.isEmpty {
            throw PorterError(
                .invalidInput,
                "the plan does not list \(unlisted.count) change(s) between its schemas (was the target schema edited?)",
                location: "operations", details: unlisted)
        }
        return step
    }

    private func failure(_ message: String, at index: Int) -> PorterError {
        let name = operations.indices.contains(index) ? " (\(operations[index].name))" : ""
        return PorterError(.invalidInput, message, location: "operations[\(index)]\(name)")
    }
}
