import Foundation
import Porter

/// Orchestrates one `make bench` run.
struct BenchRun {
    let objects: Int
    let shapes: [Shape]
    let work: String
    let jsonPath: String
    let porter: String
    let selfPath: String
    /// Runs of each operation; the fastest counts (noise only ever slows a run down).
    let repeats: Int
    /// Which rows run: `all` (`make bench`), or `leaving` (per shape: the build, `export bson` and
    /// ``runLeavingRealm(_:dir:source:exportBSON:)``), to measure issue 20's rows alone.
    let selectedRows: String
    var rows: [ResultRow] = []
    /// realm-core's own figures (`realm-oracle bench` JSON), once run; see ``realmCoreFigures()``.
    var realmCore: [String: Any]?

    init(objects: Int, shapes: [Shape], work: String, jsonPath: String, repeats: Int, rows: String = "all") throws {
        guard rows == "all" || rows == "leaving" else { throw BenchError("rows are all or leaving, not '\(rows)'") }
        selectedRows = rows
        self.objects = objects
        self.repeats = max(1, repeats)
        self.shapes = shapes
        self.work = work
        self.jsonPath = jsonPath
        selfPath = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        porter = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("porter").path
        guard FileManager.default.isExecutableFile(atPath: porter) else {
            throw BenchError(
                "the porter binary is missing next to porter-bench (\(porter)); build it with 'swift build -c release'")
        }
    }

    /// Runs a child `repeats` times (`prepare` first, each time, to restore its inputs) and keeps
    /// the fastest run, with the highest peak memory of all runs; fails loudly when a run fails
    /// (a benchmark of a failing command means nothing).
    func measure(_ executable: String, _ args: [String], once: Bool = false, prepare: () throws -> Void = {}) throws
        -> Measured
    {
        var best: Measured?
        for _ in 0..<(once ? 1 : repeats) {
            try prepare()
            var m = try ChildProcess.run(executable, args)
            guard m.status == 0 || (m.status == 2 && args.first == "diff") else {
                throw BenchError(
                    "\(URL(fileURLWithPath: executable).lastPathComponent) \(args.joined(separator: " ")) failed (\(m.status)): \(m.stderr.prefix(500))"
                )
            }
            if let previous = best {
                m.peakRSSBytes = max(m.peakRSSBytes, previous.peakRSSBytes)
                if previous.seconds <= m.seconds { m.seconds = previous.seconds }
            }
            best = m
        }
        return best!
    }

