/// One difference between an old and a new schema, in realm-core's change kinds.
public enum SchemaChange: Sendable, Hashable {
    /// A class exists only in the new schema.
    case addClass(ObjectSchema)
    /// A class exists only in the old schema.
    case removeClass(ObjectSchema)
    /// A class switches between top-level and embedded.
    case changeClassType(className: String, toEmbedded: Bool)
    /// A stored property exists only in the new class.
    case addProperty(className: String, property: Property)
    /// A stored property exists only in the old class (or became computed).
    case removeProperty(className: String, property: Property)
    /// Base type, collection kind or link target changed (suppresses nullability and index changes).
    case changePropertyType(className: String, old: Property, new: Property)
    /// Required → optional.
    case makeOptional(className: String, property: Property)
    /// Optional → required.
    case makeRequired(className: String, property: Property)
    /// The new property is indexed (or became the primary key) and the old was not.
    case addIndex(className: String, property: Property)
    /// The old property was indexed (or the primary key) and the new is not.
    case removeIndex(className: String, property: Property)
    /// The primary key was added, removed or moved to another property.
    case changePrimaryKey(className: String, old: String?, new: String?)

    /// The class the change is about.
    public var className: String {
        switch self {
        case .addClass(let c), .removeClass(let c): return c.name
        case .changeClassType(let n, _), .addProperty(let n, _), .removeProperty(let n, _),
            .changePropertyType(let n, _, _), .makeOptional(let n, _), .makeRequired(let n, _),
            .addIndex(let n, _), .removeIndex(let n, _), .changePrimaryKey(let n, _, _):
            return n
        }
    }

    /// The property the change is about, if any.
    public var propertyName: String? {
        switch self {
        case .addProperty(_, let p), .removeProperty(_, let p), .makeOptional(_, let p),
            .makeRequired(_, let p), .addIndex(_, let p), .removeIndex(_, let p):
            return p.name
        case .changePropertyType(_, let old, _): return old.name
        default: return nil
        }
    }

    /// A stable, machine-readable code for the kind of change.
    public var code: String {
        switch self {
        case .addClass: return "add-class"
        case .removeClass: return "remove-class"
        case .changeClassType: return "change-class-type"
        case .addProperty: return "add-property"
        case .removeProperty: return "remove-property"
        case .changePropertyType: return "change-property-type"
        case .makeOptional: return "make-optional"
        case .makeRequired: return "make-required"
        case .addIndex: return "add-index"
        case .removeIndex: return "remove-index"
        case .changePrimaryKey: return "change-primary-key"
        }
    }

    /// One line in Realm's wording, e.g. `Property 'Dog.age' has been changed from 'int' to 'string'.`
    public var message: String {
        switch self {
        case .addClass(let c): return "Class '\(c.name)' has been added."
        case .removeClass(let c): return "Class '\(c.name)' has been removed."
        case .changeClassType(let n, let toEmbedded):
            return toEmbedded
                ? "Class '\(n)' has been changed from TopLevel to Embedded."
                : "Class '\(n)' has been changed from Embedded to TopLevel."
        case .addProperty(let n, let p): return "Property '\(n).\(p.name)' has been added."
        case .removeProperty(let n, let p): return "Property '\(n).\(p.name)' has been removed."
        case .changePropertyType(let n, let old, let new):
            return
                "Property '\(n).\(old.name)' has been changed from '\(old.realmTypeString)' to '\(new.realmTypeString)'."
        case .makeOptional(let n, let p): return "Property '\(n).\(p.name)' has been made optional."
        case .makeRequired(let n, let p): return "Property '\(n).\(p.name)' has been made required."
        case .addIndex(let n, let p): return "Property '\(n).\(p.name)' has been made indexed."
        case .removeIndex(let n, let p): return "Property '\(n).\(p.name)' has been made unindexed."
        case .changePrimaryKey(let n, let old, let new):
            switch (old, new) {
            case (nil, _): return "Primary Key for class '\(n)' has been added."
            case (_, nil): return "Primary Key for class '\(n)' has been removed."
            case let (o?, p?): return "Primary Key for class '\(n)' has changed from '\(o)' to '\(p)'."
            }
        }
    }

    /// Whether the change applies without a schema-version bump (add class, add or remove index),
    /// as realm-core's automatic mode allows.
    public var isAutomatic: Bool {
        switch self {
        case .addClass, .addIndex, .removeIndex: return true
        default: return false
        }
    }
}
