import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterStore

/// `porter verify`: proves that a copy of a file lost nothing. Both sides are read as an export
/// reads them (a Realm file, a Porter database, a relational SQLite export or PostgreSQL database
/// directly; a dump folder through a private Porter database it is imported into; objects
/// without a primary key keep their `_key`s), every object is matched by primary key (or `_key`)
/// and compared value by value. Nothing is written beside either file: the private copies and
/// the digest table live in a temporary folder removed at the end (and on a caught signal).
public enum Verification {
    /// Compares every top-level class of `source` and `target` (a Realm file, with its key when
    /// encrypted; a Porter database; a relational SQLite export; an export or dump folder).
    /// - Throws: ``PorterError`` when a side is missing or cannot be read; differences are not
    ///   errors but the report's ``VerifyReport/firstDifference``.
    public static func verify(
        source: String, sourceKey: [UInt8]? = nil, target: String, targetKey: [UInt8]? = nil
    ) throws -> VerifyReport {
        let template = NSTemporaryDirectory() + "/" + TemporaryFiles.temporaryFolderPrefix + "XXXXXX"
        guard let folder = TemporaryFiles.makeFolder(template: template) else {
            throw PorterError(
                .io, "cannot create a temporary folder: \(String(cString: strerror(errno)))",
                location: NSTemporaryDirectory())
        }
        defer { TemporaryFiles.remove(folder) }
        let sourceSide = try side(source, key: sourceKey, folder: folder, name: "source")
        let targetSide = try side(target, key: targetKey, folder: folder, name: "target")
        let scratch = folder + "/digests.sqlite"
        guard FileManager.default.createFile(atPath: scratch, contents: nil) else {
            throw PorterError(.io, "cannot create a temporary file", location: scratch)
        }
        return try Verifier(source: sourceSide, target: targetSide, scratchFile: scratch).run()
    }

    /// Opens one side: read directly when Porter reads it in place (every kind but a dump folder),
    /// else imported into a private Porter database in `folder`.
    static func side(_ path: String, key: [UInt8]?, folder: String, name: String) throws -> VerifySide {
        if RelationalExportDatabase.isURL(path) {
            if key != nil {
                throw PorterError(
                    .usage, "an encryption key applies to Realm files, not PostgreSQL databases",
                    location: RelationalExportDatabase.display(path))
            }
            // Read in place, in one read-only snapshot; mixed floats come back as doubles.
            return VerifySide(
                exporter: try Exporter(
                    relationalExport: path, side: name, format: try InterchangeFormats.outputFormat(named: "json")),
                kind: "PostgreSQL export", millisecondDates: false, widenedMixedFloats: true)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PorterError(.io, "no such file or folder (the \(name))", location: path)
        }
        // The exporter's output format is never used: the verifier writes documents itself.
        let unused = try InterchangeFormats.outputFormat(named: "json")
        if isDirectory.boolValue {
            let schemaPath = URL(fileURLWithPath: path).appendingPathComponent(ExportFileNames.schemaFile).path
            guard FileManager.default.fileExists(atPath: schemaPath) else {
                throw PorterError(
                    .usage, "not an export folder: it holds no \(ExportFileNames.schemaFile)", location: path)
            }
            if key != nil {
                throw PorterError(.usage, "an encryption key applies to Realm files, not folders", location: path)
            }
            let (kind, milliseconds) = dumpKind(path)
            // CSV files are read as CSV only when told (their extension alone does not decide it).
            let db = try imported(
                path, schema: try Schema(contentsOfFile: schemaPath), format: kind.hasPrefix("CSV") ? "csv" : nil,
                folder: folder, name: name)
            return VerifySide(
                exporter: Exporter(database: db, format: unused), kind: kind, millisecondDates: milliseconds,
                widenedMixedFloats: true)
        }
        switch StoredFileKind.of(path: path) {
        case .porterDatabase:
            if key != nil {
                throw PorterError(
                    .usage, "an encryption key applies to Realm files; this is an SQLite file", location: path)
            }
            if RelationalExportFile.isExport(path) {
                // Read in place (opened read-only); mixed floats come back as doubles, as an import stores them.
                return VerifySide(
                    exporter: try Exporter(relationalExport: path, side: name, format: unused), kind: "SQLite export",
                    millisecondDates: false, widenedMixedFloats: true)
            }
            let db = try Database.open(at: path, readOnly: true)
            return VerifySide(
                exporter: Exporter(database: db, format: unused), kind: "Porter database", millisecondDates: false,
                widenedMixedFloats: true)
        case .realmFile:
            if key != nil {
                throw PorterError(.usage, "this Realm file is not encrypted: drop the encryption key", location: path)
            }
            return realmSide(try RealmFile(path: path), format: unused)
        case .other:
            guard let key else {
                throw PorterError(.notADatabase, StoredFileKind.neitherMessage, location: path)
            }
            return realmSide(try RealmFile(path: path, encryptionKey: key), format: unused)
        }
    }

