/// One property of an object type: its name, base type, optionality, collection kind, link target,
/// index flag, default value and, for `linkingObjects`, the origin property.
///
/// For a collection, `isOptional` says whether the *elements* may be null (`int?[]`).
public struct Property: Sendable, Hashable {
    /// The property name, unique within its class.
    public var name: String
    /// The base type.
    public var type: PropertyType
    /// The link target class (`object`) or origin class (`linkingObjects`); nil otherwise.
    public var objectType: String?
    /// For `linkingObjects`: the property of `objectType` that links here.
    public var linkOriginProperty: String?
    /// Whether the value (or, in a collection, each element) may be null.
    public var isOptional: Bool
    /// None, list, set or map.
    public var collection: CollectionKind
    /// Whether the property is indexed for equality lookups (primary keys always are).
    public var isIndexed: Bool
    /// The value a new object gets when none is given; nil means the type's default.
    public var defaultValue: Value?

    /// Creates a property. `mixed` is always optional, as in Realm.
    public init(
        name: String, type: PropertyType, objectType: String? = nil, optional: Bool = false,
        collection: CollectionKind = .none, indexed: Bool = false, defaultValue: Value? = nil,
        linkOriginProperty: String? = nil
    ) {
        self.name = name
        self.type = type
        self.objectType = objectType
        self.linkOriginProperty = linkOriginProperty
        self.isOptional = optional || type == .mixed
        self.collection = collection
        self.isIndexed = indexed
        self.defaultValue = defaultValue
    }

    /// A `linkingObjects` property: the objects of `originClass` whose `originProperty` links here.
    public static func linkingObjects(_ name: String, originClass: String, originProperty: String) -> Property {
        Property(
            name: name, type: .linkingObjects, objectType: originClass, collection: .none,
            linkOriginProperty: originProperty)
    }

    /// Whether the property is a link or a collection of links.
    public var isLink: Bool { type == .object }
    /// Whether the property is computed (`linkingObjects`) rather than stored.
    public var isComputed: Bool { type == .linkingObjects }
    /// Whether the property is a list, set or map.
    public var isCollection: Bool { collection != .none }

    /// The schema-file shorthand: `int`, `string?`, `Dog[]`, `int?{}`, `Person?`, `linkingObjects`.
    public var typeShorthand: String {
        let base = type == .object ? (objectType ?? "?") : (type == .linkingObjects ? "linkingObjects" : type.rawValue)
        let optionalMark = (isOptional && type != .mixed) ? "?" : ""
        switch collection {
        case .none: return base + optionalMark
        case .list: return base + optionalMark + "[]"
        case .set: return base + optionalMark + "<>"
        case .map: return base + optionalMark + "{}"
        }
    }

    /// Realm's type string used in change messages: `int`, `<Person>`, `array<Dog>`,
    /// `set<string>`, `dictionary<string, int>`, `linking objects<Dog>`.
    public var realmTypeString: String {
        let element = type == .object ? (objectType ?? "") : type.realmName
        switch collection {
        case .list: return "array<\(element)>"
        case .set: return "set<\(element)>"
        case .map: return "dictionary<string, \(element)>"
        case .none:
            if type == .object { return "<\(element)>" }
            if type == .linkingObjects { return "linking objects<\(objectType ?? "")>" }
            return type.realmName
        }
    }
}
