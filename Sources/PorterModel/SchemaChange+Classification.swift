/// How much a schema change asks of a migration.
public enum ChangeSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Applied without a schema-version bump (add class, add or remove an index), as realm-core's
    /// automatic mode does.
    case automatic
    /// Needs a higher schema version; no data is lost by the change itself.
    case migration
    /// A type change that `porter migrate` converts with a built-in conversion, no plan or flag
    /// needed: no data is lost (a value that does not convert exactly stops the migration).
    case converted
    /// Needs a higher schema version, and data would be lost unless a conversion, rename, fill or
    /// explicit `deleteData` covers it.
    case destructive

    private var rank: Int {
        switch self {
        case .automatic: return 0
        case .migration: return 1
        case .converted: return 2
        case .destructive: return 3
        }
    }

    /// Orders automatic < migration < converted < destructive.
    public static func < (lhs: ChangeSeverity, rhs: ChangeSeverity) -> Bool { lhs.rank < rhs.rank }
}

extension SchemaChange {
    /// The classification of this change on its own, without looking at any data.
    ///
    /// Converted: a type change a built-in conversion covers, which `porter migrate` applies.
    /// Destructive: removing a class or property (its values go), changing a property's type
    /// without a conversion (realm-core replaces the column), making a property required (realm-core resets every
    /// value; Porter keeps non-null values but nulls need a fill) and making a class embedded
    /// (objects without a parent are deleted). ``DiffReport`` refines this with data: a removed
    /// property that holds only nulls loses nothing.
    public var severity: ChangeSeverity {
        switch self {
        case .addClass, .addIndex, .removeIndex: return .automatic
        case .addProperty, .makeOptional, .changePrimaryKey: return .migration
        case .changeClassType(_, let toEmbedded): return toEmbedded ? .destructive : .migration
        case .changePropertyType(_, let old, let new):
            // Converted only by the exact rule: a value either converts unchanged or stops the
            // migration. double → float rounds (nearest), which loses precision: destructive.
            let exact = ValueConversion.defaultRule(from: old.type, to: new.type) == .exact
            return exact && ValueConversion.isSupported(from: old, to: new) ? .converted : .destructive
        case .removeClass, .removeProperty, .makeRequired: return .destructive
        }
    }

    /// Whether this change can lose data when nothing covers it.
    public var isDestructive: Bool { severity == .destructive }

    /// `Class.property` (or `Class`) the change is about, for messages and lookups.
    public var subject: String { propertyName.map { "\(className).\($0)" } ?? className }

    /// The plan operation name of this kind of change (`removeProperty`, …).
    public var operationName: String {
        switch self {
        case .addClass: return "addClass"
        case .removeClass: return "removeClass"
        case .changeClassType: return "changeClassType"
        case .addProperty: return "addProperty"
        case .removeProperty: return "removeProperty"
        case .changePropertyType: return "changePropertyType"
        case .makeOptional: return "makeOptional"
        case .makeRequired: return "makeRequired"
        case .addIndex: return "addIndex"
        case .removeIndex: return "removeIndex"
        case .changePrimaryKey: return "changePrimaryKey"
        }
    }
}
