import Foundation

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
}
