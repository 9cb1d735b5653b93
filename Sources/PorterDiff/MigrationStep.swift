import PorterModel

/// A conversion resolved against both schemas.
public struct ResolvedConversion: Sendable, Hashable {
    /// The class (new name).
    public var className: String
    /// The property's old definition (after renames).
    public var from: Property
    /// The property's new definition.
    public var to: Property
    /// The rule to apply.
    public var rule: ConversionRule

    /// Creates a conversion.
    public init(className: String, from: Property, to: Property, rule: ConversionRule) {
        self.className = className
        self.from = from
        self.to = to
        self.rule = rule
    }

    /// `Class.property`.
    public var subject: String { "\(className).\(to.name)" }
}

/// One checked step of a migration, from one schema to the next: what the runtime executes.
///
/// Built from a plan (``MigrationPlan/step(from:)``) or from a target schema and command-line
/// options (``implicit(from:to:renames:fills:)``). Everything here is already validated against
/// both schemas, so the runtime only has to look at data.
public struct MigrationStep: Sendable, Hashable {
    /// The schema version before the step.
    public var fromVersion: UInt64
    /// The schema version after the step.
    public var toVersion: UInt64
    /// The schema before the step.
    public var oldSchema: Schema
    /// The schema after the step.
    public var targetSchema: Schema
    /// Renames, applied first.
    public var renames: RenameSet
    /// ``oldSchema`` with the renames applied.
    public var renamedOld: Schema
    /// The changes from ``renamedOld`` to ``targetSchema``.
    public var changes: [SchemaChange]
    /// Conversions of type changes, keyed by `Class.property`.
    public var conversions: [String: ResolvedConversion]
    /// Fill values, keyed by `Class.property`.
    public var fills: [String: Value]
    /// Classes whose objects are explicitly deleted, in order (new names).
    public var deletedClasses: [String]
    /// Properties whose values are explicitly discarded (`Class.property`).
    public var deletedProperties: Set<String>
    /// Classes becoming embedded whose orphans may be deleted.
    public var orphanDeletion: Set<String>
    /// The checksum of the plan the step comes from, if any.
    public var planChecksum: String?

    /// Creates a step; see ``implicit(from:to:renames:fills:)`` and ``MigrationPlan/step(from:)``.
    public init(
        oldSchema: Schema, targetSchema: Schema, renames: RenameSet, renamedOld: Schema, changes: [SchemaChange],
        conversions: [String: ResolvedConversion] = [:], fills: [String: Value] = [:], deletedClasses: [String] = [],
        deletedProperties: Set<String> = [], orphanDeletion: Set<String> = [], planChecksum: String? = nil
    ) {
        self.fromVersion = oldSchema.version
        self.toVersion = targetSchema.version
        self.oldSchema = oldSchema
        self.targetSchema = targetSchema
        self.renames = renames
        self.renamedOld = renamedOld
        self.changes = changes
        self.conversions = conversions
        self.fills = fills
        self.deletedClasses = deletedClasses
        self.deletedProperties = deletedProperties
        self.orphanDeletion = orphanDeletion
        self.planChecksum = planChecksum
    }

    /// A step without a plan: renames and fills from the command line, and every type change
    /// that has a lossless conversion converted with its default rule.
    /// - Throws: rename errors (realm-core's messages) and fill errors.
    public static func implicit(
        from old: Schema, to target: Schema, renames: RenameSet = RenameSet(),
        fills: [FillArgument] = []
    ) throws -> MigrationStep {
        let diff = try SchemaDiff.compare(old, target, renames: renames)
        var step = MigrationStep(
            oldSchema: old, targetSchema: target, renames: diff.renames, renamedOld: diff.renamedOld,
            changes: diff.changes)
        for change in diff.changes {
            if case .changePropertyType(let c, let from, let to) = change,
                ValueConversion.isSupported(from: from, to: to)
            {
                step.conversions["\(c).\(to.name)"] = ResolvedConversion(
                    className: c, from: from, to: to,
                    rule: ValueConversion.defaultRule(from: from.type, to: to.type))
            }
        }
        for fill in fills {
            step.fills[fill.subject] = try fill.value(in: target)
        }
        return step
    }

    /// Destructive changes that nothing covers (no conversion, `deleteData` or `deleteOrphans`).
    /// Whether they would actually lose data depends on the file: the runtime counts it.
    public var uncoveredDestructiveChanges: [SchemaChange] {
        changes.filter { change in
            let classDeleted = deletedClasses.contains(change.className)
            switch change {
            case .removeClass(let c): return !deletedClasses.contains(c.name)
            case .removeProperty(let c, let p): return !classDeleted && !deletedProperties.contains("\(c).\(p.name)")
            case .changePropertyType(let c, _, let p):
                return !classDeleted && conversions["\(c).\(p.name)"] == nil
                    && !deletedProperties.contains("\(c).\(p.name)")
            case .changeClassType(let c, let toEmbedded):
                return toEmbedded && !classDeleted && !orphanDeletion.contains(c)
            default: return false
            }
        }
    }
}

/// A `--fill Class.property=VALUE` argument: the value for nulls when a property becomes
/// required, or for existing objects when a property is added. VALUE is read as JSON when it fits
/// the property's type (`3`, `true`, `"x"`), else as a plain string (`Unknown`, `2024-01-01`).
public struct FillArgument: Sendable, Hashable {
    /// The class (new name).
    public var className: String
    /// The property (new name).
    public var property: String
    /// The value text as given.
    public var text: String

    /// Parses `Class.property=VALUE`.
    /// - Throws: ``PorterError/Code/usage`` naming the argument.
    public init(parsing argument: String) throws {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let dot = parts[0].lastIndex(of: "."), dot != parts[0].startIndex,
            parts[0].index(after: dot) != parts[0].endIndex
        else {
            throw PorterError(.usage, "invalid fill '\(argument)': expected Class.property=VALUE")
        }
        className = String(parts[0][..<dot])
        property = String(parts[0][parts[0].index(after: dot)...])
        text = parts[1]
    }

    /// `Class.property`.
    public var subject: String { "\(className).\(property)" }

    /// The 16 MB limit on a string or data value, which a fill obeys as every stored value does.
    static let maxValueBytes = 16 * 1024 * 1024

    static func checkedSize(_ value: Value, _ subject: String) throws -> Value {
        let size: Int
        switch value {
        case .string(let s): size = s.utf8.count
        case .data(let d): size = d.count
        default: return value
        }
        guard size <= maxValueBytes else {
            throw PorterError(.usage, "cannot fill '\(subject)': the value of \(size) bytes exceeds the 16 MB limit")
        }
        return value
    }

    /// The value, typed by the property in `target`.
    /// - Throws: ``PorterError/Code/usage`` when the property does not exist or the value does not fit.
    public func value(in target: Schema) throws -> Value {
        guard let property = target[className]?.property(named: self.property), !property.isComputed else {
            throw PorterError(.usage, "cannot fill '\(subject)': the target schema has no such property")
        }
        if let json = try? JSONValue.parse(text), let value = try? FillValueJSON.value(from: json, for: property) {
            return try Self.checkedSize(value, subject)
        }
        if let value = try? FillValueJSON.value(from: .string(text), for: property) {
            return try Self.checkedSize(value, subject)
        }
        throw PorterError(
            .usage, "cannot fill '\(subject)' with '\(text)': not a value of type '\(property.type.rawValue)'")
    }
}
