import ArgumentParser
import Porter

/// The `porter` command line: subcommands for creating, inspecting, diffing, migrating,
/// exporting and importing Porter databases.
public struct PorterCLI: ParsableCommand {
    /// Subcommands and help text.
    public static let configuration = CommandConfiguration(
        commandName: "porter",
        abstract: "Move Realm-style object data between model versions and formats.",
        subcommands: []
    )

    /// Creates the command (ArgumentParser requirement).
    public init() {}
}
