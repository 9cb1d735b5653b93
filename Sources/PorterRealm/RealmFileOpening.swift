import Foundation
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterStore

/// How every face opens a Realm file for reading (the command line's `StoreFile`, the C library):
/// the same checks in the same order, so a refusal reads the same wherever it comes from.
public enum RealmFileOpening {
    /// Throws unless `path` names an existing file (not a folder).
    public static func requireFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PorterError(.io, "no such file", location: path)
        }
        if isDirectory.boolValue { throw PorterError(.io, "is a folder, not a database file", location: path) }
    }

    /// The refusal of a file that fails `porter check`'s checks, made by every face before it copies
    /// the file anywhere (the writing commands and `export`, the C library's cursors and export):
    /// nil when `problems` is empty. One text, so that a refusal reads the same wherever it comes
    /// from; `--skip-check` (`PORTER_OPEN_SKIP_CHECK` in C) is what reads such a file anyway.
    package static func checkRefusal(_ problems: [String], path: String, isRealm: Bool) -> PorterError? {
        guard let first = problems.first else { return nil }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        let advice =
            isRealm
            ? "'porter check \(path)' lists every problem; salvage what is readable into a new file, "
                + "or pass --skip-check if you know better"
            : "'porter check \(path)' lists every problem; pass --skip-check if you know better"
        return PorterError(
            .notADatabase, "refused: the file fails its check: \(first)\(more). \(advice)", location: path)
    }

    /// Opens `path`, a file that is not a Porter database, as a Realm file with `key` (nil: not
    /// encrypted); a refusal says why the file will not open (``RealmFileDiagnosis``).
    /// - Throws: ``PorterError`` naming the file: a key given to a plain file, no key for what is
    ///   not plainly a Realm file, or the reader's refusal.
    public static func open(_ path: String, key: [UInt8]?) throws -> RealmFile {
        switch StoredFileKind.of(path: path) {
        case .porterDatabase:
            throw PorterError(.notADatabase, "a Porter database, not a Realm file", location: path)
        case .realmFile:
            if key != nil {
                throw PorterError(.usage, "this Realm file is not encrypted: drop --encryption-key", location: path)
            }
            return try openDiagnosed(path, key: nil)
        case .other:
            guard let key else {
                throw diagnosed(path, key: nil, includeDamage: true)
                    ?? PorterError(.notADatabase, StoredFileKind.neitherMessage, location: path)
            }
            return try openDiagnosed(path, key: key)
        }
    }

    /// Opens a Realm file read-only; when the reader refuses it, the error says why the file will
    /// not open (``RealmFileDiagnosis``): a foreign file, a missing or wrong key, a truncated copy,
    /// another core's format, an unfinished snapshot. Damage keeps the reader's own message (it names the place).
    public static func openDiagnosed(_ path: String, key: [UInt8]?) throws -> RealmFile {
        do {
            return try RealmFile(path: path, encryptionKey: key)
        } catch let error as PorterError where error.code == .notADatabase {
            throw diagnosed(path, key: key) ?? error
        }
    }

    /// The diagnosis of a file that will not open, as an error; nil when it has nothing to add.
    public static func diagnosed(_ path: String, key: [UInt8]?, includeDamage: Bool = false) -> PorterError? {
        let diagnosis = RealmFileDiagnosis.diagnose(path: path, encryptionKey: key)
        switch diagnosis.kind {
        case .ok, .unreadable: return nil
        case .damaged where !includeDamage: return nil
        default: return PorterError(.notADatabase, diagnosis.message, location: path)
        }
    }

    /// The report `porter check --json` prints: the file, whether it is sound, its kind, the
    /// diagnosis with its evidence and the problems found. Read-only: a check must never be the
    /// thing that changes a suspect file.
    public static func checkReport(_ path: String, key: [UInt8]?) -> (json: JSONValue, ok: Bool) {
        var members: [JSONMember] = [JSONMember("file", .string(path))]
        var problems: [String] = []
        var ok = false
        if StoredFileKind.of(path: path) == .porterDatabase && key == nil {
            members.append(JSONMember("kind", .string("porter")))
            do {
                problems = try Database.open(at: path, readOnly: true).checkConsistency()
                ok = problems.isEmpty
                members.append(JSONMember("diagnosis", .string(ok ? "ok" : "damaged")))
            } catch let error as PorterError {
                members.append(JSONMember("diagnosis", .string("damaged")))
                members.append(JSONMember("message", .string(error.message)))
            } catch {
                members.append(JSONMember("diagnosis", .string("damaged")))
                members.append(JSONMember("message", .string("\(error)")))
            }
        } else {
            members.append(JSONMember("kind", .string("realm")))
            let diagnosis = RealmFileDiagnosis.diagnose(path: path, encryptionKey: key)
            if case .object(let found) = diagnosis.json { members += found }
            ok = diagnosis.kind == .ok
            if diagnosis.kind == .damaged, let file = try? RealmFile(path: path, encryptionKey: key) {
                problems = (try? file.check()) ?? []
            }
        }
        members.insert(JSONMember("ok", .bool(ok)), at: 1)
        members.append(JSONMember("problems", .array(problems.map { .string($0) })))
        return (.object(members), ok)
    }
}