    /// `work/name`, emptied (a leftover of an earlier run removed) and created.
    func freshFolder(_ name: String) throws -> String {
        let dir = "\(work)/\(name)"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func child(_ args: [String], once: Bool = false, prepare: () throws -> Void = {}) throws -> Measured {
        try measure(selfPath, ["child"] + args, once: once, prepare: prepare)
    }

    mutating func record(
        _ operation: String, _ shape: String, _ m: Measured, bytes: Int, objects: Int? = nil,
        reference: (String, Measured)? = nil, referenceObjects: Int? = nil, target: Double? = nil, note: String? = nil
    ) {
        let row = ResultRow(
            operation: operation, shape: shape, objects: objects ?? self.objects, seconds: m.seconds, bytes: bytes,
            peakRSSBytes: m.peakRSSBytes, reference: reference?.0, referenceSeconds: reference?.1.seconds,
            referenceObjects: referenceObjects, target: target, note: note)
        rows.append(row)
        let ratio = row.ratio.map { String(format: " (%.2f× %@)", $0, reference!.0) } ?? ""
        print(
            String(
                format: "  %-28@ %-7@ %10.0f obj/s %8.1f MB/s %6.0f MB peak%@", operation as NSString,
                shape as NSString,
                row.objectsPerSecond, row.megabytesPerSecond, Double(m.peakRSSBytes) / 1_048_576, ratio))
    }

    mutating func runAll() throws {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        print(
            "porter-bench: \(objects) objects per shape, shapes: \(shapes.map(\.rawValue).joined(separator: ", ")), best of \(repeats) runs, work folder \(work)"
        )
        try runEverything()
        print("")
        print(Report.format(rows))
        try Report.writeJSON(rows, objects: objects, to: jsonPath)
        print("\nResults written to \(jsonPath)")
    }

    private mutating func runEverything() throws {
        for shape in shapes { try runShape(shape) }
        // `--only leaving`: the shapes' build, export bson and "Leaving Realm" rows alone.
        if selectedRows == "leaving" { return }
        try runSchemaDiff()
        try runCreateScaling()
        try runTypedAndFixtures()
        try runTypedRealmFile()
        try runPymongo()
        try runBindings()
        try runCheck()
        try runPostgres()
        try runRealmFiles()
        try runRealmDiffAndEmbedding()
        try runStudio()
    }

    /// Runs only the rows `body` adds (no generated shapes), then reports them as ``runAll()`` does.
    mutating func runOnly(_ body: (inout BenchRun) throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        print("porter-bench: \(objects) objects, best of \(repeats) runs, work folder \(work)")
        try body(&self)
        print("")
        print(Report.format(rows))
        try Report.writeJSON(rows, objects: objects, to: jsonPath)
        print("\nResults written to \(jsonPath)")
    }

    mutating func runShape(_ shape: Shape) throws {
        let dir = "\(work)/\(shape.rawValue)"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let db = "\(dir)/source.porter"
        let built = try child(["build", shape.rawValue, String(objects), db], once: true)
        print(
            String(
                format: "%@: built %d objects in %.1f s (%.0f MB on disk)", shape.rawValue, objects, built.seconds,
                Double(diskSize(db)) / 1_048_576))

        if selectedRows == "leaving" {
            let out = "\(dir)/export-bson"
            let m = try measure(porter, ["export", db, "--out", out, "--format", "bson"]) {
                try? FileManager.default.removeItem(atPath: out)
            }
            record("export bson", shape.rawValue, m, bytes: diskSize(out))
            return try runLeavingRealm(shape, dir: dir, source: db, exportBSON: m)
        }
        let refBSON = try child(["ref-bson", db, shape.rawValue, "\(dir)/reference.bson"])
        let refRow = ("sqlite3+libbson loop", refBSON)
        record("reference: sqlite3+libbson", shape.rawValue, refBSON, bytes: diskSize("\(dir)/reference.bson"))
        let exportTargets: [String: Double] = ["bson": 1.5, "ejson": 2.0]
        var exportBSON: Measured?
        for format in ["bson", "ejson", "ejson-canonical", "json"] {
            let out = "\(dir)/export-\(format)"
            let m = try measure(porter, ["export", db, "--out", out, "--format", format]) {
                try? FileManager.default.removeItem(atPath: out)
            }
            record(
                "export \(format)", shape.rawValue, m, bytes: diskSize(out), reference: refRow,
                target: shape.hasInterchangeTargets ? exportTargets[format] : nil)
            if format == "bson" { exportBSON = m }
        }
        if let exportBSON { try runLeavingRealm(shape, dir: dir, source: db, exportBSON: exportBSON) }
        let refInsert = try child(["ref-insert", db, "\(dir)/reference-insert.porter"])
        record(
            "reference: prepared inserts", shape.rawValue, refInsert, bytes: diskSize("\(dir)/reference-insert.porter"))
        for format in ["bson", "ejson", "json"] {
            let target = "\(dir)/import-\(format).porter"
            let m = try measure(porter, ["import", target, "\(dir)/export-\(format)", "--create"]) {
                removeDatabase(target)
            }
            record(
                "import \(format)", shape.rawValue, m, bytes: diskSize("\(dir)/export-\(format)"),
                reference: ("prepared-insert loop", refInsert), target: shape.hasInterchangeTargets ? 2.0 : nil)
            if format == "bson" && shape == .flat { try runBSONImportFloor(dir: dir, source: db, importBSON: m) }
        }
        try runMigration(shape, dir: dir, source: db)
    }
}

/// Removes a database file and its WAL and shared-memory files, if present.
func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
