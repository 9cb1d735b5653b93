import Foundation
import Porter

extension BenchRun {
    /// The realm-core oracle (`../shared/tools/realm-oracle/realm-oracle`, or `$REALM_ORACLE`), when present.
    var realmOracle: String? {
        let candidates = [ProcessInfo.processInfo.environment["REALM_ORACLE"],
                          "../shared/tools/realm-oracle/realm-oracle"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Real Realm files: realm-core's own figures (`realm-oracle bench`: insert, read, migrate of the
    /// flat `Item` class) and the export of the Realm file it leaves next to the export of the same
    /// objects from a Porter database. Skipped, with a note, when the oracle is not present.
    mutating func runRealmFiles() throws {
        guard let oracle = realmOracle else {
            print("  Realm file rows skipped: realm-oracle not found (../shared/tools/realm-oracle/realm-oracle or $REALM_ORACLE)")
            rows.append(ResultRow(operation: "realm file rows", shape: "item", objects: 0, seconds: 0, bytes: 0, peakRSSBytes: 0,
                                  note: "skipped: realm-oracle not found"))
            return
        }
        let dir = "\(work)/realm"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let made = try measure(oracle, ["bench", String(objects), dir], once: true)
        guard let data = made.stdout.data(using: .utf8),
              let core = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("realm-oracle bench printed no JSON: \(made.stdout.prefix(300))")
        }
        let realmFile = "\(dir)/bench.realm"
        for (name, key) in [("realm-core insert (one write)", "insertSeconds"), ("realm-core read all properties", "readAllSeconds"),
                            ("realm-core migrate rename+add+convert", "migrationSeconds")] {
            let seconds = core[key] as? Double ?? 0
            let m = Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
            record(name, "item", m, bytes: diskSize(realmFile), note: "realm-core 14.14.0 (realm-oracle bench)")
        }
        // The same objects in a Porter database, then both exported to BSON.
        let porterCopy = "\(dir)/bench.porter"
        _ = try measure(porter, ["import", porterCopy, realmFile, "--create"], once: true) { removeDatabase(porterCopy) }
        let fromPorter = try measure(porter, ["export", porterCopy, "--out", "\(dir)/export-porter", "--format", "bson"]) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-porter")
        }
        record("export bson (Porter database)", "item", fromPorter, bytes: diskSize("\(dir)/export-porter"))
        let fromRealm = try measure(porter, ["export", realmFile, "--out", "\(dir)/export-realm", "--format", "bson"]) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-realm")
        }
        record("export bson (Realm file)", "item", fromRealm, bytes: diskSize("\(dir)/export-realm"),
               reference: ("export from a Porter database", fromPorter), target: 1.0)
    }
}
