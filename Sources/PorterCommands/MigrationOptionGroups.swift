import ArgumentParser
import Porter

/// `--rename` and `--rename-class`, declared once for `diff`, `plan` and `migrate`.
public struct RenameOptions: ParsableArguments {
    /// Property renames, `Class.old=new`.
    @Option(
        name: .customLong("rename"),
        help: ArgumentHelp("Rename a property (diff: compare it as renamed).", valueName: "Class.old=new"))
    public var renames: [String] = []
    /// Class renames, `Old=New`.
    @Option(
        name: .customLong("rename-class"),
        help: ArgumentHelp("Rename a class (diff: compare it as renamed).", valueName: "Old=New"))
    public var classRenames: [String] = []

    /// ArgumentParser requirement.
    public init() {}

    /// The renames as one set.
    /// - Throws: ``PorterError/Code/usage`` naming a malformed argument.
    public func renameSet() throws -> RenameSet {
        try RenameSet(propertyArguments: renames, classArguments: classRenames)
    }

}

/// `--fill`, declared once for `plan` and `migrate`.
public struct FillOptions: ParsableArguments {
    /// Fill values, `Class.property=VALUE`.
    @Option(
        name: .customLong("fill"),
        help: ArgumentHelp(
            "Value for nulls of a property made required, or for existing objects of an added one.",
            valueName: "Class.property=VALUE"))
    public var fills: [String] = []

    /// ArgumentParser requirement.
    public init() {}

    /// The fills, parsed.
    /// - Throws: ``PorterError/Code/usage`` naming a malformed argument.
    public func arguments() throws -> [FillArgument] { try fills.map(FillArgument.init(parsing:)) }
}
