import Foundation
import Porter

extension BenchRun {
    /// `porter diff` of two 500-class schemas that differ in a few places per class.
    mutating func runSchemaDiff() throws {
        let dir = "\(work)/diff"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func schema(_ version: Int) -> Schema {
            let classes = (0..<500).map { i -> ObjectSchema in
                var properties = [Property(name: "_id", type: .objectId)]
                for p in 0..<12 {
                    let type: PropertyType = [.int, .string, .double, .bool, .date][p % 5]
                    let name = version == 2 && p == 3 ? "renamed\(p)" : "field\(p)"
                    let optional = version == 2 && p == 5 && i % 2 == 0
                    properties.append(
                        Property(
                            name: name, type: type, optional: optional,
                            indexed: version == 2 && p == 1 && type != .double))
                }
                if version == 2 { properties.append(Property(name: "added", type: .string, optional: true)) }
                return ObjectSchema(name: "Class\(i)", properties: properties, primaryKey: "_id")
            }
            return Schema(version: UInt64(version), classes: classes)
        }
        try schema(1).jsonString().write(toFile: "\(dir)/v1.json", atomically: true, encoding: .utf8)
        try schema(2).jsonString().write(toFile: "\(dir)/v2.json", atomically: true, encoding: .utf8)
        let m = try measure(porter, ["diff", "\(dir)/v1.json", "\(dir)/v2.json"])
        record(
            "diff 500-class schemas", "schema", m, bytes: diskSize("\(dir)/v1.json") + diskSize("\(dir)/v2.json"),
            objects: 500,
            note: "no reference")
    }

    /// Typed-model writes, reads and a sorted query through managed objects, on the full N: next
    /// to SQLite loops doing the same, and to realm-core's own insert and read figures from the
    /// oracle in the same run (without it those rows are not measured; targets: reads ≤ 3×, one-write
    /// inserts and the sorted query ≤ 2×). Then the per-test fixture load (≤ 5 ms).
    mutating func runTypedAndFixtures() throws {
        let dir = try freshFolder("typed")
        let count = objects
        let path = "\(dir)/typed.porter"
        let written = try child(["typed-write", String(count), path]) { removeDatabase(path) }
        let refInsert = try child(["ref-insert", path, "\(dir)/reference-insert.porter"])
        record(
            "typed writes (managed objects)", "flat", written, bytes: diskSize(path), objects: count,
            reference: ("prepared-insert loop", refInsert), referenceObjects: count)
        let read = try child(["typed-read", path])
        let scan = try child(["ref-scan", path])
        record(
            "typed reads (managed objects)", "flat", read, bytes: diskSize(path), objects: count,
            reference: ("sqlite3_step loop", scan), referenceObjects: count)
        let query = try child(["typed-query", path])
        let refQuery = try child(["ref-query", path])
        record(
            "typed query+sort, count+first", "flat", query, bytes: diskSize(path), objects: count,
            reference: ("SQL WHERE/ORDER BY loop", refQuery), referenceObjects: count)
        if let core = try realmCoreFigures() {
            // The oracle's figures for the typed rows' own class (`BenchItem`: ObjectId key, name,
            // count, price, ratio, active, created, note?) where it has them, else its `Item` figures.
            for (operation, m, keys, label, target) in [
                (
                    "typed writes vs realm-core", written, ["typedInsertSeconds", "insertSeconds"],
                    "realm-core insert (one write)", 2.0
                ),
                (
                    "typed reads vs realm-core", read, ["typedReadAllSeconds", "readAllSeconds"],
                    "realm-core read all properties", 3.0
                ),
                ("typed query+sort vs realm-core", query, ["querySeconds"], "realm-core query+sort, count+first", 2.0),
            ] {
                guard let seconds = keys.lazy.compactMap({ core[$0] as? Double }).first else {
                    // An oracle without this figure: the row has no reference (never a quoted one).
                    record(
                        operation, "flat", m, bytes: diskSize(path), objects: count,
                        note: "not measured: realm-oracle printed no \(keys[0])")
                    continue
                }
                let coreRun = Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
                record(
                    operation, "flat", m, bytes: diskSize(path), objects: count, reference: (label, coreRun),
                    referenceObjects: objects, target: target,
                    note: "realm-core \(core["core"] ?? "14.14") (realm-oracle bench)")
            }
        } else {
            // Without realm-core in this run the rows have no reference: a figure quoted from
            // another machine or time is "not measured", never "met".
            print("  realm-oracle not found ($REALM_ORACLE): the realm-core rows are not measured")
        }
        let rounds = 20
        let process = try child(["fixture-load", String(rounds)])
        // The loads as the child's own clock times them: the process's start (the Swift runtime,
        // Foundation, dynamic linking: 20-40 ms here) is no part of loading a fixture, and divided
        // among the loads it added 1-2 ms to each. The figure with it is kept in the note.
        var fixture = process
        let fields = process.stdout.split(whereSeparator: \.isWhitespace)
        if fields.count >= 3, let loops = Double(fields[2]) { fixture.seconds = loops }
        let perLoad = fixture.seconds / Double(rounds) * 1000
        let withStart = process.seconds / Double(rounds) * 1000
        record(
            "fixture load (1,000 objects)", "linked", fixture, bytes: 0, objects: rounds * 1000,
            note: String(
                format: "in-memory realm, %.1f ms per load (≤ 5 ms %@); %.1f ms with the process's start",
                perLoad, (perLoad <= 5 ? "met" : "MISSED") as NSString, withStart)
        )
    }