    private static func realmSide(_ file: RealmFile, format: DocumentOutputFormat) -> VerifySide {
        VerifySide(
            exporter: Exporter(realmFile: file, format: format),
            kind: file.isEncrypted ? "encrypted Realm file" : "Realm file", millisecondDates: false,
            widenedMixedFloats: false)
    }

    /// A dump folder imported into a new Porter database in `folder`, every
    /// object without a primary key keeping the `_key` the export wrote (so links and keys compare).
    private static func imported(_ path: String, schema: Schema, format: String? = nil, folder: String, name: String)
        throws -> Database
    {
        let db = try Database.create(at: folder + "/\(name).porter", schema: schema)
        let importer = Importer(database: db, formats: InterchangeFormats.input)
        importer.keepObjectKeys = true
        do {
            // A folder import reads BSON and JSON class files; CSV files are named one by one.
            var sources = [ImportSource(path: path)]
            if format == "csv" {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".csv") }
                sources = names.sorted().map {
                    ImportSource(path: URL(fileURLWithPath: path).appendingPathComponent($0).path)
                }
            }
            try importer.run(sources, format: format)
        } catch let error as PorterError {
            // The import's located problems (file, document, field) say what the copy holds wrong.
            guard let detail = error.details.first else { throw error }
            throw PorterError(
                error.code, "the \(name) cannot be read: \(detail)",
                location: RelationalExportDatabase.isURL(path) ? RelationalExportDatabase.display(path) : path)
        }
        return db
    }

    /// What a dump folder holds, and whether its dates are milliseconds: BSON and Extended JSON
    /// (canonical or relaxed: `$date` holds milliseconds) do; plain JSON and CSV keep nanoseconds.
    private static func dumpKind(_ path: String) -> (String, Bool) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(where: { $0.hasSuffix(".bson") || $0.hasSuffix(".bson.gz") }) {
            return ("BSON dump folder", true)
        }
        if names.contains(where: { $0.hasSuffix(".csv") }) { return ("CSV dump folder", false) }
        // Extended JSON is written in libbson's layout (`{ "name" : value }`); plain JSON has no
        // spaces around its colons.
        for name in names.sorted()
        where name.hasSuffix(".json") && name != ExportFileNames.schemaFile && !name.hasSuffix(".metadata.json") {
            let file = URL(fileURLWithPath: path).appendingPathComponent(name).path
            guard let handle = FileHandle(forReadingAtPath: file) else { continue }
            defer { try? handle.close() }
            let head = (try? handle.read(upToCount: 4096)) ?? Data()
            if head.isEmpty { continue }
            if String(decoding: head, as: UTF8.self).contains("\" : ") { return ("Extended JSON dump folder", true) }
            return ("JSON dump folder", false)
        }
        return ("dump folder", false)
    }
}
