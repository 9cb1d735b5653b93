import Foundation
import PorterDiff
import PorterInterchange
import PorterMigration
import PorterModel
import PorterRealmFile
import PorterStore

/// One migration step as column operations on a Realm file, with the step's summary counted as
/// the general runtime counts it (`StepRunner`): conversions, fills, discarded properties.
struct ColumnPlan {
    /// The data needs the general path (a conversion that fails, a null without a fill): it
    /// reports the problem with examples, in the runtime's words.
    struct NeedsGeneralPath: Error {}

    /// Counts made while the rewrite runs (one thread; the closures that count are `@Sendable`
    /// only because the rewriter's API says so).
    final class Counts: @unchecked Sendable {
        var conversions: [String: Int] = [:]
        var fills: [String: Int] = [:]
    }

    let step: MigrationStep
    let file: RealmFile
    let counts = Counts()
    /// Properties whose values were discarded (`Class.property`), as the runtime lists them.
    private(set) var discarded: [String] = []
    /// Fill subjects of properties added with a fill: counted even when the class is empty.
    private var addedWithFill: Set<String> = []

    /// Nil when the step has a change this path does not take.
    init?(step: MigrationStep, file: RealmFile, options: MigrationOptions) throws {
        self.step = step
        self.file = file
        guard step.deletedClasses.isEmpty, step.orphanDeletion.isEmpty else { return nil }
        for (subject, _) in step.fills {
            guard let (c, p) = Self.split(subject), let property = step.targetSchema[c]?.property(named: p),
                !property.isCollection
            else { return nil }
        }
        for change in step.changes {
            let key = "\(change.className).\(change.propertyName ?? "")"
            switch change {
            case .addClass, .makeOptional, .addIndex, .removeIndex:
                continue
            case .addProperty(_, let p):
                if step.fills[key] != nil && !p.isCollection { addedWithFill.insert(key) }
            case .removeClass(let c):
                // Its objects would be deleted (or the removal refused): the runtime's business.
                guard try objectCount(c.name) == 0 else { return nil }
            case .removeProperty(let c, let p):
                // Embedded objects a property owns go with it: the runtime deletes them.
                if p.type == .object, let target = p.objectType, step.renamedOld[target]?.isEmbedded != false {
                    return nil
                }
                let covered = options.allowDataLoss || step.deletedProperties.contains(key)
                if try self.hasData(c, p.name) {
                    guard covered else { return nil }
                    discarded.append(key)
                }
            case .changePropertyType(let c, let old, let new):
                guard step.conversions[key] != nil, !old.isCollection, !new.isCollection,
                    old.type != .object, new.type != .object,
                    step.renamedOld[c]?.primaryKey != old.name, step.targetSchema[c]?.primaryKey != new.name
                else { return nil }
            case .makeRequired(let c, let p):
                guard try !p.isCollection && (step.fills[key] != nil || objectCount(c) == 0) else { return nil }
            case .changePrimaryKey, .changeClassType:
                return nil
            }
        }
    }

