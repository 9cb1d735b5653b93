import Foundation
import Testing
@testable import PorterStore
import PorterModel

/// A unique in-memory identifier, so parallel tests never share an in-memory database.
func uniqueMemoryID(_ label: String = #function) -> String { "\(label)-\(UUID().uuidString)" }

/// The bytes of a file.
func fileBytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

/// Files next to `path` that SQLite may leave behind (`-wal`, `-shm`, `-journal`).
func sideFiles(_ path: String) -> [String] {
    ["-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}

/// Every row of every table of the database (meta tables included), as SQLite stores them:
/// comparing two dumps proves that nothing at all was written in between.
func dump(_ db: Database) throws -> [String: [[SQLValue]]] {
    var tables: [String] = []
    let list = try db.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    while try list.step() { tables.append(list.text(0)) }
    var out: [String: [[SQLValue]]] = [:]
    for table in tables {
        let stmt = try db.connection.prepare("SELECT * FROM \(quoteIdentifier(table)) ORDER BY 1, 2")
        var rows: [[SQLValue]] = []
        while try stmt.step() { rows.append((0..<stmt.columnCount).map { stmt.value($0) }) }
        out[table] = rows
    }
    return out
}

/// The names of the indexes SQLite has on a table.
func indexNames(_ db: Database, table: String) throws -> Set<String> {
    let stmt = try db.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
    stmt.bind(1, .text(table))
    var out = Set<String>()
    while try stmt.step() { out.insert(stmt.text(0)) }
    return out
}

/// Rows changed by all statements on this connection so far (SQLite's `total_changes()`).
func totalChanges(_ db: Database) throws -> Int64 {
    guard case .integer(let n)? = try db.connection.scalar("SELECT total_changes()") else { return -1 }
    return n
}

/// Resident memory of this process in bytes, from `/proc/self/statm` (second field, in pages).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Shorthand for a property from a schema-file type string.
func prop(_ name: String, _ type: String, indexed: Bool = false, defaultValue: Value? = nil) -> Property {
    // Test schemas are literals: a malformed one is a bug in the test itself.
    // swiftlint:disable:next force_try
    try! Property(name: name, typeShorthand: type, indexed: indexed, defaultValue: defaultValue)
}

/// The dog/person schema most tests use.
///
/// - `Person`: string primary key `name`, `age` int, optional `dog` link, `dogs` list, `tags`
///   string set, `scores` int map, `extra` mixed, `address` embedded `Address`, `pets` embedded list.
/// - `Dog`: no primary key; `name` (indexed), `age`, `walkers` = linkingObjects of `Person.dogs`.
/// - `Address` (embedded): `street`, optional embedded `geo` (`Geo`, embedded, two levels deep).
func petSchema(version: UInt64 = 0) -> Schema {
    Schema(
        version: version,
        classes: [
            ObjectSchema(
                name: "Person",
                properties: [
                    prop("name", "string"),
                    prop("age", "int"),
                    prop("nickname", "string?"),
                    prop("dog", "Dog?"),
                    prop("dogs", "Dog[]"),
                    prop("dogSet", "Dog<>"),
                    prop("dogMap", "Dog?{}"),
                    prop("tags", "string<>"),
                    prop("scores", "int{}"),
                    prop("extra", "mixed"),
                    prop("extras", "mixed[]"),
                    prop("address", "Address?"),
                    prop("pets", "Pet[]"),
                ], primaryKey: "name"),
            ObjectSchema(
                name: "Dog",
                properties: [
                    prop("name", "string", indexed: true),
                    prop("age", "int"),
                    prop("color", "string?"),
                    .linkingObjects("walkers", originClass: "Person", originProperty: "dogs"),
                    .linkingObjects("owners", originClass: "Person", originProperty: "dog"),
                ]),
            ObjectSchema(
                name: "Address",
                properties: [
                    prop("street", "string"),
                    prop("geo", "Geo?"),
                ], embedded: true),
            ObjectSchema(
                name: "Geo",
                properties: [
                    prop("lat", "double"),
                    prop("lon", "double"),
                ], embedded: true),
            ObjectSchema(
                name: "Pet",
                properties: [
                    prop("kind", "string"),
                    prop("geo", "Geo?"),
                ], embedded: true),
        ])
}

/// An in-memory database with ``petSchema(version:)`` and its own identifier.
func petDatabase(_ label: String = #function) throws -> Database {
    try Database.inMemory(identifier: uniqueMemoryID(label), schema: petSchema())
}
