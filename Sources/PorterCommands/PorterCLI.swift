import ArgumentParser
import Foundation
import Porter

/// The `porter` command line: subcommands for creating, inspecting, diffing, migrating,
/// exporting and importing Porter databases.
public struct PorterCLI: ParsableCommand {
    /// Subcommands and help text.
    public static let configuration = CommandConfiguration(
        commandName: "porter",
        abstract:
            "Move Realm object data between model versions and formats: Realm files, Porter databases, BSON, Extended JSON, JSON.",
        version: Database.porterVersion,
        subcommands: [
            CreateCommand.self, SchemaCommand.self, ValidateCommand.self, InspectCommand.self,
            ExportCommand.self, ImportCommand.self, CheckCommand.self,
            DiffCommand.self, PlanCommand.self, MigrateCommand.self,
            RekeyCommand.self, CompactCommand.self, SalvageCommand.self, CodegenCommand.self, StudioCommand.self,
            VerifyCommand.self, QueryCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser requirement).
    public init() {}

    /// The arguments with a bare `--archive` (mongodump's spelling for stdin or stdout) written
    /// as `--archive=-`, since an option's value cannot be optional in ArgumentParser.
    public static func normalized(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for argument in arguments {
            if argument == "--" { return out + arguments[out.count...] }
            out.append(argument == "--archive" ? "--archive=-" : argument)
        }
        return out
    }
}

/// Where commands write: stdout and stderr by default, memory in in-process tests.
public struct CommandOutput: Sendable {
    /// Writes one line of normal output.
    public var out: @Sendable (String) -> Void
    /// Writes one line of diagnostics.
    public var err: @Sendable (String) -> Void

    /// Creates an output from two line sinks.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and error.
    public static let standard = CommandOutput(
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    )
}

/// A command that can run in-process with its output captured (tests call `run(output:)`).
public protocol OutputCommand: ParsableCommand {
    /// Runs the command, writing through `output`; throws `ExitCode` or a `PorterError` on failure.
    func run(output: CommandOutput) throws
}

extension OutputCommand {
    /// ArgumentParser entry point: runs with standard output, turning errors into exit code 1.
    public func run() throws {
        try reportingErrors(.standard) { try run(output: .standard) }
    }
}

/// Runs a command body, turning Porter errors into one clear message on stderr and exit code 1
/// (never a stack trace).
public func reportingErrors(_ output: CommandOutput = .standard, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as PorterError {
        SignalCleanup.yieldToSignal()
        output.err("porter: error: \(error.headline)")
        for line in error.details { output.err("  \(line)") }
        throw ExitCode(1)
    } catch let error as ExitCode {
        throw error
    } catch {
        SignalCleanup.yieldToSignal()
        output.err("porter: error: \(error)")
        throw ExitCode(1)
    }
}

/// Loads a schema from a schema file, a Porter database or a Realm file (told by content).
func loadSchema(_ path: String, key: [UInt8]? = nil, models: Schema? = nil) throws -> Schema {
    guard FileManager.default.fileExists(atPath: path) else {
        throw PorterError(.io, "no such file", location: path)
    }
    if StoredFileKind.of(path: path) != .other || key != nil {
        return try StoreFile.open(path, key: key).schema(models: models, notes: { _ in })
    }
    do {
        return try Schema(contentsOfFile: path)
    } catch let error as PorterError where !path.hasSuffix(".json") && error.message.hasPrefix("invalid JSON") {
        // Neither a database nor JSON: a damaged or foreign file, or an encrypted Realm file.
        throw PorterError(
            .notADatabase, "\(StoredFileKind.neitherMessage) (nor a schema file: \(error.message))", location: path)
    }
}
