/// The parts of a schema-file type string such as `int?{}`: a base name, the `?` mark and the
/// collection suffix. Parsing only checks the syntax; whether the base names a class is left to
/// validation, so a typo in a class name is reported together with every other schema problem.
struct TypeShorthand: Equatable {
    /// The name before `?` and the suffix: a primitive name, a class name or a full-form keyword.
    var base: String
    /// Whether `?` followed the base.
    var optional: Bool
    /// The collection the suffix asks for.
    var collection: CollectionKind

    /// Characters that structure a type string and so can never be part of a base name.
    static let structural: Set<Character> = ["?", "[", "]", "<", ">", "{", "}"]

    /// Full-form keywords: each needs `objectType` (and `property`), so none is a shorthand alone.
    static let keywords: Set<String> = ["list", "set", "map", "dictionary", "object", "linkingObjects"]

    /// Parses `base`, `base?`, `base[]`, `base?[]`, `base<>`, `base?<>`, `base{}` or `base?{}`.
    /// - Throws: ``PorterError/Code/invalidSchema`` naming the type string.
    init(parsing text: String) throws {
        var rest = Substring(text)
        collection = .none
        for (suffix, kind) in [("[]", CollectionKind.list), ("<>", .set), ("{}", .map)] where rest.hasSuffix(suffix) {
            collection = kind
            rest = rest.dropLast(2)
            break
        }
        optional = rest.hasSuffix("?")
        if optional { rest = rest.dropLast() }
        base = String(rest)
        guard !base.isEmpty else {
            throw PorterError(.invalidSchema, "invalid type '\(text)': missing a type name")
        }
        if let bad = base.first(where: { TypeShorthand.structural.contains($0) }) {
            throw PorterError(
                .invalidSchema,
                "invalid type '\(text)': unexpected '\(bad)' (the form is name, name?, then optionally [], <> or {})")
        }
    }

    /// The primitive type the base names, if it names one.
    var primitive: PropertyType? { PropertyType.primitiveNames[base] }

    /// Whether `name` can be written as the base of a shorthand and read back as a link to a
    /// class of that name: not empty, not a primitive or keyword, and free of structural characters.
    static func isPlainClassName(_ name: String) -> Bool {
        !name.isEmpty && PropertyType.primitiveNames[name] == nil && !keywords.contains(name)
            && !name.contains(where: { structural.contains($0) })
    }
}

extension Property {
    /// Creates a property from a schema-file type string: `int`, `string?`, `Dog[]`, `int?{}`,
    /// `Person?`, `string<>`. A base that is not a primitive name links to the class of that name.
    /// - Throws: ``PorterError/Code/invalidSchema`` when the string is malformed or is a full-form
    ///   keyword (`list`, `linkingObjects`, …) that needs more fields.
    public init(name: String, typeShorthand text: String, indexed: Bool = false, defaultValue: Value? = nil) throws {
        let shorthand = try TypeShorthand(parsing: text)
        if TypeShorthand.keywords.contains(shorthand.base) {
            throw PorterError(
                .invalidSchema,
                "type '\(shorthand.base)' needs the full form with \"objectType\"\(shorthand.base == "linkingObjects" ? " and \"property\"" : "")"
            )
        }
        if let primitive = shorthand.primitive {
            self.init(
                name: name, type: primitive, optional: shorthand.optional, collection: shorthand.collection,
                indexed: indexed, defaultValue: defaultValue)
        } else {
            self.init(
                name: name, type: .object, objectType: shorthand.base, optional: shorthand.optional,
                collection: shorthand.collection, indexed: indexed, defaultValue: defaultValue)
        }
    }

    /// A name for the property's type in validation messages, in Realm's style: the base type
    /// for a single value (`object` for a link), `list<T>`, `set<T>` or `map<T>` for collections.
    var messageTypeName: String {
        let element = type == .object ? (objectType ?? "object") : type.rawValue
        switch collection {
        case .none: return type.rawValue
        case .list: return "list<\(element)>"
        case .set: return "set<\(element)>"
        case .map: return "map<\(element)>"
        }
    }
}
