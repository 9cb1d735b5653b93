import Foundation
import PorterDiff
import PorterModel
import PorterStore

/// The post-migration pass and the data-loss guard of a step.
extension StepRunner {
    /// The schema the database has while the migration block runs: the target with every primary
    /// key unset, as realm-swift does, so the block may assign key values freely (uniqueness is
    /// checked after the block), and with classes that become embedded still top-level, since
    /// realm-core converts them only after the block (so objects may still be shared or created).
    var blockSchema: Schema {
        var schema = step.targetSchema
        let becomingEmbedded = Set(
            step.changes.compactMap { change -> String? in
                if case .changeClassType(let c, true) = change { return c } else { return nil }
            })
        for var cls in schema.classes where cls.primaryKey != nil || becomingEmbedded.contains(cls.name) {
            cls.primaryKey = nil
            if becomingEmbedded.contains(cls.name) { cls.isEmbedded = false }
            schema.upsert(cls)
        }
        return schema
    }

    /// Everything after the migration block.
    func postPass() throws {
        try db.replaceStoredSchema(step.targetSchema)
        for cls in step.renamedOld.classes where step.targetSchema[cls.name] == nil && physical[cls.name] != nil {
            guard try storage.hasTable(cls.name) else { continue }
            let count = try db.objectCount(cls.name)
            if count > 0 && !options.allowDataLoss && !step.deletedClasses.contains(cls.name) {
                throw PorterError(
                    .migrationFailed,
                    "Class '\(cls.name)' has been removed from the schema but still holds \(count) object\(count == 1 ? "" : "s"). Porter never deletes a class's data silently.",
                    details: [
                        "call migration.deleteData(forType: \"\(cls.name)\") in the migration block, add {\"op\": \"deleteData\", \"class\": \"\(cls.name)\"} to the plan, or pass --allow-data-loss"
                    ])
            }
            try dropRemovedClass(cls.name)
            if count > 0 { summary.deletedObjects[cls.name, default: 0] += count }
        }
        for cls in step.targetSchema.classes where try storage.hasTable(cls.name) {
            try dropLeftovers(cls)
        }
        try restorePrimaryKeysAndIndexes()
        for change in step.changes {
            guard case .changeClassType(let c, true) = change, try storage.hasTable(c) else { continue }
            let sources = StepRunner.linkSources(to: c, in: step.targetSchema)
            let outcome = try storage.makeEmbedded(
                c, sources: sources,
                deleteOrphans: hasBlock || options.allowDataLoss || step.orphanDeletion.contains(c)
                    || step.deletedClasses.contains(c))
            if outcome.orphansDeleted > 0 { summary.orphansDeleted[c] = outcome.orphansDeleted }
            if outcome.copiesMade > 0 { summary.copiesMade[c] = outcome.copiesMade }
        }
    }

    /// Drops the storage of properties the target lacks (removed ones, kept so far for the block).
    private func dropLeftovers(_ cls: ObjectSchema) throws {
        let wanted = Dictionary(uniqueKeysWithValues: cls.persistedProperties.map { ($0.name, $0) })
        var leftovers: [(String, Bool)] = try storage.columns(cls.name).filter {
            wanted[$0] == nil || wanted[$0]?.isCollection == true
        }.map { ($0, false) }
        leftovers += try storage.collectionProperties(cls.name).filter { wanted[$0]?.isCollection != true }.map {
            ($0, true)
        }
        for (name, isCollection) in leftovers {
            if blockRenamed.contains(key(cls.name, name)) {
                throw PorterError(.migrationFailed, "Renamed property '\(cls.name).\(name)' does not exist.")
            }
            if let property = physical[cls.name]?[name], property.isCollection == isCollection {
                let values = try db.valueCounts(cls.name, property).nonNull
                if values > 0 { summary.discardedProperties.append(key(cls.name, name)) }
                try deleteOwnedEmbedded(cls.name, property)
            }
            try storage.dropProperty(cls.name, name, collection: isCollection)
            physical[cls.name]?[name] = nil
        }
    }

