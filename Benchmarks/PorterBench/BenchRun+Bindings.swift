import Foundation
import Porter

extension BenchRun {
    /// Issue #39's row: iterating every property of N flat objects of a Realm file from Python
    /// (`porter_realm`, over the release `libPorterC.so` beside `porter`) against Python's own
    /// `sqlite3` module iterating the same objects in Porter's SQLite export of the file: at most
    /// 2× its time and 1.5× its peak memory. Each side runs in its own process (best of the
    /// repeats); the time is the iteration's own clock, without the interpreter's start.
    mutating func runBindings() throws {
        let dir = try freshFolder("bindings")
        let binDir = URL(fileURLWithPath: porter).deletingLastPathComponent()
        let library = binDir.appendingPathComponent("libPorterC.so").path
        guard FileManager.default.fileExists(atPath: library) else {
            print(
                "  Python rows skipped: \(library) is missing (make bench builds it: swift build -c release --product PorterC)"
            )
            return
        }
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let script = root.appendingPathComponent("Benchmarks/python/iterate.py").path
        let package = root.appendingPathComponent("bindings/python").path
        let realmFile = "\(dir)/items.realm"
        let sqliteFile = "\(dir)/items.sqlite"
        _ = try child(["realmfile-write", String(objects), realmFile], once: true)
        _ = try measure(porter, ["export", realmFile, "--format", "sqlite", "--out", sqliteFile], once: true)
        let python = ["PYTHONPATH=\(package)", "PORTER_LIB=\(library)", "python3", script]
        let fromRealm = try pythonRun(python + ["porter", realmFile, BenchItem.className()])
        let fromSQLite = try pythonRun(python + ["sqlite", sqliteFile, BenchItem.className()])
        let memory = Double(fromRealm.peakRSSBytes) / Double(max(fromSQLite.peakRSSBytes, 1))
        record(
            "python iterate all properties", "flat", fromRealm, bytes: diskSize(realmFile),
            reference: ("python sqlite3 over the SQLite export", fromSQLite), target: 2.0,
            note: String(
                format: "peak memory %.0f MB vs %.0f MB: %.2f× (target ≤ 1.5×)",
                Double(fromRealm.peakRSSBytes) / 1_048_576, Double(fromSQLite.peakRSSBytes) / 1_048_576, memory))
        print(String(format: "    peak memory %.2f× python sqlite3's (target ≤ 1.5×)", memory))
        // Without the check `porter export` makes first (open(check=False)): what reading costs alone.
        let unchecked = try pythonRun(python + ["porter-unchecked", realmFile, BenchItem.className()])
        record(
            "python iterate, check=False", "flat", unchecked, bytes: diskSize(realmFile),
            reference: ("python sqlite3 over the SQLite export", fromSQLite),
            note: String(
                format: "peak memory %.2f× python sqlite3's; no target (the row above is the default)",
                Double(unchecked.peakRSSBytes) / Double(max(fromSQLite.peakRSSBytes, 1))))
    }

    /// A Python side of the row: the fastest of the repeats by the script's own clock, the highest
    /// peak memory of them; every run must have read all the objects.
    private func pythonRun(_ arguments: [String]) throws -> Measured {
        var best: Measured?
        for _ in 0..<repeats {
            var m = try measure("/usr/bin/env", arguments, once: true)
            guard let line = m.stdout.split(separator: "\n").last,
                let result = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let seconds = result["seconds"] as? Double, let read = result["objects"] as? Int
            else { throw BenchError("\(arguments.joined(separator: " ")) printed no result: \(m.stdout.prefix(300))") }
            guard read == objects else {
                throw BenchError("\(arguments.joined(separator: " ")) read \(read) of \(objects)")
            }
            m.seconds = seconds
            if let previous = best {
                m.peakRSSBytes = max(m.peakRSSBytes, previous.peakRSSBytes)
                m.seconds = min(m.seconds, previous.seconds)
            }
            best = m
        }
        return best!
    }
}
