import PorterModel

/// What the data of a database says about one change.
public struct ChangeDiagnostics: Sendable, Hashable {
    /// Objects of the affected class.
    public var objectCount: Int?
    /// Non-null values (or non-empty collections) the change would lose if nothing covers it.
    public var valuesLost: Int?
    /// Nulls that block making the property required (each needs a fill).
    public var nullsBlockingRequired: Int?
    /// Values the conversion cannot convert, with examples.
    public var unconvertible: SampledCount?
    /// The conversion the migration would apply, e.g. `int -> string (exact)`.
    public var conversion: String?
    /// Duplicate values that block a new primary key, with examples.
    public var duplicates: SampledCount?
    /// Objects without a parent (deleted when the class becomes embedded).
    public var orphans: Int?
    /// Objects with several parents (copied when the class becomes embedded).
    public var multiplyLinked: Int?
    /// Links from `mixed` properties that block making the class embedded.
    public var mixedLinks: SampledCount?

    /// Creates empty diagnostics.
    public init() {}

    /// Whether the change, left uncovered, would lose data on this file.
    public var losesData: Bool { (valuesLost ?? 0) > 0 || (orphans ?? 0) > 0 }

    /// Whether the data blocks the change until something is done (nulls, duplicates, bad values, mixed links).
    public var isBlocked: Bool {
        (nullsBlockingRequired ?? 0) > 0 || (duplicates?.count ?? 0) > 0 || (unconvertible?.count ?? 0) > 0
            || (mixedLinks?.count ?? 0) > 0
    }
}

/// One change of a diff with its classification and, when the old side is a database, its data.
public struct DiffEntry: Sendable, Hashable {
    /// The change.
    public var change: SchemaChange
    /// Its classification.
    public var severity: ChangeSeverity
    /// Facts from the data, when known.
    public var diagnostics: ChangeDiagnostics?

    /// Creates an entry.
    public init(change: SchemaChange, severity: ChangeSeverity, diagnostics: ChangeDiagnostics? = nil) {
        self.change = change
        self.severity = severity
        self.diagnostics = diagnostics
    }
}

/// The full result of comparing two schemas: the ordered changes, each classified, the renames
/// that were applied, likely renames that were not, and (after ``addDiagnostics(from:)``) what the
/// old database's data says about each change.
public struct DiffReport: Sendable, Hashable {
    /// The old schema as given.
    public var oldSchema: Schema
    /// The new schema.
    public var newSchema: Schema
    /// Renames applied before comparing.
    public var renames: RenameSet
    /// The old schema after the renames.
    public var renamedOld: Schema
    /// The changes in realm-core's order.
    public var entries: [DiffEntry]
    /// Removed/added pairs that look like renames.
    public var likelyRenames: [LikelyRename]
    /// Whether data diagnostics were added.
    public var hasDiagnostics = false

    /// Compares `old` and `new` after applying `renames`.
    /// - Throws: rename errors with realm-core's messages.
    public init(old: Schema, new: Schema, renames: RenameSet = RenameSet()) throws {
        let diff = try SchemaDiff.compare(old, new, renames: renames)
        oldSchema = old
        newSchema = new
        self.renames = diff.renames
        renamedOld = diff.renamedOld
        entries = diff.changes.map { DiffEntry(change: $0, severity: $0.severity) }
        likelyRenames = RenameDetector.detect(old: diff.renamedOld, new: new, changes: diff.changes)
    }

    /// The changes alone.
    public var changes: [SchemaChange] { entries.map(\.change) }

    /// Whether the schemas differ at all (a version bump alone counts).
    public var hasChanges: Bool { !entries.isEmpty || oldSchema.version != newSchema.version }

    /// How many changes have each severity.
    public func count(_ severity: ChangeSeverity) -> Int { entries.filter { $0.severity == severity }.count }

    /// Whether opening the old file with the new schema needs a migration (and so a higher version).
    public var needsMigration: Bool { entries.contains { $0.severity != .automatic } }
}
