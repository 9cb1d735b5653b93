import Foundation

extension BenchRun {
    /// Issue #19's walks on Realm files of `objects` objects, made here by Porter (no realm-core
    /// needed): `porter diff` against a changed schema, read from the file itself (no copy: at most
    /// the time of reading the file once, the export to BSON beside it), and a general-path
    /// migration (a class made embedded).
    mutating func runRealmDiffAndEmbedding() throws {
        let dir = "\(work)/realm-walks"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The flat `Item` class of realm-core's bench, against realm-core's bench migration schema
        // (a property removed, one added, one retyped).
        let v1 = "\(dir)/items-v1.json", v2 = "\(dir)/items-v2.json", data = "\(dir)/Item.json"
        try
            #"{"schemaVersion": 1, "classes": [{"name": "Item", "primaryKey": "_id", "properties": {"_id": "int", "n": "int", "x": "double", "y": "double", "name": "string", "note": "string", "flag": "bool", "ts": "date"}}]}"#
            .write(toFile: v1, atomically: true, encoding: .utf8)
        try
            #"{"schemaVersion": 2, "classes": [{"name": "Item", "primaryKey": "_id", "properties": {"_id": "int", "n": "string", "x": "double", "y": "double", "name": "string", "comment": "string", "flag": "bool", "ts": "date", "score": "double?"}}]}"#
            .write(toFile: v2, atomically: true, encoding: .utf8)
        try writeLines(data) {
            #"{"_id":\#($0),"n":\#($0),"x":\#(Double($0) * 0.5),"y":\#(Double($0) * 0.25),"name":"name-\#($0)","note":"fixed-note-24-characters","flag":\#($0 % 2 == 1),"ts":{"$date":{"$numberLong":"\#($0 * 1000)"}}}"#
        }
        let itemsDB = "\(dir)/items.porter", itemsRealm = "\(dir)/items-v1.realm"
        _ = try measure(porter, ["import", itemsDB, data, "--create", "--schema", v1, "--format", "ejson"], once: true)
        { removeDatabase(itemsDB) }
        _ = try measure(porter, ["export", itemsDB, "--format", "realm", "--out", itemsRealm], once: true) {
            try? FileManager.default.removeItem(atPath: itemsRealm)
        }
        let once = try measure(porter, ["export", itemsRealm, "--out", "\(dir)/export-items", "--format", "bson"]) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-items")
        }
        let diff = try measure(porter, ["diff", itemsRealm, v2])
        record(
            "diff Realm file vs changed schema", "item", diff, bytes: diskSize(itemsRealm),
            reference: ("export bson of the file (one read)", once), target: 1.0)
        // `Holder` objects each own one `Item`; the migration makes `Item` embedded.
        let h1 = "\(dir)/holders-v1.json", h2 = "\(dir)/holders-v2.json"
        let properties = #""n": "int", "name": "string""#
        try
            #"{"schemaVersion": 1, "classes": [{"name": "Holder", "primaryKey": "_id", "properties": {"_id": "int", "item": "Item?"}}, {"name": "Item", "properties": {\#(properties)}}]}"#
            .write(toFile: h1, atomically: true, encoding: .utf8)
        try
            #"{"schemaVersion": 2, "classes": [{"name": "Holder", "primaryKey": "_id", "properties": {"_id": "int", "item": "Item?"}}, {"name": "Item", "embedded": true, "properties": {\#(properties)}}]}"#
            .write(toFile: h2, atomically: true, encoding: .utf8)
        let items = "\(dir)/Item.json", holders = "\(dir)/Holder.json"
        try writeLines(items) { #"{"_key":\#($0),"n":\#($0),"name":"name-\#($0)"}"# }
        try writeLines(holders) { #"{"_id":\#($0),"item":\#($0)}"# }
        let database = "\(dir)/holders.porter", realm = "\(dir)/holders-v1.realm", copy = "\(dir)/embed.realm"
        _ = try measure(
            porter, ["import", database, items, holders, "--create", "--schema", h1, "--format", "ejson"], once: true
        ) { removeDatabase(database) }
        _ = try measure(porter, ["export", database, "--format", "realm", "--out", realm], once: true) {
            try? FileManager.default.removeItem(atPath: realm)
        }
        let read = try measure(porter, ["export", realm, "--out", "\(dir)/export-holders", "--format", "bson"]) {
            try? FileManager.default.removeItem(atPath: "\(dir)/export-holders")
        }
        let embedded = try measure(porter, ["migrate", copy, "--to", h2]) {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: realm, toPath: copy)
        }
        record(
            "migrate Realm file: class made embedded (general path)", "item", embedded, bytes: diskSize(copy),
            reference: ("export bson of the file (one read)", read))
    }

    /// Writes `objects` lines made by `line` (given 0, 1, …) to `path`, a megabyte at a time.
    private func writeLines(_ path: String, _ line: (Int) -> String) throws {
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var chunk = ""
        for i in 0..<objects {
            chunk += line(i) + "\n"
            if chunk.utf8.count > 1 << 20 { handle.write(Data(chunk.utf8)); chunk = "" }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
    }
}
