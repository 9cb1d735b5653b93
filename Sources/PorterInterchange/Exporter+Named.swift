import Foundation
import PorterDocument
import PorterModel
import PorterStore

// The public face of the exporter and importer: formats named as `porter export --format` and
// `porter import --format` name them. The format objects and byte streams themselves are
// Porter's own plumbing (`package`).

extension Exporter {
    /// An exporter of `database` writing the format `porter export --format` calls `name`
    /// (`bson`, `ejson`, `ejson-canonical`, `json`, `csv`).
    /// - Throws: ``PorterError`` (`usage`) for a name no format has.
    public convenience init(database: Database, formatNamed name: String, options: ExportOptions = ExportOptions())
        throws
    {
        self.init(database: database, format: try InterchangeFormats.outputFormat(named: name), options: options)
    }

    /// The extension of the class files this exporter writes (`bson`, `json`, `csv`), without the dot.
    public var fileExtension: String { format.fileExtension }

    /// One top-level class's documents in the exporter's format, in memory (no file written).
    /// - Throws: ``PorterError`` for an unknown or embedded class.
    public func exportData(className: String) throws -> Data {
        let output = ByteOutput(memoryNamed: className)
        _ = try export(className: className, to: output)
        return output.collected
    }
}

extension Importer {
    /// An importer into `database` that reads every format Porter reads (BSON, JSON and Extended
    /// JSON, mongodump archives, CSV), picked per source by its format name, extension or first bytes.
    public convenience init(database: Database, options: ImportOptions = ImportOptions()) {
        self.init(database: database, formats: InterchangeFormats.input, options: options)
    }
}
