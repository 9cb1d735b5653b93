import ArgumentParser
import Porter

/// `porter export --format`: what the export writes.
public enum ExportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// mongodump folders (or an archive): `<Class>.bson` and `<Class>.metadata.json`.
    case bson
    /// Plain JSON typed by the schema.
    case json
    /// Relaxed Extended JSON.
    case ejson
    /// Canonical Extended JSON.
    case ejsonCanonical = "ejson-canonical"
    /// CSV, one class per file.
    case csv
    /// One relational SQLite file.
    case sqlite
    /// One PostgreSQL SQL file (the relational layout of `sqlite`, DDL and `COPY` data).
    case postgres
    /// One Realm file of file format 24.
    case realm

    /// The document format of the per-class formats (bson, json, ejson, ejson-canonical, csv);
    /// `csv` carries the `--fields` columns.
    func documentFormat(csvFields: [String] = [], followsLinks: Bool = false) throws -> DocumentOutputFormat {
        switch self {
        case .csv: return CSVFormat(fields: csvFields, followsLinks: followsLinks)
        case .sqlite, .postgres, .realm: return try InterchangeFormats.outputFormat(named: "bson")
        default: return try InterchangeFormats.outputFormat(named: rawValue)
        }
    }

    /// The JSON formats, which `--array` applies to.
    var isJSON: Bool { self == .json || self == .ejson || self == .ejsonCanonical }
}