    /// pymongo's `bson.encode`/`decode_all` and `json_util` on the same documents, when available.
    mutating func runPymongo() throws {
        let bsonFile = "\(work)/flat/export-bson/Item.bson"
        guard FileManager.default.fileExists(atPath: bsonFile) else { return }
        let script = """
            import sys, time, json
            try:
                import bson
                from bson import json_util
            except ImportError:
                print(json.dumps({"skipped": "pymongo is not installed"})); sys.exit(0)
            data = open(sys.argv[1], 'rb').read()
            t = time.perf_counter(); docs = bson.decode_all(data); decode = time.perf_counter() - t
            t = time.perf_counter(); out = b''.join(bson.encode(d) for d in docs); encode = time.perf_counter() - t
            opts = json_util.JSONOptions(json_mode=json_util.JSONMode.RELAXED)
            t = time.perf_counter(); text = '\\n'.join(json_util.dumps(d, json_options=opts) for d in docs); dumps = time.perf_counter() - t
            t = time.perf_counter(); [json_util.loads(line) for line in text.split('\\n')]; loads = time.perf_counter() - t
            print(json.dumps({"docs": len(docs), "bytes": len(data), "decode": decode, "encode": encode, "dumps": dumps, "loads": loads}))
            """
        let scriptPath = "\(work)/pymongo_bench.py"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        // The python3 on PATH first (where `pip install pymongo` puts it), then the system one.
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
            "\($0)/python3"
        }
        guard
            let python = (searchPath + ["/usr/bin/python3"]).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            print("  pymongo comparison skipped: python3 not found")
            return
        }
        let m = try ChildProcess.run(python, [scriptPath, bsonFile])
        guard m.status == 0, let data = m.stdout.data(using: .utf8),
            let result = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            print("  pymongo comparison failed: \(m.stderr.prefix(300))")
            return
        }
        if let skipped = result["skipped"] as? String {
            print("  pymongo comparison skipped: \(skipped)")
            rows.append(
                ResultRow(
                    operation: "pymongo comparison", shape: "flat", objects: 0, seconds: 0, bytes: 0, peakRSSBytes: 0,
                    note: "skipped: \(skipped)"))
            return
        }
        let docs = result["docs"] as? Int ?? 0
        let bytes = result["bytes"] as? Int ?? 0
        func porterRow(_ op: String) -> ResultRow? { rows.first { $0.operation == op && $0.shape == "flat" } }
        let pairs: [(String, String, String)] = [
            ("export bson", "encode", "pymongo bson.encode"),
            ("import bson", "decode", "pymongo bson.decode_all"),
            ("export ejson", "dumps", "pymongo json_util.dumps"),
            ("import ejson", "loads", "pymongo json_util.loads"),
        ]
        for (op, key, label) in pairs {
            guard let porterRow = porterRow(op), let seconds = result[key] as? Double else { continue }
            var row = porterRow
            row.reference = label
            row.referenceSeconds = seconds
            row.target = nil
            row.note = "vs pymongo"
            rows.append(row)
            print(
                String(
                    format: "  %-28@ flat    %.2f× %@ (%d docs, %d bytes)", op as NSString, row.ratio ?? 0, label, docs,
                    bytes))
        }
    }

    /// The migration scenario: rename one property, add one, convert one int→string.
    mutating func runMigration(_ shape: Shape, dir: String, source: String) throws {
        let porterCopy = "\(dir)/migrate.porter"
        let referenceCopy = "\(dir)/migrate-reference.porter"
        // Every run migrates a fresh copy of the source.
        func copySource(to copy: String) throws {
            removeDatabase(copy)
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            if FileManager.default.fileExists(atPath: source + "-wal") {
                try FileManager.default.copyItem(atPath: source + "-wal", toPath: copy + "-wal")
            }
        }
        let target = try MigrationScenario.writeFiles(shape, dir: dir)
        let m = try measure(porter, MigrationScenario.arguments(database: porterCopy, target: target)) {
            try copySource(to: porterCopy)
        }
        let extra = shape == .linked || shape == .onelink ? ["owner"] : (shape == .nested ? ["address"] : [])
        let reference = try child(["ref-migrate", referenceCopy, extra.joined(separator: ",")]) {
            try copySource(to: referenceCopy)
        }
        record(
            "migrate rename+add+convert", shape.rawValue, m, bytes: diskSize(porterCopy),
            reference: ("SQL table rebuild", reference), target: 3.0)
    }
}
