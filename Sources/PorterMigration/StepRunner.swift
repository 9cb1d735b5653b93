import Foundation
import PorterDiff
import PorterModel
import PorterStore

/// Runs one ``MigrationStep`` inside the open write transaction, in realm-core's two passes:
/// the pre-migration pass (renames, deletions, new classes and properties, conversions, fills)
/// before the migration block, and the post-migration pass (removed classes and properties go,
/// primary keys and indexes come back, classes become embedded) after it.
///
/// While it runs, the tables are physically neither schema: removed properties stay until the
/// post pass so the block can still rename them. ``storage`` tracks what each physical column
/// and collection table holds.
final class StepRunner {
    let db: Database
    let storage: MigrationStorage
    let step: MigrationStep
    let options: MigrationOptions
    /// Whether the migration block runs in this step (it then decides what happens to data).
    let hasBlock: Bool
    var summary: MigrationStepSummary
    /// What each physical column or collection table of a class currently holds, by name.
    var physical: [String: [String: Property]] = [:]
    /// Names (`Class.name`) a migration-block rename gave a property that the target may lack.
    var blockRenamed: Set<String> = []
    /// Classes whose data was deleted (plan or block).
    var deletedClasses: Set<String> = []
    /// Classes whose tables or indexes change (new names): their missing indexes are made afterwards.
    private(set) var touchedNew: Set<String> = []

    init(db: Database, step: MigrationStep, options: MigrationOptions, hasBlock: Bool) {
        self.db = db
        self.storage = MigrationStorage(db)
        self.step = step
        self.options = options
        self.hasBlock = hasBlock
        self.summary = MigrationStepSummary(
            fromVersion: step.fromVersion, toVersion: step.toVersion, planChecksum: step.planChecksum)
        summary.changes = step.changes.map(\.message)
        computeTouched()
    }

    /// Marks a class whose indexes must be rebuilt in the post pass (after a rename in the block).
    func markTouched(_ className: String) { touchedNew.insert(className) }

    /// `Class.property`.
    func key(_ className: String, _ property: String) -> String { "\(className).\(property)" }

