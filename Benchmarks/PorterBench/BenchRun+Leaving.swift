import Foundation

extension BenchRun {
    /// The ways out of Realm: `--format sqlite` (one relational SQLite file) against `--format
    /// bson` of the same objects (target: within 2×), `--format csv`, and a filtered export
    /// (`--query` keeping about 10% of the items: `count` is uniform below 1,000,000).
    mutating func runLeavingRealm(_ shape: Shape, dir: String, source db: String, exportBSON: Measured) throws {
        let sqlite = "\(dir)/export.sqlite"
        let m = try measure(porter, ["export", db, "--out", sqlite, "--format", "sqlite"]) {
            try? FileManager.default.removeItem(atPath: sqlite)
        }
        record(
            "export sqlite", shape.rawValue, m, bytes: diskSize(sqlite), reference: ("export bson", exportBSON),
            target: shape.hasInterchangeTargets ? 2.0 : nil)
        let csv = "\(dir)/export-csv"
        let c = try measure(porter, ["export", db, "--out", csv, "--format", "csv"]) {
            try? FileManager.default.removeItem(atPath: csv)
        }
        record("export csv", shape.rawValue, c, bytes: diskSize(csv), reference: ("export bson", exportBSON))
        let filtered = "\(dir)/export-query"
        let q = try measure(porter, ["export", db, "--out", filtered, "--class", "Item", "--query", "count < 100000"]) {
            try? FileManager.default.removeItem(atPath: filtered)
        }
        record(
            "export bson --query 10%", shape.rawValue, q, bytes: diskSize(filtered),
            reference: ("export bson", exportBSON))
        let copy = "\(dir)/import-sqlite.porter"
        let i = try measure(porter, ["import", copy, sqlite, "--create"]) { removeDatabase(copy) }
        record("import sqlite", shape.rawValue, i, bytes: diskSize(sqlite))
    }
}
