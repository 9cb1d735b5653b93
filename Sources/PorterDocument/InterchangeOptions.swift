/// What `porter export` writes and how.
public struct ExportOptions: Sendable, Equatable {
    /// Top-level classes to export; empty means every top-level class.
    public var classes: [String]
    /// JSON formats only: write one JSON array per file instead of one document per line.
    public var array: Bool
    /// Gzip every file (`--gzip`), as `mongodump --gzip` does.
    public var gzip: Bool

    /// Creates export options.
    public init(classes: [String] = [], array: Bool = false, gzip: Bool = false) {
        self.classes = classes
        self.array = array
        self.gzip = gzip
    }
}

/// What an import does when a document's primary key already names an object.
public enum ImportMode: String, Sendable, Equatable, CaseIterable {
    /// A duplicate primary key is an error naming the value.
    case insert
    /// The existing object is replaced: fields missing from the document get their defaults.
    case upsert
    /// Only the fields present in the document are updated.
    case merge
}

/// How `porter import` reads its input.
public struct ImportOptions: Sendable, Equatable {
    /// Insert, upsert or merge.
    public var mode: ImportMode
    /// Skip fields that name no property instead of reporting them.
    public var ignoreUnknown: Bool
    /// Stop after this many errors (at least 1).
    public var maxErrors: Int
    /// The database to import from a mongodump root folder or archive holding several (`--db`).
    public var dumpDatabase: String?
    /// Give missing required fields their type's zero value instead of failing (`--fill-missing`).
    public var fillMissing: Bool

    /// Creates import options.
    public init(
        mode: ImportMode = .insert, ignoreUnknown: Bool = false, maxErrors: Int = 20,
        dumpDatabase: String? = nil, fillMissing: Bool = false
    ) {
        self.mode = mode
        self.ignoreUnknown = ignoreUnknown
        self.maxErrors = max(1, maxErrors)
        self.dumpDatabase = dumpDatabase
        self.fillMissing = fillMissing
    }
}

/// Limits that keep hostile input from exhausting memory or the stack.
package enum InterchangeLimits {
    /// The largest document a reader accepts (a 16 MB string or data value plus the rest of its
    /// object must fit).
    package static let maxDocumentBytes = 64 * 1024 * 1024
    /// The deepest nesting of documents and arrays a reader accepts; deeper input is rejected
    /// without recursion.
    package static let maxNestingDepth = 100
}