    private func computeTouched() {
        var touched = Set(step.changes.map(\.className))
        touched.formUnion(step.renames.properties.map(\.className))
        touched.formUnion(step.deletedClasses)
        touched.formUnion(step.conversions.values.map(\.className))
        touched.formUnion(step.fills.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        touched.formUnion(step.renames.classes.map(\.to))
        touchedNew = touched
    }

    // MARK: - Pre-migration pass

    /// Everything before the migration block.
    func prePass() throws {
        try dropStaleIndexes()
        try applyRenames()
        try db.replaceStoredSchema(step.renamedOld)
        for cls in step.renamedOld.classes {
            physical[cls.name] = Dictionary(uniqueKeysWithValues: cls.persistedProperties.map { ($0.name, $0) })
        }
        for className in step.deletedClasses {
            try deleteClassData(className, dropTable: step.targetSchema[className] == nil)
        }
        for change in step.changes { try applyPre(change) }
        for (subject, value) in step.fills {
            let parts = subject.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let property = step.targetSchema[parts[0]]?.property(named: parts[1]),
                physical[parts[0]]?[parts[1]] != nil
            else { continue }
            let filled = try storage.fillNulls(parts[0], property, with: value)
            if filled > 0 { summary.fills[subject, default: 0] += filled }
        }
    }

    /// Drops the indexes the step invalidates; the post pass makes every missing one. Index names
    /// carry class and property names, so renamed classes lose all of theirs; a primary key that
    /// changes, is converted, or (with a block, as Realm unsets keys during migrations) may hold
    /// duplicates for a while loses its unique index, re-made after a duplicate check.
    private func dropStaleIndexes() throws {
        let classRenames = step.renames.classes
        let oldName = { (name: String) in classRenames.first { $0.to == name }?.from ?? name }
        for rename in step.renames.classes where try storage.hasTable(rename.from) {
            try storage.dropIndexes(rename.from)
        }
        for change in step.changes {
            let className = oldName(change.className)
            guard try storage.hasTable(className) else { continue }
            switch change {
            case .removeIndex(_, let p):
                try storage.dropPropertyIndexes(className, p.name)
            case .changePrimaryKey:
                try storage.dropPrimaryKeyIndex(className)
            case .changePropertyType(_, let p, _) where step.renamedOld[change.className]?.primaryKey == p.name:
                try storage.dropPrimaryKeyIndex(className)
            default:
                break
            }
        }
        if hasBlock {
            for cls in step.oldSchema.classes where try cls.primaryKey != nil && storage.hasTable(cls.name) {
                try storage.dropPrimaryKeyIndex(cls.name)
            }
        }
    }

    private func applyRenames() throws {
        var current = step.oldSchema
        for rename in step.renames.classes {
            let mixed = current.classes.flatMap { cls in
                cls.persistedProperties.filter { $0.type == .mixed }.map {
                    LinkSource(className: cls.name, property: $0)
                }
            }
            try storage.renameClass(from: rename.from, to: rename.to, mixedSources: mixed)
            current = try SchemaDiff.applyRenames(RenameSet(classes: [rename]), to: current, target: step.targetSchema)
            summary.renames.append("class \(rename.from) -> \(rename.to)")
        }
        for rename in step.renames.properties {
            guard let property = current[rename.className]?.property(named: rename.from) else { continue }
            try storage.renameProperty(
                rename.className, from: rename.from, to: rename.to, collection: property.isCollection)
            current = try SchemaDiff.applyRenames(
                RenameSet(properties: [rename]), to: current, target: step.targetSchema)
            summary.renames.append("\(rename.className).\(rename.from) -> \(rename.to)")
        }
    }

    private func applyPre(_ change: SchemaChange) throws {
        switch change {
        case .addClass(let cls):
            try storage.createClass(cls)
            physical[cls.name] = Dictionary(uniqueKeysWithValues: cls.persistedProperties.map { ($0.name, $0) })
        case .addProperty(let c, let p):
            let fill = step.fills[key(c, p.name)]
            try storage.addProperty(c, p, fill: fill)
            physical[c, default: [:]][p.name] = p
            if fill != nil, !p.isCollection { summary.fills[key(c, p.name), default: 0] += try db.objectCount(c) }
        case .changePropertyType(let c, let old, let new):
            if let conversion = step.conversions[key(c, new.name)] {
                let label = "\(key(c, new.name)) (\(old.typeShorthand) -> \(new.typeShorthand))"
                let progress = options.progress
                let converted = try storage.convert(
                    c, from: old, to: new, rule: conversion.rule, fill: step.fills[key(c, new.name)]
                ) { done, total in
                    progress?(
                        MigrationProgress(phase: "convert \(c).\(new.name)", className: c, done: done, total: total))
                }
                summary.conversions[label] = converted
            } else {
                try deleteOwnedEmbedded(c, old)
                try storage.resetProperty(c, from: old, to: new)
                summary.discardedProperties.append(key(c, old.name))
            }
            physical[c, default: [:]][new.name] = new
        case .makeRequired(let c, let p):
            if let fill = step.fills[key(c, p.name)] {
                let filled = try storage.fillNulls(c, p, with: fill)
                if filled > 0 { summary.fills[key(c, p.name), default: 0] += filled }
            }
        default:
            break
        }
    }

    // MARK: - Deleting data

    /// Deletes every object of a class (named as in the current physical schema), and its tables
    /// too when `dropTable`. Links to the objects are cleared and their embedded objects deleted.
    func deleteClassData(_ className: String, dropTable: Bool) throws {
        guard try storage.hasTable(className) else { return }
        let count = try db.objectCount(className)
        if db.schema[className] != nil {
            try storage.deleteAllObjects(className)
        }
        if dropTable {
            try dropRemovedClass(className)
        }
        if count > 0 { summary.deletedObjects[className, default: 0] += count }
        deletedClasses.insert(className)
    }

    /// Drops a class that the target lacks: mixed links to it go, embedded objects it owns are
    /// deleted, then its tables.
    func dropRemovedClass(_ className: String) throws {
        let mixed = db.schema.classes.flatMap { cls in
            cls.persistedProperties.filter { $0.type == .mixed }.map { LinkSource(className: cls.name, property: $0) }
        }
        try storage.removeMixedLinks(to: className, sources: mixed)
        for property in (physical[className] ?? [:]).values.sorted(by: { $0.name < $1.name }) {
            try deleteOwnedEmbedded(className, property)
        }
        try storage.dropClass(className)
        physical[className] = nil
    }

    /// Deletes the embedded objects a property holds before its storage goes (they are its values).
    /// Objects of a class that was top-level in the old schema are not owned, so they stay.
    func deleteOwnedEmbedded(_ className: String, _ property: Property) throws {
        guard property.type == .object, let target = property.objectType, db.schema[target]?.isEmbedded == true,
            step.renamedOld[target]?.isEmbedded == true
        else { return }
        try storage.deleteEmbedded(ownedBy: className, property, embeddedClass: target)
    }
}
