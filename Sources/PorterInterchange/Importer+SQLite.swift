import Foundation
import PorterModel
import PorterDocument
import PorterPostgres
import PorterStore

extension Importer {
    /// Every top-level class of a relational SQLite export (`--format sqlite`), as documents in
    /// the shape of its other exports, read by the database's schema with the same rules, modes
    /// and errors as any other source. Objects without a primary key keep their `_key`.
    func importRelationalSQLite(_ path: String) throws {
        try importRelational(path) { try SQLiteRelationalSource(path: path) }
    }

    /// Every top-level class of a database Porter's PostgreSQL export made (`export --to
    /// postgresql://…` or its SQL file loaded with psql), read in one snapshot like a SQLite export.
    func importRelationalPostgres(_ url: String) throws {
        try importRelational(PostgresConnection.redacted(url), failsWhole: true) {
            try PostgresRelationalSource(url: url)
        }
    }

    /// The objects of a relational export's row source; `path`: the source for messages.
    /// - Parameter failsWhole: a source that cannot be read (unreachable, not an export, a table
    ///   or column missing or of another type) ends the import with its error, in one line,
    ///   rather than being one of the import's problems.
    private func importRelational(_ path: String, failsWhole: Bool = false, open: () throws -> RelationalRowSource)
        throws
    {
        let reader: RelationalReader
        do {
            reader = try RelationalReader(source: try open())
        } catch let error as PorterError {
            if failsWhole { throw error }
            problems.add(source: path, label: "", message: error.message)
            return
        }
        report.sources.append(path)
        keepObjectKeys = true
        defer { keepObjectKeys = false }
        let tables = reader.layout.topLevel
        let order = dependencyOrder(tables.map(\.name))
        for table in tables.sorted(by: { (order[$0.name] ?? 0, $0.name) < (order[$1.name] ?? 0, $1.name) })
        where !problems.isFull {
            guard database.schema[table.name] != nil else {
                problems.add(
                    source: path, label: "",
                    message: "table '\(abbreviated(table.name))' of the export is not a class of the database's schema")
                continue
            }
            var number = 0
            try reader.forEachDocument(table) { result in
                guard !problems.isFull else { return }
                number += 1
                let label = "\(table.name)#\(number)"
                switch result {
                case .success(let document):
                    try importDocument(
                        DecodedDocument(className: table.name, label: label, document: document),
                        className: table.name, source: path)
                case .failure(let error):
                    problems.add(source: path, label: label, path: error.path, message: error.message)
                }
            }
        }
    }
}

/// A database Porter's PostgreSQL export made, as a source of imports (`postgresql://…`).
package enum RelationalExportDatabase {
    /// Whether `source` names one (a `postgresql://` or `postgres://` URL).
    public static func isURL(_ source: String) -> Bool { PostgresConnection.isURL(source) }

    /// Checks a URL without connecting.
    /// - Throws: ``PorterError`` (`usage`) saying what is wrong with it.
    public static func checkURL(_ url: String) throws { try PostgresConnection.checkURL(url) }

    /// `url` with any password replaced by `***`, for messages.
    public static func display(_ url: String) -> String { PostgresConnection.redacted(url) }

    /// The Porter schema the database holds in `_porter_schema`.
    /// - Throws: ``PorterError`` when the server cannot be reached or the database is not a
    ///   readable export.
    public static func schema(at url: String) throws -> Schema {
        try RelationalReader(source: try PostgresRelationalSource(url: url)).layout.schema
    }
}

/// A relational SQLite export (`porter export --format sqlite`) as a source of imports.
package enum RelationalExportFile {
    /// Whether the file at `path` is one (an SQLite file holding `_porter_schema`).
    public static func isExport(_ path: String) -> Bool { RelationalReader.isExport(path) }

    /// The Porter schema the export holds in `_porter_schema` (its version as exported).
    /// - Throws: ``PorterError`` when the file is not a readable export.
    public static func schema(at path: String) throws -> Schema {
        try RelationalReader(path: path).layout.schema
    }
}
