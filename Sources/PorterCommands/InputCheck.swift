import ArgumentParser
import Foundation
import Porter
import PorterRealm

/// `--skip-check`: shared by the commands that write a database or export one.
struct SkipCheckOption: ParsableArguments {
    /// Skip the check of the database before the command.
    @Flag(
        name: .long,
        help: "Do not check the database first (it is checked as 'porter check' does, and a damaged one refused).")
    var skipCheck = false
}

/// The check every writing command (and `export`) makes of its database first: the checks
/// `porter check` makes, so a damaged file is refused before anything is written instead of being
/// copied into a new file (a migrated Realm file, an export) that looks sound.
enum InputCheck {
    /// Refuses `path` when `porter check` would fail on it, naming the first finding.
    /// A file that is not there, or neither kind, is left for the command to report.
    /// - Throws: ``PorterError`` (`.notADatabase`) with the first problem and what to do.
    static func require(_ path: String, key: [UInt8]?, skip: Bool) throws {
        guard !skip, FileManager.default.fileExists(atPath: path) else { return }
        let problems: [String]
        let isRealm: Bool
        switch StoredFileKind.of(path: path) {
        case .porterDatabase:
            isRealm = false
            // Closed at the end of this scope, before the command opens it to write.
            let db = try Database.open(at: path, readOnly: true)
            problems = try db.checkConsistency()
        case .realmFile:
            isRealm = true
            problems = try StoreFile.openRealm(path, key: nil).check()
        case .other:
            guard let key, !isSchemaFile(path) else { return }
            isRealm = true
            problems = try StoreFile.openRealm(path, key: key).check()
        }
        if let refusal = RealmFileOpening.checkRefusal(problems, path: path, isRealm: isRealm) { throw refusal }
    }
}

/// ``InputCheck/require(_:key:skip:)`` of a Realm file made on another thread while a command whose output is
/// committed at one point (`export --to postgresql://…`, one transaction; `--format sqlite` and
/// `--format postgres`, one temporary file renamed into place) already reads the file: the
/// command stops early when the check has refused the file and waits for it before it commits,
/// so a damaged file is still refused and nothing kept, and the check costs no pass over the
/// file before the work starts.
final class BackgroundInputCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    // Written by the checking thread under `lock`; read after `wait()` returns, or under `lock`.
    private var failure: Error?
    private var finished = false

    /// Whether the check has already refused the file: the work can stop early.
    var hasFailed: Bool { lock.withLock { failure != nil } }

    /// Starts the check of `path` (none when `skip`). A Porter database is checked here, before
    /// the work: a read-only SQLite connection that closes after the command's own cannot remove
    /// the database's `-wal` and `-shm` files, which would then stay beside the user's file.
    /// - Throws: the refusal of a Porter database that fails its check.
    init(_ path: String, key: [UInt8]?, skip: Bool) throws {
        guard !skip, StoredFileKind.of(path: path) != .porterDatabase else {
            if !skip { try InputCheck.require(path, key: key, skip: false) }
            finished = true
            return
        }
        let thread = Thread { [self] in
            do { try InputCheck.require(path, key: key, skip: false) } catch {
                lock.withLock { failure = error }
            }
            done.signal()
        }
        // The main thread's size: the check walks the file's trees recursively.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the check; throws its refusal.
    func wait() throws {
        if !finished {
            done.wait()
            finished = true
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Runs `work`, then waits for the check before returning: the check's refusal wins over
    /// what `work` threw, since it says what is wrong with the file.
    func around<T>(_ work: () throws -> T) throws -> T {
        let result: T
        do { result = try work() } catch {
            try wait()
            throw error
        }
        try wait()
        return result
    }
}
