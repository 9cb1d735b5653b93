import Foundation
import Porter

extension BenchRun {
    /// Issue #40's rows, side by side in one run: N flat objects of a Realm file loaded into
    /// PostgreSQL by `porter export --to postgresql://…` (the whole process: read, COPY, indexes,
    /// one transaction) against psql's own `\copy` of the same rows from the CSV file Porter
    /// exports, into the same table (at most 1.5×); and the SQL file export (`--format postgres`)
    /// against the SQLite export of the same file (at most 2×). The server is a private one
    /// (`scripts/postgres-server.sh`, Debian's `postgresql`), started here and stopped at the end;
    /// skipped, with a note, without it or without psql.
    mutating func runPostgres() throws {
        let script = FileManager.default.currentDirectoryPath + "/scripts/postgres-server.sh"
        guard FileManager.default.fileExists(atPath: script), let psql = Self.findOnPath("psql") else {
            print("  postgres rows skipped: scripts/postgres-server.sh or psql not found (apt-get install postgresql)")
            return
        }
        let dir = "\(work)/postgres"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let realmFile = "\(dir)/items.realm"
        _ = try child(["realmfile-write", String(objects), realmFile], once: true)

        let started = try ChildProcess.run("/bin/sh", [script, "start"])
        guard started.status == 0 else { throw BenchError("postgres-server.sh start failed: \(started.stderr)") }
        let server = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { _ = try? ChildProcess.run("/bin/sh", [script, "stop", server]) }
        let socket = server + "/socket"
        func sql(_ statement: String, database: String = "bench") throws {
            let run = try ChildProcess.run(
                psql,
                ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socket, "-U", "porter", "-d", database, "-c", statement])
            guard run.status == 0 else { throw BenchError("psql \(statement): \(run.stderr.prefix(300))") }
        }
        try sql("CREATE DATABASE bench", database: "postgres")
        let url = "postgresql://porter@/bench?host=\(socket)"

        // porter export --to: each run into an empty schema.
        let loaded = try measure(porter, ["export", realmFile, "--to", url, "--quiet"]) {
            try sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        }
        // psql's \copy of Porter's CSV into the same table (its key, as --to makes it), emptied
        // first; the nanoseconds column (not in the CSV) defaults to 0.
        let csvFolder = "\(dir)/csv"
        _ = try measure(porter, ["export", realmFile, "--format", "csv", "--out", csvFolder, "--quiet"], once: true)
        let table = BenchItem.className()
        let csv = "\(csvFolder)/\(table).csv"
        guard
            let header = try String(contentsOfFile: csv, encoding: .utf8).prefix(4096).split(
                whereSeparator: \.isNewline
            ).first
        else { throw BenchError("no CSV header in \(csv)") }
        let columns = header.split(separator: ",").map {
            "\"\($0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))\""
        }
        let copy =
            "\\copy \"\(table)\" (\(columns.joined(separator: ", "))) FROM '\(csv)' WITH (FORMAT csv, HEADER true)"
        let copied = try measure(
            psql, ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socket, "-U", "porter", "-d", "bench", "-c", copy]
        ) {
            try sql("TRUNCATE \"\(table)\"; ALTER TABLE \"\(table)\" ALTER COLUMN \"created_ns\" SET DEFAULT 0")
        }
        record(
            "porter export --to postgresql", "flat", loaded, bytes: diskSize(realmFile),
            reference: ("psql \\copy of Porter's CSV", copied), target: 1.5,
            note: "porter: the whole process from the Realm file; psql: the CSV into the same table")

        // The SQL file export against the SQLite export of the same file.
        let sqlFile = "\(dir)/items.sql", sqliteFile = "\(dir)/items.sqlite"
        let sqlExport = try measure(porter, ["export", realmFile, "--format", "postgres", "--out", sqlFile, "--quiet"])
        {
            try? FileManager.default.removeItem(atPath: sqlFile)
        }
        let sqliteExport = try measure(
            porter, ["export", realmFile, "--format", "sqlite", "--out", sqliteFile, "--quiet"]
        ) {
            try? FileManager.default.removeItem(atPath: sqliteFile)
        }
        record(
            "porter export --format postgres", "flat", sqlExport, bytes: diskSize(sqlFile),
            reference: ("porter export --format sqlite", sqliteExport), target: 2.0)
    }

    /// The first executable `name` on `PATH`.
    static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