    /// `Class.property` split in two.
    static func split(_ subject: String) -> (String, String)? {
        let parts = subject.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// The source class of a class (by its new name), nil for a new one.
    func sourceName(of className: String) -> String? {
        guard step.renamedOld[className] != nil else { return nil }
        let name = step.renames.classes.last { $0.to == className }?.from ?? className
        return file.table(named: name) != nil ? name : nil
    }

    /// The number of objects of a class (by its new name) in the source (0 for a new class).
    func objectCount(_ className: String) throws -> Int {
        try sourceName(of: className).flatMap { file.table(named: $0) }.map { try file.objectCount(in: $0) } ?? 0
    }

    /// Whether any object has a value (not null, not an empty collection) for the property.
    private func hasData(_ className: String, _ property: String) throws -> Bool {
        guard let table = sourceName(of: className).flatMap({ file.table(named: $0) }) else { return false }
        var found = false
        try file.forEachValue(in: table, property: property) { _, value in
            switch value {
            case .null: break
            case .list(let e), .set(let e): found = found || !e.isEmpty
            case .dictionary(let e): found = found || !e.isEmpty
            default: found = true
            }
        }
        return found
    }

    /// The old name of a property of the target class (after the step's property renames).
    private func oldName(_ className: String, _ property: String) -> String {
        step.renames.properties.last { $0.className == className && $0.to == property }?.from ?? property
    }

    /// The column operations of every class of the target.
    mutating func rewrites() throws -> [String: RealmClassRewrite] {
        var out: [String: RealmClassRewrite] = [:]
        let added = Set(
            step.changes.compactMap { change -> String? in
                if case .addProperty(let c, let p) = change { return "\(c).\(p.name)" } else { return nil }
            })
        for cls in step.targetSchema.classes {
            let source = sourceName(of: cls.name)
            var columns: [String: RealmColumnSource] = [:]
            for property in cls.persistedProperties {
                let key = "\(cls.name).\(property.name)"
                let fill = step.fills[key]
                if source == nil || added.contains(key) {
                    let value = fill ?? Database.defaultValue(for: property)
                    if addedWithFill.contains(key) { counts.fills[key, default: 0] += try objectCount(cls.name) }
                    columns[property.name] = .constant(try Self.realm(value, property, location: key))
                    continue
                }
                let from = oldName(cls.name, property.name)
                let realmFill = try fill.map { try Self.realm($0, property, location: key) }
                if let conversion = step.conversions[key] {
                    columns[property.name] = .convert(from, converter(conversion, fill: realmFill))
                } else if let realmFill {
                    let counts = self.counts
                    columns[property.name] = .convert(from) { value, _ in
                        guard case .null = value else { return value }
                        counts.fills[key, default: 0] += 1
                        return realmFill
                    }
                } else {
                    columns[property.name] = .copy(from)
                }
            }
            out[cls.name] = RealmClassRewrite(sourceClass: source, columns: columns)
        }
        return out
    }

    /// A conversion as the runtime applies it (`MigrationStorage.convert`, then the step's fills):
    /// a null becomes null, the fill, or (required, no fill) a failure; any failure goes to the general path.
    private func converter(_ conversion: ResolvedConversion, fill: RealmValue?)
        -> @Sendable (RealmValue, Int64) throws -> RealmValue
    {
        let counts = self.counts
        let to = conversion.to
        let label = "\(conversion.className).\(to.name) (\(conversion.from.typeShorthand) -> \(to.typeShorthand))"
        let subject = conversion.subject
        counts.conversions[label] = 0
        return { value, _ in
            if case .null = value {
                guard let fill else {
                    if to.isOptional { return .null }
                    throw NeedsGeneralPath()
                }
                // Nulls of a required property get the fill in the conversion; an optional one's
                // are filled afterwards, and counted, by the step's fills.
                if to.isOptional { counts.fills[subject, default: 0] += 1 }
                return fill
            }
            do {
                let converted = try ValueConversion.convertElement(
                    try RealmValues.scalar(value, location: subject), to: to.type, rule: conversion.rule)
                counts.conversions[label, default: 0] += 1
                return try RealmValues.realm(converted, location: subject)
            } catch {
                throw NeedsGeneralPath()
            }
        }
    }

    /// A Porter value as the new file stores it for `property` (collections: empty).
    static func realm(_ value: Value, _ property: Property, location: String) throws -> RealmValue {
        switch property.collection {
        case .list: return .list([])
        case .set: return .set([])
        case .map: return .dictionary([])
        case .none: return property.type == .object ? .null : try RealmValues.realm(value, location: location)
        }
    }

    /// The step's summary, once the rewrite has run.
    func summary() -> MigrationStepSummary {
        var summary = MigrationStepSummary(
            fromVersion: step.fromVersion, toVersion: step.toVersion, planChecksum: step.planChecksum)
        summary.changes = step.changes.map(\.message)
        summary.renames =
            step.renames.classes.map { "class \($0.from) -> \($0.to)" }
            + step.renames.properties.map { "\($0.className).\($0.from) -> \($0.to)" }
        summary.conversions = counts.conversions
        summary.fills = counts.fills.filter { $0.value > 0 || addedWithFill.contains($0.key) }
        // In the runtime's order: by class, a class's columns before its collections (`dropLeftovers`).
        let order = Dictionary(
            step.targetSchema.classes.enumerated().flatMap { index, cls in
                (step.renamedOld[cls.name]?.persistedProperties ?? []).enumerated().map { position, p in
                    ("\(cls.name).\(p.name)", (index, p.isCollection ? 1 : 0, position))
                }
            }, uniquingKeysWith: { first, _ in first })
        summary.discardedProperties = discarded.sorted { (order[$0] ?? (.max, 0, 0)) < (order[$1] ?? (.max, 0, 0)) }
        return summary
    }
}
