import ArgumentParser
import Porter

// The closed sets of option values: argument-parser parses them, lists them in `--help`
// ("values: …") and refuses any other value with exit code 64 before `run` starts.

/// `porter create --format`: what to create.
public enum CreateFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A Porter database (the default).
    case porter
    /// A Realm file of file format 24.
    case realm
}

/// `porter salvage --format`: a recovered Realm file or an export folder.
public enum SalvageFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A new Realm file (the default).
    case realm
    /// A mongodump folder.
    case bson
    /// Relaxed Extended JSON.
    case ejson
    /// Canonical Extended JSON.
    case ejsonCanonical = "ejson-canonical"
    /// Plain JSON typed by the schema.
    case json
}

/// `porter import --format`: the reader of the sources, or `auto` to choose by extension and content.
public enum ImportFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// By content and extension (the default).
    case auto
    /// BSON documents (mongodump's `.bson`).
    case bson
    /// Extended JSON, relaxed or canonical.
    case ejson
    /// Canonical Extended JSON (read as `ejson`).
    case ejsonCanonical = "ejson-canonical"
    /// Extended JSON, the reader's long name.
    case extendedJSON = "extended-json"
    /// Plain JSON typed by the schema.
    case json
    /// A mongodump archive.
    case archive
    /// CSV typed by the schema.
    case csv
}

extension ImportMode: ExpressibleByArgument {}

extension Codegen.Language: ExpressibleByArgument {}
