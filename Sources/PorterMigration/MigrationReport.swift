import Foundation

/// What one step of a migration did.
public struct MigrationStepSummary: Sendable, Equatable {
    /// Version before the step.
    public var fromVersion: UInt64
    /// Version after the step.
    public var toVersion: UInt64
    /// Checksum of the plan, when the step came from one.
    public var planChecksum: String?
    /// Realm-worded messages of the step's schema changes.
    public var changes: [String] = []
    /// Renames applied (`Person.name -> fullName`, `class Old -> New`).
    public var renames: [String] = []
    /// Values converted per property (`Dog.age (int -> string)`: count).
    public var conversions: [String: Int] = [:]
    /// Nulls or new values filled per property.
    public var fills: [String: Int] = [:]
    /// Objects deleted per class (deleteData, removed classes).
    public var deletedObjects: [String: Int] = [:]
    /// Properties whose values were discarded.
    public var discardedProperties: [String] = []
    /// Objects without a parent deleted when their class became embedded, per class.
    public var orphansDeleted: [String: Int] = [:]
    /// Copies made of objects with several parents when their class became embedded, per class.
    public var copiesMade: [String: Int] = [:]
    /// Whether the migration block ran in this step.
    public var blockCalled = false

    /// Creates a summary.
    public init(fromVersion: UInt64, toVersion: UInt64, planChecksum: String? = nil) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.planChecksum = planChecksum
    }

    /// One line for migration history.
    public var historyLine: String {
        var parts: [String] = []
        if !changes.isEmpty { parts.append("\(changes.count) change\(changes.count == 1 ? "" : "s")") }
        if !renames.isEmpty { parts.append("renamed \(renames.joined(separator: ", "))") }
        if !conversions.isEmpty {
            parts.append(
                "converted \(conversions.keys.sorted().map { "\($0) (\(conversions[$0] ?? 0))" }.joined(separator: ", "))"
            )
        }
        if !fills.isEmpty {
            parts.append("filled \(fills.keys.sorted().map { "\($0) (\(fills[$0] ?? 0))" }.joined(separator: ", "))")
        }
        if !deletedObjects.isEmpty {
            parts.append(
                "deleted \(deletedObjects.keys.sorted().map { "\($0) (\(deletedObjects[$0] ?? 0))" }.joined(separator: ", "))"
            )
        }
        if !discardedProperties.isEmpty { parts.append("discarded \(discardedProperties.joined(separator: ", "))") }
        if !orphansDeleted.isEmpty {
            parts.append(
                "orphans deleted \(orphansDeleted.keys.sorted().map { "\($0) (\(orphansDeleted[$0] ?? 0))" }.joined(separator: ", "))"
            )
        }
        if !copiesMade.isEmpty {
            parts.append(
                "copied \(copiesMade.keys.sorted().map { "\($0) (\(copiesMade[$0] ?? 0))" }.joined(separator: ", "))")
        }
        if blockCalled { parts.append("migration block") }
        return parts.isEmpty ? "schema version \(fromVersion) -> \(toVersion)" : parts.joined(separator: "; ")
    }
}

/// The result of ``Migrator/migrate(databaseAt:to:plans:renames:options:block:)``.
public struct MigrationReport: Sendable, Equatable {
    /// What happened overall.
    public enum Outcome: String, Sendable, Equatable {
        /// The file already had the schema; nothing was written.
        case upToDate
        /// The file did not exist and was created with the schema.
        case created
        /// The file needed a migration and was deleted and re-created (`deleteDatabaseIfMigrationNeeded`).
        case recreated
        /// Only automatic changes (new classes, indexes) were applied at the same version.
        case automatic
        /// A migration was applied and committed.
        case migrated
        /// A dry run: everything ran and passed its checks, then was rolled back.
        case dryRun
    }

    /// The database file.
    public var path: String
    /// The overall outcome.
    public var outcome: Outcome
    /// The file's schema version before.
    public var fromVersion: UInt64
    /// The schema version after (or that a dry run reached).
    public var toVersion: UInt64
    /// The steps, in order.
    public var steps: [MigrationStepSummary] = []
    /// Objects per class at the end.
    public var objectCounts: [String: Int] = [:]
    /// Where the backup went, if one was made.
    public var backupPath: String?
    /// Seconds the migration took.
    public var duration: Double = 0

    /// Creates a report.
    public init(path: String, outcome: Outcome, fromVersion: UInt64, toVersion: UInt64) {
        self.path = path
        self.outcome = outcome
        self.fromVersion = fromVersion
        self.toVersion = toVersion
    }

    /// The summary people see after `porter migrate`.
    public var text: String {
        var lines: [String] = []
        switch outcome {
        case .upToDate: lines.append("\(path): already at schema version \(toVersion); nothing to do.")
        case .created: lines.append("\(path): created with schema version \(toVersion).")
        case .recreated:
            lines.append(
                "\(path): migration needed; the file was deleted and re-created empty at schema version \(toVersion).")
        case .automatic: lines.append("\(path): applied automatic changes at schema version \(toVersion).")
        case .migrated: lines.append("\(path): migrated from schema version \(fromVersion) to \(toVersion).")
        case .dryRun:
            lines.append(
                "\(path): dry run from schema version \(fromVersion) to \(toVersion) passed all checks; nothing was changed."
            )
        }
        if let backupPath { lines.append("Backup: \(backupPath)") }
        for step in steps {
            lines.append(
                "Step \(step.fromVersion) -> \(step.toVersion)\(step.planChecksum.map { " (plan \($0.prefix(19))…)" } ?? ""):"
            )
            for change in step.changes { lines.append("  \(change)") }
            for rename in step.renames { lines.append("  renamed \(rename)") }
            for key in step.conversions.keys.sorted() {
                lines.append("  converted \(key): \(step.conversions[key] ?? 0) values")
            }
            for key in step.fills.keys.sorted() { lines.append("  filled \(key): \(step.fills[key] ?? 0) values") }
            for key in step.deletedObjects.keys.sorted() {
                lines.append("  deleted \(step.deletedObjects[key] ?? 0) \(key) objects")
            }
            for property in step.discardedProperties { lines.append("  discarded the values of \(property)") }
            for key in step.orphansDeleted.keys.sorted() {
                lines.append("  deleted \(step.orphansDeleted[key] ?? 0) \(key) objects without a parent")
            }
            for key in step.copiesMade.keys.sorted() {
                lines.append("  copied \(step.copiesMade[key] ?? 0) \(key) objects that had several parents")
            }
            if step.blockCalled { lines.append("  ran the migration block") }
        }
        if !objectCounts.isEmpty {
            lines.append(
                "Objects: "
                    + objectCounts.keys.sorted().map { "\($0) \(objectCounts[$0] ?? 0)" }.joined(separator: ", "))
        }
        lines.append(String(format: "Time: %.2fs", duration))
        return lines.joined(separator: "\n")
    }
}
