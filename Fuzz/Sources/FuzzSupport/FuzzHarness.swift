import Foundation
import Porter

/// What every import target does with one input: import it into an empty database whose schema
/// uses every property type, and when that succeeds, check the result twice over. A failed
/// check stops the process (libFuzzer keeps the input as a crash):
/// - `checkConsistency()` must find nothing (an import must never leave dangling links,
///   orphaned embedded objects, nulls in required properties …);
/// - export → import into an empty database → export must give the same bytes (the
///   interchange's round-trip promise).
public enum FuzzHarness {
    /// The package root, found from this file.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/schemas/realm-docs.json`: every type, every collection kind, embedded classes,
    /// primary keys of each kind, a class without one, linkingObjects and defaults.
    public static let schema: Schema = {
        do {
            return try Schema(
                jsonBytes: FuzzFiles.read(root.appendingPathComponent("Fixtures/schemas/realm-docs.json").path))
        } catch {
            fatalError("cannot read the fuzz schema: \(error)")
        }
    }()

    /// An empty database, reused until an import changes it (failed imports roll back).
    nonisolated(unsafe) private static var empty: Database?

    /// Imports `data` (named `name`, read as `format`), then runs the checks on success.
    /// `roundTripFormat` names the export format of the round-trip check.
    public static func importInput(_ data: Data, name: String, format: String, roundTripFormat: String) {
        let db = empty ?? makeDatabase()
        empty = db
        let importer = Importer(database: db, options: ImportOptions(mode: .upsert, maxErrors: 50))
        do {
            try importer.run(data: data, name: name, format: format)
        } catch {
            return
        }
        empty = nil
        // Mutations often import the same objects again (an empty document is a valid AllTypes
        // object): the checks are deterministic in what was imported, so a database whose export
        // was checked before is not checked again.
        guard let first = try? exportAll(db, format: roundTripFormat) else {
            fatalError("a successful import does not export")
        }
        var hasher = Hasher()
        for file in first { hasher.combine(file.name); hasher.combine(file.bytes) }
        guard checked.insert(hasher.finalize()).inserted else { return }
        if checked.count > 200_000 { checked.removeAll() }
        let problems = (try? db.checkConsistency()) ?? ["checkConsistency threw"]
        guard problems.isEmpty else {
            fatalError("the import left an inconsistent database:\n" + problems.joined(separator: "\n"))
        }
        roundTrip(first, db, format: roundTripFormat)
    }

    /// Hashes of the exports already checked (Hasher's seed is per process: fine in memory).
    nonisolated(unsafe) private static var checked: Set<Int> = []

    /// export → import → export must reproduce the first export byte for byte. Everything stays
    /// in memory (files would cost an fsync each). Class files import one at a time, so the
    /// single-class formats are used when one class holds objects (the BSON and Extended JSON
    /// targets fill only AllTypes); several classes travel together as one fixture of JSON arrays.
    static func roundTrip(_ first: [(name: String, className: String, bytes: Data)], _ db: Database, format: String) {
        do {
            guard !first.isEmpty else { return }
            let second = makeDatabase()
            do {
                try Importer(database: second).run(
                    data: try reimportable(first, db, format: format),
                    name: first.count == 1 && format != "json" ? first[0].name : "fixture.json")
            } catch {
                fatalError("an export does not import again: \(error)")
            }
            let again = try exportAll(second, format: format)
            for (a, b) in zip(first, again) where a.bytes != b.bytes || a.name != b.name {
                fatalError(
                    "round trip changed \(a.name):\n\(String(decoding: a.bytes.prefix(2000), as: UTF8.self))\n---\n\(String(decoding: b.bytes.prefix(2000), as: UTF8.self))"
                )
            }
            if first.count != again.count {
                fatalError("round trip changed the classes: \(first.map(\.name)) → \(again.map(\.name))")
            }
        } catch {
            fatalError("export or re-import failed after a successful import: \(error)")
        }
    }

    /// One class file (name and bytes) per top-level class that has objects; JSON as arrays.
    static func exportAll(_ db: Database, format: String) throws -> [(name: String, className: String, bytes: Data)] {
        let exporter = try Exporter(database: db, formatNamed: format, options: ExportOptions(array: format == "json"))
        var files: [(name: String, className: String, bytes: Data)] = []
        for cls in db.schema.classes where try !cls.isEmbedded && db.count(cls.name) > 0 {
            let bytes = try exporter.exportData(className: cls.name)
            // The fuzz schema's class names are plain, so the export's file name is the class name
            // (ExportFileNames, which escapes other names, is `package` API).
            files.append(("\(cls.name).\(exporter.fileExtension)", cls.name, bytes))
        }
        return files
    }

    /// The exported files as one import input: the file itself, or a fixture of JSON arrays.
    static func reimportable(_ files: [(name: String, className: String, bytes: Data)], _ db: Database, format: String)
        throws -> Data
    {
        if files.count == 1 && format != "json" { return files[0].bytes }
        guard format == "json" else { fatalError("several classes hold objects after a single-class import") }
        var fixture = Data("{\"schemaVersion\": \(db.schemaVersion)".utf8)
        for file in files {
            fixture += Data(", \(JSONValue.string(file.className).serialized(pretty: false)): ".utf8) + file.bytes
        }
        return fixture + Data("}".utf8)
    }

    /// A new in-memory database with the fuzz schema.
    static func makeDatabase() -> Database {
        do {
            return try Database.inMemory(schema: schema)
        } catch {
            fatalError("cannot create the fuzz database: \(error)")
        }
    }
}
