import PorterModel

/// A property rename: `className.from` becomes `className.to`. `className` is the class's name in
/// the new schema (after any class rename); the old name of a renamed class is accepted too.
public struct PropertyRename: Sendable, Hashable, CustomStringConvertible {
    /// The class (new name, or old name of a renamed class).
    public var className: String
    /// The property's name in the old schema.
    public var from: String
    /// The property's name in the new schema.
    public var to: String

    /// Creates a rename.
    public init(className: String, from: String, to: String) {
        self.className = className
        self.from = from
        self.to = to
    }

    /// Parses `Class.old=new` (the form of `--rename`); `Class.old=Class.new` is accepted too.
    /// - Throws: ``PorterError/Code/usage`` naming the argument.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let dot = parts[0].lastIndex(of: "."), !parts[1].isEmpty else {
            throw PorterError(.usage, "invalid property rename '\(text)': expected Class.oldName=newName")
        }
        className = String(parts[0][..<dot])
        from = String(parts[0][parts[0].index(after: dot)...])
        var target = parts[1]
        if target.hasPrefix(className + ".") { target.removeFirst(className.count + 1) }
        to = target
        guard !className.isEmpty, !from.isEmpty, !to.isEmpty, !to.contains(".") else {
            throw PorterError(.usage, "invalid property rename '\(text)': expected Class.oldName=newName")
        }
    }

    /// `Class.from=to`, the `--rename` form.
    public var description: String { "\(className).\(from)=\(to)" }
}

/// A class rename: objects, links and collections of `from` move to `to`.
public struct ClassRename: Sendable, Hashable, CustomStringConvertible {
    /// The class's name in the old schema.
    public var from: String
    /// The class's name in the new schema.
    public var to: String

    /// Creates a rename.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    /// Parses `Old=New` (the form of `--rename-class`).
    /// - Throws: ``PorterError/Code/usage`` naming the argument.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[0].contains("."), !parts[1].contains(".")
        else {
            throw PorterError(.usage, "invalid class rename '\(text)': expected OldClass=NewClass")
        }
        from = parts[0]
        to = parts[1]
    }

    /// `Old=New`, the `--rename-class` form.
    public var description: String { "\(from)=\(to)" }
}

/// The renames a user asked for (`--rename`, `--rename-class`, or a plan's rename operations).
/// A rename is never guessed: likely renames are only reported (see ``RenameDetector``).
public struct RenameSet: Sendable, Hashable {
    /// Class renames, applied first.
    public var classes: [ClassRename]
    /// Property renames, applied in order after the class renames.
    public var properties: [PropertyRename]

    /// Creates a set of renames.
    public init(classes: [ClassRename] = [], properties: [PropertyRename] = []) {
        self.classes = classes
        self.properties = properties
    }

    /// Parses command-line arguments: `Class.old=new` for properties, `Old=New` for classes.
    public init(propertyArguments: [String], classArguments: [String]) throws {
        self.init(
            classes: try classArguments.map(ClassRename.init(parsing:)),
            properties: try propertyArguments.map(PropertyRename.init(parsing:)))
    }

    /// Whether no rename was asked for.
    public var isEmpty: Bool { classes.isEmpty && properties.isEmpty }

    /// The new name of a class (itself when it is not renamed).
    public func newClassName(_ oldName: String) -> String {
        classes.first { $0.from == oldName }?.to ?? oldName
    }

    /// The renames with every property rename's class expressed by its new name.
    public var normalized: RenameSet {
        var copy = self
        copy.properties = properties.map {
            PropertyRename(className: newClassName($0.className), from: $0.from, to: $0.to)
        }
        return copy
    }

    /// Both sets, `self` first.
    public func merged(with other: RenameSet) -> RenameSet {
        RenameSet(
            classes: classes + other.classes.filter { !classes.contains($0) },
            properties: properties + other.properties.filter { !properties.contains($0) })
    }
}
