import Foundation
import PorterDiff
import PorterInterchange
import PorterMigration
import PorterModel
import PorterRealmFile
import PorterStore

/// Migrates a Realm file (formats 22–24) straight into a new format-24 file, column by column, as
/// realm-core migrates a file in place: objects keep their keys, unchanged columns are copied node
/// by node, and only renamed, added, converted, filled or re-indexed properties are touched.
///
/// It covers the changes whose outcome the source's data cannot make fail in any way that the
/// general runtime would report differently: property renames, new classes and properties
/// (default or fill), scalar conversions, optionality, indexes, class renames, and removals that a
/// plan covers. For anything else (removals of classes with objects, embedding, primary-key changes,
/// uncovered data loss, a conversion that fails, several steps, a dry run…) it returns nil
/// before the user's file is touched, and the caller takes the general path (a private Porter
/// database), which applies the same rules and reports the problem in its words.
package enum RealmColumnMigration {
    /// Migrates the Realm file at `path` (already opened as `file`) to `schema` and replaces it
    /// atomically, keeping a copy at `options.backupPath` first when asked. Returns nil, with the
    /// file untouched and no backup made, when the migration is not one this path takes.
    public static func migrate(
        _ file: RealmFile, path: String, key: [UInt8]?, stored: Schema, to schema: Schema,
        plans: [MigrationPlan], renames: RenameSet, options: MigrationOptions,
        backup: (String) throws -> Void
    ) throws -> MigrationReport? {
        let started = Date()
        guard !options.dryRun, !options.deleteDatabaseIfMigrationNeeded, (22...24).contains(file.fileFormat),
            schema.version > stored.version, (try? schema.validate()) != nil,
            let steps = try? Migrator.resolveSteps(
                from: stored, to: schema, plans: plans, renames: renames, fills: options.fills),
            steps.count == 1, let step = steps.first
        else { return nil }
        guard var plan = try ColumnPlan(step: step, file: file, options: options) else { return nil }
        var report = MigrationReport(
            path: path, outcome: .migrated, fromVersion: stored.version, toVersion: schema.version)
        for cls in schema.classes {
            report.objectCounts[cls.name] = try plan.objectCount(cls.name)
        }
        do {
            let rewriter = RealmFileRewriter(schema: step.targetSchema, schemaVersion: schema.version)
            try rewriter.write(to: path, from: file, classes: try plan.rewrites(), encryptionKey: key) {
                if let backupPath = options.backupPath {
                    try backup(backupPath)
                    report.backupPath = backupPath
                }
            }
        } catch is RealmRewriteUnsupported {
            return nil
        } catch is ColumnPlan.NeedsGeneralPath {
            return nil
        }
        report.steps = [plan.summary()]
        report.duration = Date().timeIntervalSince(started)
        return report
    }
}
