import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealm
import PorterRealmFile

extension FileObject {
    /// The number of objects of `className`.
    func objectCount(_ className: String) throws -> Int {
        guard let table = file.table(named: className) else {
            throw PorterError(.notFound, "no class named '\(className)' in the file", location: file.path)
        }
        return try file.objectCount(in: table)
    }

    /// `porter export FILE --out OUT --format FORMAT`, reporting progress to `progress` (which
    /// cancels by returning nonzero): what `porter export` writes, as atomically.
    func export(to out: String, format: String, progress: ProgressCallback?, context: UnsafeMutableRawPointer?) throws {
        if format == "realm" {
            guard !FileManager.default.fileExists(atPath: out) else {
                throw PorterError(
                    .io,
                    "already exists: Porter does not overwrite a file with an export; remove it or choose another path",
                    location: out)
            }
            if let progress, progress(0, 0, context) != 0 { throw CallError(.cancelled, "the export was cancelled") }
            try RealmFileOutput.write(file, schema: schema, to: out)
            return
        }
        let documentFormat: DocumentOutputFormat
        switch format {
        case "csv": documentFormat = CSVFormat()
        case "sqlite": documentFormat = try InterchangeFormats.outputFormat(named: "bson")
        case "bson", "json", "ejson", "ejson-canonical":
            documentFormat = try InterchangeFormats.outputFormat(named: format)
        default:
            throw CallError(
                .invalidArgument,
                "unknown export format '\(format)' (known: bson, json, ejson, ejson-canonical, csv, sqlite, realm)")
        }
        let exporter = Exporter(realmFile: file, schema: schema, format: documentFormat)
        var cancelled = false
        var total: UInt64 = 0
        if let progress {
            total = UInt64(try exporter.exportedClasses().reduce(0) { $0 + (try objectCount($1.name)) })
            exporter.progress = { done in
                if progress(UInt64(done), total, context) != 0 { cancelled = true }
            }
            exporter.isCancelled = { cancelled }
            if progress(0, total, context) != 0 { throw CallError(.cancelled, "the export was cancelled") }
        }
        do {
            let report =
                format == "sqlite" ? try exporter.export(toSQLite: out) : try exporter.export(toDirectory: out)
            let written = UInt64(report.files.reduce(0) { $0 + $1.documents })
            _ = progress?(written, total, context)
        } catch  where cancelled {
            throw CallError(.cancelled, "the export was cancelled (nothing was written)")
        }
    }
}
