import PorterModel

/// A schema change as a plan lists it: the kind (`removeProperty`, …), its class and property,
/// and the descriptive fields written with it (types, Realm's message). Plans are re-diffed when
/// applied, so a listed change is a checked statement, not an instruction: it must match a change
/// between the plan's schemas.
public struct PlanChange: Sendable, Hashable {
    /// The operation name: one of ``SchemaChange/operationName``.
    public var operation: String
    /// The class (new name).
    public var className: String
    /// The property, for property-level changes.
    public var propertyName: String?
    /// Further fields as written in the plan (`type`, `from`, `to`, `embedded`, `message`, …), in order.
    public var attributes: [JSONMember]

    /// Creates a listed change.
    public init(operation: String, className: String, propertyName: String? = nil, attributes: [JSONMember] = []) {
        self.operation = operation
        self.className = className
        self.propertyName = propertyName
        self.attributes = attributes
    }

    /// The listed form of a diff change, with its descriptive fields.
    public init(_ change: SchemaChange) {
        var attributes: [JSONMember] = []
        switch change {
        case .addProperty(_, let p), .removeProperty(_, let p):
            attributes.append(JSONMember("type", .string(p.typeShorthand)))
        case .changePropertyType(_, let old, let new):
            attributes.append(JSONMember("from", .string(old.typeShorthand)))
            attributes.append(JSONMember("to", .string(new.typeShorthand)))
        case .changePrimaryKey(_, let old, let new):
            attributes.append(JSONMember("from", old.map(JSONValue.string) ?? .null))
            attributes.append(JSONMember("to", new.map(JSONValue.string) ?? .null))
        case .changeClassType(_, let toEmbedded):
            attributes.append(JSONMember("embedded", .bool(toEmbedded)))
        default:
            break
        }
        attributes.append(JSONMember("message", .string(change.message)))
        self.init(
            operation: change.operationName, className: change.className, propertyName: change.propertyName,
            attributes: attributes)
    }

    /// Whether this listed change stands for `change`: same kind, class and property, and for a
    /// primary-key or class-type change the same direction.
    public func matches(_ change: SchemaChange) -> Bool {
        guard operation == change.operationName, className == change.className, propertyName == change.propertyName
        else { return false }
        let fields = JSONValue.object(attributes)
        switch change {
        case .changePrimaryKey(_, let old, let new):
            if let from = fields["from"], from != (old.map(JSONValue.string) ?? .null) { return false }
            if let to = fields["to"], to != (new.map(JSONValue.string) ?? .null) { return false }
        case .changeClassType(_, let toEmbedded):
            if let embedded = fields["embedded"], embedded != .bool(toEmbedded) { return false }
        case .changePropertyType(_, _, let new):
            if let to = fields["to"]?.stringValue, to != new.typeShorthand { return false }
        default:
            break
        }
        return true
    }

    /// `Class.property` or `Class`.
    public var subject: String { propertyName.map { "\(className).\($0)" } ?? className }
}

/// A `convert` operation: the values of `className.property` are converted from type `from` to
/// type `to` (type shorthands such as `int`, `string?`, `int[]`) under `rule`.
public struct PlanConversion: Sendable, Hashable {
    /// The class (new name).
    public var className: String
    /// The property (new name).
    public var property: String
    /// The old type shorthand, when written (for people; checked when present).
    public var from: String?
    /// The new type shorthand (checked against the target schema).
    public var to: String
    /// The rule; nil means ``ValueConversion/defaultRule(from:to:)``.
    public var rule: ConversionRule?

    /// Creates a conversion.
    public init(className: String, property: String, from: String? = nil, to: String, rule: ConversionRule? = nil) {
        self.className = className
        self.property = property
        self.from = from
        self.to = to
        self.rule = rule
    }

    /// `Class.property`.
    public var subject: String { "\(className).\(property)" }
}

/// One step of a migration plan.
///
/// Renames, conversions, fills and deletions say what happens to data; listed changes say what
/// the schemas' difference is. Class names in every operation after a `renameClass` use the new
/// class name.
public enum PlanOperation: Sendable, Hashable {
    /// Objects, links and collections of class `from` move to class `to`.
    case renameClass(from: String, to: String)
    /// Values of `className.from` move to `className.to`.
    case renameProperty(className: String, from: String, to: String)
    /// Values of a property whose type changes are converted to the new type; covers the type change.
    case convert(PlanConversion)
    /// Nulls (of a property made required, or converted to a required type) and the values of
    /// existing objects for an added property become `value`.
    case fill(className: String, property: String, value: Value)
    /// Explicitly discards data: every object of a class, or (with `property`) the values of one
    /// property. Covers removing the class or property, or changing its type without conversion.
    case deleteData(className: String, property: String?)
    /// Accepts that objects without a parent are deleted when the class becomes embedded.
    case deleteOrphans(className: String)
    /// A change between the schemas, listed so people can read and review it.
    case change(PlanChange)

    /// The operation name used in plan files.
    public var name: String {
        switch self {
        case .renameClass: return "renameClass"
        case .renameProperty: return "renameProperty"
        case .convert: return "convert"
        case .fill: return "fill"
        case .deleteData: return "deleteData"
        case .deleteOrphans: return "deleteOrphans"
        case .change(let c): return c.operation
        }
    }

    /// The operation names a plan file may use.
    public static let names: [String] = [
        "renameClass", "renameProperty", "convert", "fill", "deleteData", "deleteOrphans",
        "addClass", "removeClass", "changeClassType", "addProperty", "removeProperty",
        "changePropertyType", "makeOptional", "makeRequired", "addIndex", "removeIndex",
        "changePrimaryKey",
    ]
}
