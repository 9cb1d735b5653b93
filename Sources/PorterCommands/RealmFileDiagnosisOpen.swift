import ArgumentParser
import Foundation
import Porter
import PorterRealm

extension StoreFile {
    /// Opens a Realm file read-only; when the reader refuses it, the error says why the file will
    /// not open (``RealmFileDiagnosis``): a foreign file, a missing or wrong key, a truncated copy,
    /// another core's format, an unfinished snapshot. Damage keeps the reader's own message (it names the place).
    static func openRealm(_ path: String, key: [UInt8]?) throws -> RealmFile {
        do {
            return try RealmFile(path: path, encryptionKey: key)
        } catch let error as PorterError where error.code == .notADatabase {
            throw diagnosed(path, key: key) ?? error
        }
    }

    /// The diagnosis of a file that will not open, as an error; nil when it has nothing to add.
    static func diagnosed(_ path: String, key: [UInt8]?, includeDamage: Bool = false) -> PorterError? {
        let diagnosis = RealmFileDiagnosis.diagnose(path: path, encryptionKey: key)
        switch diagnosis.kind {
        case .ok, .unreadable: return nil
        case .damaged where !includeDamage: return nil
        default: return PorterError(.notADatabase, diagnosis.message, location: path)
        }
    }
}

extension CheckCommand {
    /// `porter check --json`: one JSON document with the diagnosis, its evidence and the problems found.
    func runJSON(output: CommandOutput) throws {
        var members: [JSONMember] = [JSONMember("file", .string(database))]
        var problems: [String] = []
        var ok = false
        if StoredFileKind.of(path: database) == .porterDatabase && encryption.encryptionKey == nil
            && encryption.encryptionKeyFile == nil
        {
            members.append(JSONMember("kind", .string("porter")))
            do {
                problems = try Database.open(at: database, readOnly: true).checkConsistency()
                ok = problems.isEmpty
                members.append(JSONMember("diagnosis", .string(ok ? "ok" : "damaged")))
            } catch let error as PorterError {
                members.append(JSONMember("diagnosis", .string("damaged")))
                members.append(JSONMember("message", .string(error.message)))
            }
        } else {
            members.append(JSONMember("kind", .string("realm")))
            let diagnosis = RealmFileDiagnosis.diagnose(path: database, encryptionKey: try encryption.key())
            if case .object(let found) = diagnosis.json { members += found }
            ok = diagnosis.kind == .ok
            if diagnosis.kind == .damaged,
                let file = try? RealmFile(path: database, encryptionKey: try encryption.key())
            {
                problems = (try? file.check()) ?? []
            }
        }
        members.insert(JSONMember("ok", .bool(ok)), at: 1)
        members.append(JSONMember("problems", .array(problems.map { .string($0) })))
        output.out(JSONValue.object(members).serialized(pretty: true))
        if !ok { throw ExitCode(1) }
    }
}
