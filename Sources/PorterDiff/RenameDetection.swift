import PorterModel

/// A removed and an added property (or class) that look like one rename. Reported with a hint;
/// never applied unless the user asks for it.
public struct LikelyRename: Sendable, Hashable {
    /// What was renamed.
    public enum Kind: String, Sendable, Hashable {
        /// A property of one class.
        case property
        /// A whole class.
        case `class`
    }

    /// Property or class.
    public var kind: Kind
    /// For a property: its class (new name); for a class: the old class name.
    public var className: String
    /// The old property name (for a class rename, the old class name).
    public var from: String
    /// The new property name (for a class rename, the new class name).
    public var to: String
    /// Whether `from` or `to` has more than one candidate, so the pairing is a guess among several.
    public var isAmbiguous: Bool

    /// Creates a suggestion.
    public init(kind: Kind, className: String, from: String, to: String, isAmbiguous: Bool) {
        self.kind = kind
        self.className = className
        self.from = from
        self.to = to
        self.isAmbiguous = isAmbiguous
    }

    /// The command-line option that accepts the rename: `--rename Dog.name=fullName` or
    /// `--rename-class Old=New`.
    public var option: String {
        kind == .property ? "--rename \(className).\(from)=\(to)" : "--rename-class \(from)=\(to)"
    }

    /// One line for people, e.g. `Dog.name -> Dog.fullName looks like a rename (same type 'string'); accept it with --rename Dog.name=fullName`.
    public var message: String {
        let what = kind == .property ? "'\(className).\(from)' -> '\(className).\(to)'" : "class '\(from)' -> '\(to)'"
        let ambiguity = isAmbiguous ? " (one of several candidates)" : ""
        return "\(what) looks like a rename\(ambiguity); accept it with \(option)"
    }
}

/// Finds likely renames among the removals and additions of a diff.
///
/// A removed and an added property of the same class are a candidate when they agree on base
/// type, optionality, collection kind and link target. A removed and an added class are a
/// candidate when they agree on embeddedness, primary key and every stored property.
package enum RenameDetector {
    /// Likely renames between `old` and `new`, given the changes `SchemaDiff.compare` found.
    public static func detect(old: Schema, new: Schema, changes: [SchemaChange]) -> [LikelyRename] {
        var result: [LikelyRename] = []
        let removedClasses = changes.compactMap { if case .removeClass(let c) = $0 { return c } else { return nil } }
        let addedClasses = changes.compactMap { if case .addClass(let c) = $0 { return c } else { return nil } }
        var classPairs: [(ObjectSchema, ObjectSchema)] = []
        for removed in removedClasses {
            for added in addedClasses where sameShape(removed, added) { classPairs.append((removed, added)) }
        }
        for (removed, added) in classPairs {
            let ambiguous = classPairs.filter { $0.0.name == removed.name || $0.1.name == added.name }.count > 1
            result.append(
                LikelyRename(
                    kind: .class, className: removed.name, from: removed.name, to: added.name, isAmbiguous: ambiguous))
        }
        for cls in new.classes {
            let removed = changes.compactMap { change -> Property? in
                if case .removeProperty(let n, let p) = change, n == cls.name { return p }
                return nil
            }
            let added = changes.compactMap { change -> Property? in
                if case .addProperty(let n, let p) = change, n == cls.name { return p }
                return nil
            }
            var pairs: [(Property, Property)] = []
            for r in removed { for a in added where sameType(r, a) { pairs.append((r, a)) } }
            for (r, a) in pairs {
                let ambiguous = pairs.filter { $0.0.name == r.name || $0.1.name == a.name }.count > 1
                result.append(
                    LikelyRename(kind: .property, className: cls.name, from: r.name, to: a.name, isAmbiguous: ambiguous)
                )
            }
        }
        return result
    }

    /// Same base type, optionality, collection kind and link target.
    static func sameType(_ a: Property, _ b: Property) -> Bool {
        a.type == b.type && a.isOptional == b.isOptional && a.collection == b.collection && a.objectType == b.objectType
    }

    private static func sameShape(_ old: ObjectSchema, _ new: ObjectSchema) -> Bool {
        guard old.isEmbedded == new.isEmbedded, old.primaryKey == new.primaryKey else { return false }
        let oldProps = old.persistedProperties, newProps = new.persistedProperties
        guard oldProps.count == newProps.count, !oldProps.isEmpty else { return false }
        for p in oldProps {
            guard let q = new.property(named: p.name), !q.isComputed else { return false }
            // A link to the class itself follows the rename.
            var expected = p
            if expected.objectType == old.name { expected.objectType = new.name }
            if !sameType(expected, q) { return false }
        }
        return true
    }
}
