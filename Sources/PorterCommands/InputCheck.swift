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
