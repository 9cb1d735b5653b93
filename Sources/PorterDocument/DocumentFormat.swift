import PorterModel

/// Receives documents from the exporter as a stream of calls, one document at a time, and writes
/// them in one format. The exporter decides *what* a document holds (the mapping rules); an
/// encoder decides only how each value is spelled.
///
/// Inside an array the `key` arguments are nil; everywhere else they name the field.
package protocol DocumentEncoder: AnyObject {
    /// Starts a top-level document.
    func beginDocument() throws
    /// Ends the top-level document and writes it out.
    func endDocument() throws
    /// Starts a nested document.
    func openDocument(_ key: String?) throws
    /// Ends the innermost nested document.
    func closeDocument() throws
    /// Starts an array.
    func openArray(_ key: String?) throws
    /// Ends the innermost array.
    func closeArray() throws
    /// Writes a scalar (`.null` … `.uuid`; never a link or collection). `mixed` says the value
    /// came from a `mixed` property, where plain JSON must keep its Extended JSON wrapper.
    func write(_ key: String?, _ value: Value, mixed: Bool) throws
    /// Ends the stream (closing bracket of an array file) and flushes it.
    func finish() throws
    /// How many date values had digits below the millisecond that the format dropped.
    var flooredDates: Int { get }
}

/// An output format: `bson`, `ejson` (relaxed), `ejson-canonical` or `json`.
package protocol DocumentOutputFormat: Sendable {
    /// The name used on the command line.
    var name: String { get }
    /// The extension of class files (`bson` or `json`).
    var fileExtension: String { get }
    /// An encoder writing one class's documents to `output`.
    func makeEncoder(output: ByteOutput, options: ExportOptions) throws -> DocumentEncoder
}

/// What a reader knows when it opens a source.
package struct DecoderContext: Sendable {
    /// The schema documents are read against (fixture files name its classes).
    package var schema: Schema
    /// The class of a single-class file, when the file name or `--class` gives one.
    package var className: String?
    /// The database to read from a mongodump archive holding several (`--db`).
    package var database: String?

    /// Creates a context.
    package init(schema: Schema, className: String?, database: String? = nil) {
        self.schema = schema
        self.className = className
        self.database = database
    }
}

/// An input format: reads documents from a byte stream.
package protocol DocumentInputFormat: Sendable {
    /// The names `--format` accepts for this reader (`bson`; `json`, `ejson`, …).
    var names: [String] { get }
    /// File extensions this format reads (without the dot).
    var fileExtensions: [String] { get }
    /// Whether this format can read input that starts with `prefix` (for `--format auto` on
    /// stdin or files with an unknown extension).
    func recognizes(prefix: [UInt8]) -> Bool
    /// A decoder over `input`.
    func makeDecoder(input: ByteInput, context: DecoderContext) throws -> DocumentDecoder
}

/// Yields the documents of one source in order.
package protocol DocumentDecoder: AnyObject {
    /// The next document, or nil at the end of the input.
    /// - Throws: ``DocumentInputError`` for malformed input; when it is `recoverable`, calling
    ///   `next()` again continues with the following document.
    func next() throws -> DecodedDocument?
    /// The `schemaVersion` a fixture file declared, once it has been read.
    var fixtureSchemaVersion: UInt64? { get }
    /// The metadata.json text per collection a mongodump archive carries (empty otherwise).
    var dumpMetadata: [String: String] { get }
    /// Whether objects without a primary key keep their `_key` as object key where it is free.
    var keepsObjectKeys: Bool { get }
    /// The database whose collections the documents' class names are (a mongodump archive's
    /// chosen database), so that an import can map them through the dump's namespaces; nil
    /// when the names are class names.
    var collectionsDatabase: String? { get }
}

extension DocumentDecoder {
    /// Only archives carry metadata.
    package var dumpMetadata: [String: String] { [:] }

    /// Whether objects without a primary key keep their `_key` as object key where it is free
    /// (CSV files, like Realm files, name objects by their keys); other sources renumber them.
    package var keepsObjectKeys: Bool { false }

    /// Only archives name collections.
    package var collectionsDatabase: String? { nil }
}

/// One decoded document and where it came from.
package struct DecodedDocument: Sendable {
    /// The class, when the source says it per document (fixture files); nil for class files.
    package var className: String?
    /// The document's label in messages: its 1-based number (`3`), or `Person#3` in a fixture.
    package var label: String
    /// The fields.
    package var document: Document

    /// Creates a decoded document.
    package init(className: String?, label: String, document: Document) {
        self.className = className
        self.label = label
        self.document = document
    }
}

/// Malformed input found by a reader: where (document label and field path) and what.
package struct DocumentInputError: Error, Sendable, Equatable {
    /// The document label (`3`, `Person#3`), or empty for problems before any document.
    package var label: String
    /// The field path inside the document (`address.street`, `tags.2`), or empty.
    package var path: String
    /// What is wrong.
    package var message: String
    /// Whether the reader can go on with the next document.
    package var recoverable: Bool

    /// Creates an input error.
    package init(label: String, path: String = "", message: String, recoverable: Bool) {
        self.label = label
        self.path = path
        self.message = message
        self.recoverable = recoverable
    }
}
