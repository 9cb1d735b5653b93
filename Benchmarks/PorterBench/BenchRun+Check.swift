import Foundation
import Porter

extension BenchRun {
    /// Issue #35's row: `porter check` of a Realm file of N flat objects (the whole process: start,
    /// open, every check) against realm-core's own check of the same file, `realm-oracle check`
    /// (realm-core 14.14 built outside the repository: `Group::verify`, then what realm-core relies
    /// on when it reads, by its own code on every object: primary-key and search-index lookups,
    /// set order, backlink counts, embedded parents; its seconds exclude its start and open). At
    /// most 1.5×. Skipped, with a note, without the oracle.
    mutating func runCheck() throws {
        try runPorterDatabaseCheck()
        try runCheckedExports()
        guard let oracle = realmOracle else {
            print("  check rows skipped: realm-oracle not found ($REALM_ORACLE)")
            return
        }
        let dir = try freshFolder("check")
        let realmFile = "\(dir)/items.realm"
        _ = try child(["realmfile-write", String(objects), realmFile], once: true)
        let checked = try measure(porter, ["check", realmFile])
        var best: Double?
        for _ in 0..<repeats {
            let run = try measure(oracle, ["check", realmFile], once: true)
            guard let data = run.stdout.split(separator: "\n").last.map({ Data($0.utf8) }),
                let report = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                report["ok"] as? Bool == true, let seconds = report["seconds"] as? Double
            else { throw BenchError("realm-oracle check did not pass the file: \(run.stdout.prefix(300))") }
            best = min(best ?? seconds, seconds)
        }
        let core = Measured(seconds: best ?? 0, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
        record(
            "porter check Realm file", "flat", checked, bytes: diskSize(realmFile),
            reference: ("realm-core check (realm-oracle)", core), target: 1.5,
            note: "porter: the whole process; realm-core: its check alone")
    }

    /// Issue #35's rows for the writing commands: each export of a Realm file of N flat objects
    /// with its input check against the same export with `--skip-check`, in this run. At most
    /// 1.2×. (The relational exports check beside the work; the others still check first.)
    private mutating func runCheckedExports() throws {
        let dir = try freshFolder("check-exports")
        let realmFile = "\(dir)/items.realm"
        _ = try child(["realmfile-write", String(objects), realmFile], once: true)
        let exports: [(String, [String])] = [
            ("sqlite", ["--format", "sqlite", "--out", "\(dir)/out.sqlite"]),
            ("postgres", ["--format", "postgres", "--out", "\(dir)/out.sql"]),
            ("bson", ["--out", "\(dir)/out"]),
            ("realm", ["--format", "realm", "--out", "\(dir)/out.realm"]),
        ]
        for (name, arguments) in exports {
            let clear = {
                for output in ["out.sqlite", "out.sql", "out", "out.realm"] {
                    try? FileManager.default.removeItem(atPath: "\(dir)/\(output)")
                }
            }
            let checked = try measure(porter, ["export", realmFile] + arguments + ["--quiet"], prepare: clear)
            let skipped = try measure(
                porter, ["export", realmFile] + arguments + ["--quiet", "--skip-check"], prepare: clear)
            record(
                "porter export --format \(name) with its check", "flat", checked, bytes: diskSize(realmFile),
                reference: ("the same with --skip-check", skipped), target: 1.2)
        }
    }

    /// Issue #35's Porter-database row: `porter check` of a database of N flat typed objects (the
    /// whole process) against SQLite's own `PRAGMA integrity_check` (the sqlite3 shell) plus one
    /// read of every value (the `sqlite3_step` loop over every column), both in this run. At most 2×.
    private mutating func runPorterDatabaseCheck() throws {
        let dir = try freshFolder("check-porter")
        let db = "\(dir)/items.porter"
        _ = try child(["typed-write", String(objects), db], once: true)
        let checked = try measure(porter, ["check", db])
        let integrity = try measure("/usr/bin/sqlite3", [db, "PRAGMA integrity_check;"])
        guard integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok" else {
            throw BenchError("PRAGMA integrity_check did not pass the database: \(integrity.stdout.prefix(300))")
        }
        let scan = try child(["ref-scan", db])
        let reference = Measured(
            seconds: integrity.seconds + scan.seconds, peakRSSBytes: max(integrity.peakRSSBytes, scan.peakRSSBytes),
            status: 0, stdout: "", stderr: "")
        record(
            "porter check Porter database", "flat", checked, bytes: diskSize(db),
            reference: ("integrity_check + read of every value", reference), target: 2,
            note: String(
                format: "integrity_check %.2f s + sqlite3_step loop %.2f s; porter: the whole process",
                integrity.seconds, scan.seconds))
    }
}
