import ArgumentParser
import Foundation
import Porter
import PorterRealm

extension StoreFile {
    /// Opens a Realm file read-only; a refusal says why the file will not open.
    static func openRealm(_ path: String, key: [UInt8]?) throws -> RealmFile {
        try RealmFileOpening.openDiagnosed(path, key: key)
    }

    /// The diagnosis of a file that will not open, as an error; nil when it has nothing to add.
    static func diagnosed(_ path: String, key: [UInt8]?, includeDamage: Bool = false) -> PorterError? {
        RealmFileOpening.diagnosed(path, key: key, includeDamage: includeDamage)
    }
}

extension CheckCommand {
    /// `porter check --json`: one JSON document with the diagnosis, its evidence and the problems found.
    func runJSON(output: CommandOutput) throws {
        let report = RealmFileOpening.checkReport(database, key: try encryption.key())
        output.out(report.json.serialized(pretty: true))
        if !report.ok { throw ExitCode(1) }
    }
}
