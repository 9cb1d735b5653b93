import Foundation
import Porter

extension BenchRun {
    /// The realm-core oracle (`../shared/tools/realm-oracle/realm-oracle`, or `$REALM_ORACLE`), when present.
    var realmOracle: String? {
        let candidates = [
            ProcessInfo.processInfo.environment["REALM_ORACLE"],
            "../shared/tools/realm-oracle/realm-oracle",
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// realm-core's own figures for `objects` flat objects (`realm-oracle bench`, run once per
    /// bench and left in `work/realm`), or nil when the oracle is not present.
    mutating func realmCoreFigures() throws -> [String: Any]? {
        if let realmCore { return realmCore }
        guard let oracle = realmOracle else { return nil }
        let dir = try freshFolder("realm")
        let made = try measure(oracle, ["bench", String(objects), dir], once: true)
        guard let data = made.stdout.data(using: .utf8),
            let core = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw BenchError("realm-oracle bench printed no JSON: \(made.stdout.prefix(300))")
        }
        realmCore = core
        return core
    }

    /// Real Realm files: realm-core's own figures (`realm-oracle bench`: insert, read, migrate of the
    /// flat `Item` class) and the export of the Realm file it leaves next to the export of the same
    /// objects from a Porter database. Skipped, with a note, when the oracle is not present.
    mutating func runRealmFiles() throws {
        guard realmOracle != nil else {
            print(
                "  Realm file rows skipped: realm-oracle not found (../shared/tools/realm-oracle/realm-oracle or $REALM_ORACLE)"
            )
            rows.append(
                ResultRow(
                    operation: "realm file rows", shape: "item", objects: 0, seconds: 0, bytes: 0, peakRSSBytes: 0,
                    note: "skipped: realm-oracle not found"))
            return
        }
        // The oracle's bench ran already when the typed rows needed its figures: run once per bench.
        guard let core = try realmCoreFigures() else { return }
        let dir = "\(work)/realm"
        let realmFile = "\(dir)/bench.realm"
        for (name, key) in [
            ("realm-core insert (one write)", "insertSeconds"), ("realm-core read all properties", "readAllSeconds"),
            ("realm-core migrate rename+add+convert", "migrationSeconds"),
        ] {
            let seconds = core[key] as? Double ?? 0
            let m = Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
            record(name, "item", m, bytes: diskSize(realmFile), note: "realm-core 14.14.0 (realm-oracle bench)")
        }
        // The same objects in a Porter database, then both exported to BSON.
        let porterCopy = "\(dir)/bench.porter"
        _ = try measure(porter, ["import", porterCopy, realmFile, "--create"], once: true) {
            removeDatabase(porterCopy)
        }
        let fromPorter = try measure(
            porter, ["export", porterCopy, "--out", "\(dir)/export-porter", "--format", "bson"]
        ) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-porter")
        }
        record("export bson (Porter database)", "item", fromPorter, bytes: diskSize("\(dir)/export-porter"))
        let fromRealm = try measure(porter, ["export", realmFile, "--out", "\(dir)/export-realm", "--format", "bson"]) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-realm")
        }
        record(
            "export bson (Realm file)", "item", fromRealm, bytes: diskSize("\(dir)/export-realm"),
            reference: ("export from a Porter database", fromPorter), target: 1.0)
        let insert = Measured(
            seconds: core["insertSeconds"] as? Double ?? 0, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
        try runRealmWrites(
            dir: dir, porterCopy: porterCopy, coreInsert: insert,
            coreMigration: Measured(
                seconds: core["migrationSeconds"] as? Double ?? 0, peakRSSBytes: 0, status: 0, stdout: "", stderr: ""))
    }

    /// Writing Realm files: the writer on realm-core's own bench objects (in one process, objects
    /// made on the fly, as realm-core's insert), `porter export --format realm` of a Porter
    /// database, and `porter migrate` of a Realm file with realm-core's bench migration.
    mutating func runRealmWrites(dir: String, porterCopy: String, coreInsert: Measured, coreMigration: Measured) throws
    {
        let writerBench = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent(
            "porter-realm-write-bench"
        ).path
        if FileManager.default.isExecutableFile(atPath: writerBench) {
            let written = try measure(writerBench, [String(objects), "\(dir)/written.realm"]) {
                try? FileManager.default.removeItem(atPath: "\(dir)/written.realm")
            }
            record(
                "write Realm file (writer)", "item", written, bytes: diskSize("\(dir)/written.realm"),
                reference: ("realm-core insert", coreInsert), target: 1.0)
        }
        let exported = "\(dir)/exported.realm"
        let fromPorter = try measure(porter, ["export", porterCopy, "--format", "realm", "--out", exported]) {
            try? FileManager.default.removeItem(atPath: exported)
        }
        record(
            "export --format realm", "item", fromPorter, bytes: diskSize(exported),
            reference: ("realm-core insert", coreInsert))
        // realm-core's bench migration: note -> comment, a new optional double, n int -> string.
        let v1 = "\(dir)/items-v1.json", v2 = "\(dir)/items-v2.json", data = "\(dir)/Item.json"
        try
            #"{"schemaVersion": 1, "classes": [{"name": "Item", "primaryKey": "_id", "properties": {"_id": "int", "n": "int", "x": "double", "y": "double", "name": "string", "note": "string", "flag": "bool", "ts": "date"}}]}"#
            .write(toFile: v1, atomically: true, encoding: .utf8)
        try
            #"{"schemaVersion": 2, "classes": [{"name": "Item", "primaryKey": "_id", "properties": {"_id": "int", "n": "string", "x": "double", "y": "double", "name": "string", "comment": "string", "flag": "bool", "ts": "date", "score": "double?"}}]}"#
            .write(toFile: v2, atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: data, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data))
        var chunk = ""
        for i in 0..<objects {
            chunk +=
                #"{"_id":\#(i),"n":\#(i),"x":\#(Double(i) * 0.5),"y":\#(Double(i) * 0.25),"name":"name-\#(i)","note":"fixed-note-24-characters","flag":\#(i % 2 == 1),"ts":{"$date":{"$numberLong":"\#(i * 1000)"}}}"#
                + "\n"
            if chunk.utf8.count > 1 << 20 { handle.write(Data(chunk.utf8)); chunk = "" }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
        let itemsDB = "\(dir)/items.porter", itemsRealm = "\(dir)/items-v1.realm", copy = "\(dir)/migrate.realm"
        _ = try measure(porter, ["import", itemsDB, data, "--create", "--schema", v1, "--format", "ejson"], once: true)
        { removeDatabase(itemsDB) }
        _ = try measure(porter, ["export", itemsDB, "--format", "realm", "--out", itemsRealm], once: true) {
            try? FileManager.default.removeItem(atPath: itemsRealm)
        }
        let migrated = try measure(porter, ["migrate", copy, "--to", v2, "--rename", "Item.note=comment"]) {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: itemsRealm, toPath: copy)
        }
        record(
            "migrate Realm file rename+add+convert", "item", migrated, bytes: diskSize(copy),
            reference: ("realm-core migration", coreMigration), target: 3.0)
    }
}
