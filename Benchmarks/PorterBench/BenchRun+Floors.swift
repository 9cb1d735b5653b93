import Foundation

/// realm-core 14.14's figures for 1,000,000 flat objects as quoted in issue #22 (measured side by
/// side with realm-core built from source on this kind of machine; the lower end of each quoted
/// range, the strictest): the reference of the typed rows where no realm-core runs in the bench.
/// Scaled to the run's object count like every reference.
enum QuotedRealmCore {
    static let objects = 1_000_000
    /// One write adding every object (quoted: 1.5–5 s, depending on the disk).
    static let insertSeconds = 1.5
    /// Reading every property of every object (quoted: 0.3–0.5 s).
    static let readAllSeconds = 0.3
    /// `count > 500` sorted by `price`, then count and first (quoted: 0.26–0.29 s).
    static let querySeconds = 0.26
    static let note = "realm-core 14.14 figure quoted from issue #22, not measured in this run"
}

extension BenchRun {
    /// The in-process floor of a BSON import (libbson reading the flat export, one prepared
    /// sqlite3 `INSERT` per document; see ``ReferenceLoops/bsonInsert(source:bsonFile:destination:)``)
    /// and `porter import` of the same documents next to it.
    mutating func runBSONImportFloor(dir: String, source: String, importBSON: Measured) throws {
        let bsonFile = "\(dir)/export-bson/Item.bson"
        guard FileManager.default.fileExists(atPath: bsonFile) else { return }
        let destination = "\(dir)/reference-bson-insert.porter"
        let floor = try child(["ref-bson-insert", source, bsonFile, destination]) { removeDatabase(destination) }
        record("reference: libbson+sqlite3 inserts", "flat", floor, bytes: diskSize(bsonFile))
        record(
            "import bson vs in-process floor", "flat", importBSON, bytes: diskSize(bsonFile),
            reference: ("libbson+sqlite3 insert loop", floor), target: 2.0)
    }

    /// The typed rows next to realm-core's quoted figures (``QuotedRealmCore``), when no realm-core
    /// runs here: writes ≤ 2×, reads of every property ≤ 3×, the sorted query ≤ 2× (issue #22).
    mutating func recordTypedAgainstQuotedRealmCore(written: Measured, read: Measured, query: Measured, path: String) {
        for (operation, m, seconds, label, target) in [
            ("typed writes vs realm-core", written, QuotedRealmCore.insertSeconds, "realm-core insert (quoted)", 2.0),
            ("typed reads vs realm-core", read, QuotedRealmCore.readAllSeconds, "realm-core read all (quoted)", 3.0),
            ("typed query+sort vs realm-core", query, QuotedRealmCore.querySeconds, "realm-core query (quoted)", 2.0),
        ] {
            let core = Measured(seconds: seconds, peakRSSBytes: 0, status: 0, stdout: "", stderr: "")
            record(
                operation, "flat", m, bytes: diskSize(path), objects: objects, reference: (label, core),
                referenceObjects: QuotedRealmCore.objects, target: target, note: QuotedRealmCore.note)
        }
    }
}
