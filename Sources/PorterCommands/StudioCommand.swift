import ArgumentParser
import Foundation
import Porter
import PorterStudio

/// `porter studio FILE [--port N] [--encryption-key …] [--open] [--write]`: browse, query and
/// export a Realm file or a Porter database in the browser (README, "Studio").
public struct StudioCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Browse, query and export a Realm file or a Porter database in the browser.",
        discussion: """
            Serves a page on 127.0.0.1 only (a random free port unless --port) and prints its URL, which \
            carries a random token every request needs. The file is opened read-only, as export opens it; \
            with --write a Porter database is opened read-write and the page edits it inside explicit write \
            transactions. Runs until interrupted (Ctrl-C).
            """)
    /// The file shown.
    @Argument(help: "A Realm file or a Porter database.") public var database: String
    /// The port, 0 for a free one.
    @Option(name: .long, help: "The port on 127.0.0.1 (default: a free port).") public var port: Int = 0
    /// The key of an encrypted Realm file.
    @OptionGroup public var encryption: EncryptionOptions
    /// Start the system's browser.
    @Flag(name: .long, help: "Open the page in the system's browser (xdg-open), where there is one.")
    public var open = false
    /// Allow edits.
    @Flag(name: .long, help: "A Porter database: allow edits (Begin, edit, Commit or Cancel) from the page.")
    public var write = false
    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors: exit code 64.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    /// Opens the file, serves the page until interrupted.
    public func run(output: CommandOutput) throws {
        let file = try openFile()
        let server = StudioServer(file: file, writable: write)
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let (port, open, path) = (self.port, self.open, file.path)
        Task {
            do {
                try await server.run(port: port) { url in
                    output.out("porter studio: \(url)")
                    output.out("Serving \(path) until interrupted (Ctrl-C).")
                    if open { Self.openBrowser(url, output: output) }
                }
            } catch {
                outcome.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            throw PorterError(.io, "cannot serve on 127.0.0.1:\(port): \(error)")
        }
    }

    /// The file, opened as the read-only commands open it; with --write, a Porter database read-write.
    private func openFile() throws -> StudioFile {
        if write {
            guard StoredFileKind.of(path: database) == .porterDatabase else {
                _ = try StoreFile.open(database, encryption: encryption)
                throw PorterError(
                    .usage,
                    "--write edits Porter databases only; a Realm file is shown read-only "
                        + "(import it with 'porter import' to edit a copy)",
                    location: database)
            }
            if try encryption.key() != nil {
                throw PorterError(
                    .usage, "--encryption-key applies to Realm files; this is a Porter database", location: database)
            }
            return .porter(try Database.open(at: database))
        }
        switch try StoreFile.open(database, encryption: encryption) {
        case .porter(let db): return .porter(db)
        case .realm(let file): return .realm(file)
        }
    }

    private static func openBrowser(_ url: String, output: CommandOutput) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        do { try process.run() } catch { output.err("porter studio: cannot start a browser (xdg-open): open the URL") }
    }
}

/// Why the server stopped, set from its task.
private final class ServeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.withLock { stored } }
    func set(_ error: Error) { lock.withLock { stored = error } }
}

extension StudioFile {
    /// The file's path.
    var path: String {
        switch self {
        case .porter(let db): return db.path
        case .realm(let file): return file.path
        }
    }
}
