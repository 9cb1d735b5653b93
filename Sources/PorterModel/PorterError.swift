/// The one error type every Porter module throws.
///
/// Modelled on GRDB's `DatabaseError`: a stable ``Code`` a program can switch on, a one-line
/// human ``message`` that says *what* went wrong, and an optional ``location`` that says *where*
/// (a file, `FILE:DOC#:field.path`, or `Class.property`). ``details`` carries further lines when one
/// failure has several causes (all schema validation errors, all changes that need a migration).
public struct PorterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable, machine-readable error categories.
    public enum Code: String, Sendable, Equatable {
        /// A schema breaks one or more validation rules.
        case invalidSchema
        /// A value has the wrong type or is out of range for its property.
        case invalidValue
        /// Text that should hold a value (hex, ISO date, decimal, …) could not be parsed.
        case parseError
        /// A constraint of the database would be broken (required value, size limit, set uniqueness …).
        case constraintViolation
        /// A primary key value is already used by another object of the class.
        case duplicatePrimaryKey
        /// A class, property or object does not exist.
        case notFound
        /// The stored schema differs from the requested one in ways that need a migration.
        case migrationRequired
        /// A migration could not be applied.
        case migrationFailed
        /// The file is not a Porter database, is corrupt, or was written by a newer Porter.
        case notADatabase
        /// Another connection holds the write lock.
        case busy
        /// A write was attempted outside a write transaction, or the database is read-only.
        case notInWriteTransaction
        /// The database or a file could not be read or written.
        case io
        /// Input data (BSON, JSON, fixture, plan) is malformed or does not match the schema.
        case invalidInput
        /// An unexpected SQLite failure.
        case sqlite
        /// A usage error of the API (wrong argument combination).
        case usage
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line saying what went wrong.
    public var message: String
    /// Where it went wrong, when known: a file, `FILE:DOC#:field.path`, or `Class.property`.
    public var location: String?
    /// Further lines, one per cause, when a failure has several.
    public var details: [String]

    /// Creates an error.
    public init(_ code: Code, _ message: String, location: String? = nil, details: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.details = details
    }

    /// The first line: `location: message`, or the message alone.
    public var headline: String {
        guard let location, !location.isEmpty else { return message }
        return "\(location): \(message)"
    }

    /// The headline followed by one line per detail.
    public var description: String {
        ([headline] + details.map { "- \($0)" }).joined(separator: "\n")
    }

    /// Returns a copy with `prefix` put in front of the location (`file` + `:` + old location).
    public func located(in prefix: String) -> PorterError {
        var copy = self
        if let location, !location.isEmpty { copy.location = "\(prefix):\(location)" } else { copy.location = prefix }
        return copy
    }
}
