import ArgumentParser
import Foundation
import PorterCommands
import Synchronization

/// Collects what an in-process command writes.
final class CapturedOutput: Sendable {
    private let lines = Mutex<(out: [String], err: [String])>(([], []))

    /// The sink to pass to `run(output:)`.
    var output: CommandOutput {
        CommandOutput(
            out: { line in self.lines.withLock { $0.out.append(line) } },
            err: { line in self.lines.withLock { $0.err.append(line) } })
    }

    var stdout: String { lines.withLock { $0.out.joined(separator: "\n") } }
    var stderr: String { lines.withLock { $0.err.joined(separator: "\n") } }

    /// Parses `arguments` like the binary does and runs the command in-process.
    /// Returns the exit code the binary would return.
    static func run(_ arguments: [String]) -> (status: Int32, output: CapturedOutput) {
        let captured = CapturedOutput()
        do {
            let command = try PorterCLI.parseAsRoot(arguments)
            guard let runnable = command as? any OutputCommand else { return (64, captured) }
            try reportingErrors(captured.output) { try runnable.run(output: captured.output) }
            return (0, captured)
        } catch let exit as ExitCode {
            return (exit.rawValue, captured)
        } catch {
            // An argument error (ArgumentParser's validation): its message, as the CLI prints it.
            captured.output.err(PorterCLI.message(for: error))
            return (PorterCLI.exitCode(for: error).rawValue, captured)
        }
    }
}

/// Fixture paths (temporary folders: `TemporaryFolder`, PorterTestSupport).
enum TestFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schema = root.appendingPathComponent("Fixtures/schemas/realm-docs.json").path
}
