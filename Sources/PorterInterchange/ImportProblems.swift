import PorterModel

/// Collects import errors, one line each as `FILE:DOC#:field.path: message`, up to a limit.
package struct ImportProblems {
    let limit: Int
    private(set) var lines: [String] = []
    /// Whether more errors happened than were kept.
    private(set) var truncated = false

    init(limit: Int) { self.limit = max(1, limit) }

    var isEmpty: Bool { lines.isEmpty }
    /// Whether the limit is reached: reading stops.
    package var isFull: Bool { lines.count >= limit }

    /// `FILE:DOC#:path: message`, leaving out empty parts (`FILE: message` for whole-file problems).
    static func line(source: String, label: String, path: String, message: String) -> String {
        var location = source
        if !label.isEmpty { location += ":" + label }
        if !path.isEmpty { location += ":" + path }
        return location + ": " + message
    }

    package mutating func add(source: String, label: String, path: String = "", message: String) {
        guard !isFull else { truncated = true; return }
        lines.append(Self.line(source: source, label: label, path: path, message: message))
    }

    /// The error thrown when an import fails: every line as a detail, nothing written.
    func failure(database: String) -> PorterError {
        let count = lines.count
        var summary = "import failed with \(count) error\(count == 1 ? "" : "s")"
        if truncated || isFull { summary += " (stopped at --max-errors \(limit))" }
        summary += "; nothing was written"
        return PorterError(.invalidInput, summary, location: database, details: lines)
    }
}

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    /// Documents read per class, in the order classes were first seen.
    public var documents: [(className: String, count: Int)] = []
    /// Sources read (files, folders count their files).
    public var sources: [String] = []
    /// Links that were forward references, completed at the end.
    public var deferredLinks = 0
    /// Warning lines for the user (index differences, skipped files, filled fields).
    public var warnings: [String] = []

    /// An empty report.
    public init() {}

    /// Total documents read.
    public var totalDocuments: Int { documents.reduce(0) { $0 + $1.count } }

    mutating func count(_ className: String) {
        if let i = documents.firstIndex(where: { $0.className == className }) {
            documents[i].count += 1
        } else {
            documents.append((className, 1))
        }
    }

    /// Compares the counts and sources.
    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.sources == rhs.sources && lhs.deferredLinks == rhs.deferredLinks
            && lhs.documents.map(\.className) == rhs.documents.map(\.className)
            && lhs.documents.map(\.count) == rhs.documents.map(\.count)
    }

    /// One summary line: `12 documents (Person 3, Dog 9)`.
    public var summary: String {
        let parts = documents.map { "\($0.className) \($0.count)" }.joined(separator: ", ")
        return "\(totalDocuments) document\(totalDocuments == 1 ? "" : "s")" + (parts.isEmpty ? "" : " (\(parts))")
    }
}
