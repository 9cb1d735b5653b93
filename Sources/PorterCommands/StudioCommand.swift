import ArgumentParser
import Foundation
import Porter
import PorterStudio

/// `porter studio FILE [--port N] [--encryption-key …] [--open] [--write]`: browse, query and
/// export a Realm file or a Porter database in the browser (the Studio guide).
public struct StudioCommand: OutputCommand {
    /// Help text.
    public static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Browse, query and export a Realm file or a Porter database in the browser.",
        discussion: """
            Serves a page on 127.0.0.1 only (a random free port unless --port) and prints its URL, which \
            carries a random token every request needs. The file is opened read-only, as export opens it; \
            with --write a Porter database is opened read-write and the page edits it inside explicit write \
            transactions; a Realm file is edited in a private working copy and Save writes the file anew, \
            atomically (--backup keeps the old one). Runs until interrupted (Ctrl-C).
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
    @Flag(
        name: .long,
        help: "Allow edits from the page (Begin, Commit, Cancel); a Realm file's in a working copy Save writes back.")
    public var write = false
    /// Where the first Save keeps the Realm file as it was.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --write on a Realm file: copy the file here at the first Save (must not exist).", valueName: "file"))
    public var backup: String?
    /// How long Save waits for another writer of the Realm file.
    @OptionGroup public var writer: WaitOption
    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors: exit code 64.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if backup != nil && !write { throw ValidationError("--backup applies with --write (on a Realm file)") }
        if backup != nil, StoredFileKind.of(path: database) == .porterDatabase {
            throw ValidationError(
                "--backup applies to a Realm file: a Porter database's changes are saved by Commit (\(database))")
        }
    }

    /// Opens the file, serves the page until interrupted.
    public func run(output: CommandOutput) throws {
        // Downloads are written into temporary folders (also without --write): a killed studio's
        // folder goes when the next studio starts, as a writing command's leftovers do.
        TemporaryFiles.sweepTemporaryFolder()
        let server: StudioServer
        let path: String
        let realmCopy = try openRealmCopy()
        defer { realmCopy?.remove() }
        if let realmCopy {
            server = StudioServer(realmCopy: realmCopy)
            path = realmCopy.path
        } else {
            let file = try openFile()
            server = StudioServer(file: file, writable: write)
            path = file.path
        }
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let (port, open) = (self.port, self.open)
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
        if let realmCopy, realmCopy.unsavedCommits > 0 {
            output.err(
                "porter studio: \(realmCopy.unsavedCommits) commit(s) since the last Save were not written to \(path)")
        }
        if let error = outcome.error {
            throw PorterError(.io, "cannot serve on 127.0.0.1:\(port): \(error)")
        }
    }

    /// With --write on a Realm file: its working copy, read under the file's writer lock, which
    /// Save takes again (the Studio guide); nil otherwise.
    private func openRealmCopy() throws -> StudioRealmCopy? {
        let key = try encryption.key()
        let kind = StoredFileKind.of(path: database)
        guard write, kind == .realmFile || (key != nil && kind != .porterDatabase) else { return nil }
        _ = TemporaryFiles.sweepLeftovers(beside: database)
        let (path, wait) = (database, writer.wait)
        return try StudioRealmCopy(path: path, encryptionKey: key, backup: backup) {
            let lock = try RealmFileLock(realmFile: path, wait: wait)
            return { lock.release() }
        }
    }

    /// The file, opened as the read-only commands open it; with --write, a Porter database read-write.
    private func openFile() throws -> StudioFile {
        if write {
            guard StoredFileKind.of(path: database) == .porterDatabase else {
                _ = try StoreFile.open(database, encryption: encryption)
                throw PorterError(.usage, "--write: not a Porter database or a Realm file", location: database)
            }
            if backup != nil {
                throw PorterError(
                    .usage, "--backup applies to a Realm file: a Porter database's changes are saved by Commit",
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