    /// Makes the indexes of touched classes that are missing. A missing unique primary-key index
    /// is made only after a duplicate check that names the duplicates (realm-core's message).
    private func restorePrimaryKeysAndIndexes() throws {
        for cls in step.targetSchema.classes where touchedNew.contains(cls.name) || (hasBlock && cls.primaryKey != nil)
        {
            if let pk = cls.primaryKeyProperty, try !storage.hasPrimaryKeyIndex(cls.name) {
                let duplicates = try db.duplicateValues(cls.name, pk, sampleLimit: MigrationStorage.sampleLimit)
                if duplicates.count > 0 {
                    // realm-core's sentence first (Realm code matches on it), then the values on the same line.
                    let more = duplicates.count > duplicates.sample.count ? ", …" : ""
                    throw PorterError(
                        .migrationFailed,
                        "Primary key property '\(cls.name).\(pk.name)' has duplicate values after migration. "
                            + "\(duplicates.count) duplicate value\(duplicates.count == 1 ? "" : "s"): \(duplicates.sample.joined(separator: ", "))\(more)"
                    )
                }
            }
            try storage.createIndexes(cls, collections: touchedNew.contains(cls.name))
        }
    }

    /// The target's link properties to `className`, and every `mixed` property (which may link anywhere).
    static func linkSources(to className: String, in schema: Schema) -> [LinkSource] {
        schema.classes.flatMap { cls in
            cls.persistedProperties.filter { ($0.type == .object && $0.objectType == className) || $0.type == .mixed }
                .map { LinkSource(className: cls.name, property: $0) }
        }
    }

    // MARK: - Data-loss guard

    /// Refuses, before anything is written, destructive changes that nothing covers and that
    /// would lose data on this file, listing each with its counts (unless data loss is allowed),
    /// together with nulls of properties made required that have no fill (which would fail the
    /// checks later). Duplicate primary keys and mixed links fail later with realm-core's messages.
    /// With a migration block this is the block's business (realm-core semantics); removed
    /// classes are still checked after it.
    func refuseUncoveredDataLoss() throws {
        if hasBlock { return }
        let uncovered = options.allowDataLoss ? [] : step.uncoveredDestructiveChanges
        var report = try DiffReport(old: step.oldSchema, new: step.targetSchema, renames: step.renames)
        report.entries = report.entries.filter { entry in
            switch entry.change {
            case .makeRequired(let c, let p): return step.fills[key(c, p.name)] == nil
            default: return uncovered.contains(entry.change)
            }
        }
        guard !report.entries.isEmpty else { return }
        try report.addDiagnostics(from: db)
        var losing: [String] = [], blocked: [String] = []
        for entry in report.entries {
            guard let d = entry.diagnostics else { continue }
            let line = ([entry.change.message] + DiffReport.describe(d, entry.change)).joined(separator: " ")
            if uncovered.contains(entry.change) && d.losesData {
                losing.append(line)
            } else if (d.nullsBlockingRequired ?? 0) > 0 {
                blocked.append(line)
            }
        }
        guard !losing.isEmpty || !blocked.isEmpty else { return }
        var hints: [String] = []
        if !losing.isEmpty {
            hints.append(
                "cover data loss with deleteData/deleteOrphans operations in a plan, --rename/--rename-class, or pass --allow-data-loss"
            )
        }
        if blocked.contains(where: { $0.contains("need a fill value") }) {
            hints.append("give nulls a value with --fill Class.property=VALUE or a fill operation")
        }
        let headline =
            losing.isEmpty
            ? "The data blocks this migration (\(blocked.count) problem\(blocked.count == 1 ? "" : "s")). Nothing was changed."
            : "Refusing to lose data: \(losing.count) destructive change\(losing.count == 1 ? "" : "s") not covered by a plan, rename, conversion or --allow-data-loss. Nothing was changed."
        throw PorterError(.migrationFailed, headline, details: losing + blocked + hints)
    }
}
