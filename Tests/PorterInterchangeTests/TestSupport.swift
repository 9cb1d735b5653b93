import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore
import PorterTestSupport

/// Paths of the package's fixtures, and scratch folders.
enum Files {
    /// The package root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The documentation schema (every type, collection, embedded levels, cycles).
    static let realmDocsSchema = root.appendingPathComponent("Fixtures/schemas/realm-docs.json").path
    /// Fixture data for that schema.
    static let realmDocsFixture = root.appendingPathComponent("Fixtures/data/realm-docs-fixture.json")
}

/// A schema from JSON text (test schemas are written inline).
func schema(_ json: String) throws -> Schema { try Schema(jsonString: json) }

/// A fresh in-memory database.
func memoryDatabase(_ schema: Schema, _ label: String = #function) throws -> Database {
    try Database.inMemory(identifier: "\(label)-\(UUID().uuidString)", schema: schema)
}

/// A database with the documentation schema and its fixture loaded.
func fixtureDatabase(_ label: String = #function) throws -> Database {
    let db = try memoryDatabase(try Schema(contentsOfFile: Files.realmDocsSchema), label)
    try db.importFixtures(at: Files.realmDocsFixture)
    return db
}

/// Every class file of an export (file name → bytes), the schema file included.
func exportFiles(_ db: Database, format: String, array: Bool = false) throws -> [String: Data] {
    let dir = try TemporaryFolder()
    let exporter = Exporter(
        database: db, format: try InterchangeFormats.outputFormat(named: format), options: ExportOptions(array: array))
    _ = try exporter.export(toDirectory: dir.path("out"))
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/\(name)")))
    }
    return files
}

/// One class exported to memory.
func exportClass(_ db: Database, _ className: String, format: String, array: Bool = false) throws -> Data {
    let output = ByteOutput(memoryNamed: "-")
    let exporter = Exporter(
        database: db, format: try InterchangeFormats.outputFormat(named: format), options: ExportOptions(array: array))
    _ = try exporter.export(className: className, to: output)
    return output.collected
}

/// Imports `text` as a file called `name`; returns the error lines (empty on success).
@discardableResult
func importLines(
    _ db: Database, _ text: String, name: String = "input.json", options: ImportOptions = ImportOptions(),
    className: String? = nil
) -> [String] {
    importLines(db, Data(text.utf8), name: name, options: options, className: className)
}

/// Imports `data` as a file called `name`; returns the error lines (empty on success).
@discardableResult
func importLines(
    _ db: Database, _ data: Data, name: String, options: ImportOptions = ImportOptions(),
    className: String? = nil
) -> [String] {
    let importer = Importer(database: db, formats: InterchangeFormats.input, options: options)
    do {
        try importer.run(data: data, name: name, className: className)
        return []
    } catch let error as PorterError {
        return error.details.isEmpty ? ["\(error.headline)"] : error.details
    } catch {
        return ["\(error)"]
    }
}

/// Bytes from hex text (spaces allowed).
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
    var out: [UInt8] = []
    var i = 0
    while i + 1 < digits.count {
        out.append(UInt8(String(decoding: digits[i...i + 1], as: UTF8.self), radix: 16) ?? 0)
        i += 2
    }
    return out
}

/// Uppercase hex of bytes.
func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    bytes.map { String(format: "%02X", $0) }.joined()
}

/// Object counts of every class: a cheap fingerprint that a failed import wrote nothing.
func counts(_ db: Database) throws -> [String: Int] {
    var out: [String: Int] = [:]
    for cls in db.schema.classes { out[cls.name] = try db.count(cls.name) }
    return out
}
