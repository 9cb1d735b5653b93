import Foundation
import PorterDiff
import PorterModel
import PorterStore

/// The migration runtime: brings a database file to a new schema, applying plans, renames,
/// conversions and the migration block in one write transaction, then checks the result.
///
/// Any failure (a refused data loss, a conversion that does not fit, a failed check, an error
/// thrown by the block) rolls the transaction back, leaving the file exactly as it was. A kill in
/// the middle leaves it as it was too: SQLite commits the transaction atomically.
public enum Migrator {
    /// Migrates the database at `path` to `schema`.
    ///
    /// - A missing file is created with `schema` (the block is not called).
    /// - A lower version than the file's is refused (`Provided schema version 1 is less than last set version 2.`).
    /// - At the same version only automatic changes (new classes, index changes) are applied; any
    ///   other change fails with `Migration is required due to the following errors:`.
    /// - Otherwise `plans` whose start is at or after the file's version are applied in version
    ///   order (each must start where the previous one ended and match the schema it was made
    ///   for), then a last step reaches `schema` with `renames`, default conversions and
    ///   `options.fills`; `block` runs once, in the last step, with the file's old version.
    /// - Throws: ``PorterError`` explaining why nothing was changed.
    @discardableResult
    public static func migrate(
        databaseAt path: String, to schema: Schema, plans: [MigrationPlan] = [],
        renames: RenameSet = RenameSet(), options: MigrationOptions = MigrationOptions(),
        block: MigrationBlock? = nil
    ) throws -> MigrationReport {
        let started = Date()
        try schema.validate()
        guard FileManager.default.fileExists(atPath: path) else {
            var report = MigrationReport(
                path: path, outcome: options.dryRun ? .dryRun : .created, fromVersion: schema.version,
                toVersion: schema.version)
            if !options.dryRun { try Database.createFile(at: path, schema: schema) }
            report.duration = Date().timeIntervalSince(started)
            return report
        }
        var report = try migrateExisting(
            path, to: schema, plans: plans, renames: renames, options: options, block: block)
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    /// Migrates an open database (a private one in memory, say) as
    /// ``migrate(databaseAt:to:plans:renames:options:block:)`` migrates a file, without a block.
    @discardableResult
    package static func migrate(
        _ database: Database, to schema: Schema, plans: [MigrationPlan] = [], renames: RenameSet = RenameSet(),
        options: MigrationOptions = MigrationOptions()
    ) throws -> MigrationReport {
        let started = Date()
        try schema.validate()
        var report = try migrateExisting(
            database.path, to: schema, plans: plans, renames: renames, options: options, block: nil,
            database: database)
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    /// Whether opening the file with `schema` needs a migration: a non-automatic change or a
    /// different schema version. False for a missing file.
    public static func needsMigration(databaseAt path: String, schema: Schema) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let stored = try Database.open(at: path, readOnly: true).schema
        return stored.version != schema.version || SchemaDiff.compare(stored, schema).contains { !$0.isAutomatic }
    }

    private static func migrateExisting(
        _ path: String, to schema: Schema, plans: [MigrationPlan], renames: RenameSet,
        options: MigrationOptions, block: MigrationBlock?,
        database: Database? = nil
    ) throws -> MigrationReport {
        var db: Database? = try database ?? Database.open(at: path)
        // The write lock for the whole run, taken before the schema is read: a second migration
        // (or any writer) waits, and then starts from what this one committed.
        try db?.beginWrite()
        defer { db?.cancelWrite() }
        guard let stored = db?.schema else { throw PorterError(.io, "cannot open database", location: path) }
        if options.deleteDatabaseIfMigrationNeeded,
            stored.version != schema.version || SchemaDiff.compare(stored, schema).contains(where: { !$0.isAutomatic })
        {
            if options.dryRun {
                return MigrationReport(
                    path: path, outcome: .recreated, fromVersion: stored.version, toVersion: schema.version)
            }
            db?.cancelWrite()
            db = nil
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try Database.createFile(at: path, schema: schema)
            return MigrationReport(
                path: path, outcome: .recreated, fromVersion: stored.version, toVersion: schema.version)
        }
        guard let db else { throw PorterError(.io, "cannot open database", location: path) }
        if schema.version < stored.version && !options.allowDowngrade {
            throw PorterError(
                .migrationRequired,
                "Provided schema version \(schema.version) is less than last set version \(stored.version).",
                location: path)
        }
        let steps = try resolveSteps(from: stored, to: schema, plans: plans, renames: renames, fills: options.fills)
        var report = MigrationReport(
            path: path, outcome: .upToDate, fromVersion: stored.version, toVersion: schema.version)
        guard !steps.isEmpty else { return report }
        let automaticOnly = plans.isEmpty && stored.version == schema.version
        if automaticOnly {
            let blocking = steps.flatMap(\.changes).filter { !$0.isAutomatic }
            if !blocking.isEmpty {
                throw PorterError(
                    .migrationRequired, "Migration is required due to the following errors:", location: path,
                    details: blocking.map(\.message))
            }
        }
        if let backupPath = options.backupPath {
            // Through a second connection: SQLite's backup refuses a source connection with a
            // write transaction open; nothing is written yet, so it copies the state migrated.
            try Database.open(at: path, readOnly: true).backup(to: backupPath)
            report.backupPath = backupPath
        }
        // The old file, as the block sees it: a read snapshot taken before anything is written.
        let old: Database? = block == nil || automaticOnly ? nil : try Database.open(at: path, readOnly: true)
        if let old { try MigrationStorage(old).beginSnapshot() }
        defer { if let old { MigrationStorage(old).endSnapshot() } }
        do {
            var classRenames: [String: String] = [:]
            for (index, step) in steps.enumerated() {
                let isLast = index == steps.count - 1
                let runBlock = isLast && block != nil && !automaticOnly
                let runner = StepRunner(db: db, step: step, options: options, hasBlock: runBlock)
                if !(runBlock && step.planChecksum == nil) { try runner.refuseUncoveredDataLoss() }
                try runner.prePass()
                for rename in step.renames.classes {
                    classRenames[rename.to] = classRenames[rename.from] ?? rename.from
                }
                if runBlock, let block, let old {
                    try db.replaceStoredSchema(runner.blockSchema)
                    let migration = Migration(
                        oldSchema: stored, newSchema: step.targetSchema, old: old, runner: runner,
                        oldClassNames: classRenames)
                    try block(migration, stored.version)
                    migration.writeBackLists()
                    try migration.throwRecorded()
                    runner.summary.blockCalled = true
                }
                try runner.postPass()
                if !automaticOnly {
                    try db.appendHistory(
                        Database.HistoryEntry(
                            fromVersion: step.fromVersion, toVersion: step.toVersion, planChecksum: step.planChecksum,
                            appliedAt: Timestamp(Date()).iso8601, porterVersion: Database.porterVersion,
                            summary: runner.summary.historyLine))
                }
                report.steps.append(runner.summary)
            }
            try MigrationChecks.run(db, schema: schema, progress: options.progress)
            for cls in schema.classes { report.objectCounts[cls.name] = try db.objectCount(cls.name) }
            if options.dryRun {
                db.cancelWrite()
                report.outcome = .dryRun
            } else {
                try db.commitWrite()
                report.outcome = automaticOnly ? .automatic : .migrated
            }
        } catch {
            db.cancelWrite()
            throw (error as? PorterError)?.located(in: path) ?? error
        }
        return report
    }

    /// The steps from `stored` to `schema`: the applicable plans in version order, then a last
    /// implicit step when the plans do not end exactly at `schema`.
    /// - Throws: ``PorterError`` when the plans do not chain or the renames do not apply.
    public static func resolveSteps(
        from stored: Schema, to schema: Schema, plans: [MigrationPlan], renames: RenameSet,
        fills: [FillArgument]
    ) throws -> [MigrationStep] {
        let pending =
            schema.version < stored.version
            ? downwardPlans(plans, from: stored.version, to: schema.version)
            : plans.filter {
                $0.toVersion > stored.version || ($0.fromVersion == stored.version && $0.toVersion == stored.version)
            }
            .sorted { ($0.fromVersion, $0.toVersion) < ($1.fromVersion, $1.toVersion) }
        var steps: [MigrationStep] = []
        var current = stored
        for plan in pending {
            guard plan.fromVersion == current.version else {
                throw PorterError(
                    .migrationFailed,
                    "no plan goes from schema version \(current.version) to \(plan.fromVersion): the plans must form a chain starting at the database's version \(stored.version)"
                )
            }
            guard plan.toVersion <= schema.version || schema.version < stored.version else {
                throw PorterError(
                    .migrationFailed,
                    "a plan goes to schema version \(plan.toVersion), beyond the target version \(schema.version)")
            }
            steps.append(try plan.step(from: current))
            current = plan.targetSchema
        }
        if current != schema || (steps.isEmpty && stored.version != schema.version) {
            steps.append(try MigrationStep.implicit(from: current, to: schema, renames: renames, fills: fills))
        } else if !renames.isEmpty {
            throw PorterError(
                .usage,
                "--rename options apply to a last step without a plan, but the plans already reach the target schema; put the renames in the plan"
            )
        }
        return steps
    }
}

extension Migrator {
    /// The plans of a down migration from `version` to `target`: those that go downward within
    /// that range, highest first (they must then form a chain, as upward plans do).
    static func downwardPlans(_ plans: [MigrationPlan], from version: UInt64, to target: UInt64) -> [MigrationPlan] {
        plans.filter { $0.toVersion < $0.fromVersion && $0.fromVersion <= version && $0.toVersion >= target }
            .sorted { ($0.fromVersion, $0.toVersion) > ($1.fromVersion, $1.toVersion) }
    }
}
