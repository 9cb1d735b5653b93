import Foundation
import Porter
import PorterRealm

/// A database file opened for reading, told by its content: a Porter database or a Realm file.
enum StoreFile {
    /// A Porter database, opened read-only.
    case porter(Database)
    /// A Realm file (read-only, always).
    case realm(RealmFile)

    /// Opens `path` read-only: never writes, locks or creates a file.
    /// - Throws: ``PorterError`` naming the file: missing, neither kind, a key where none applies,
    ///   or whatever the Porter or Realm reader refuses.
    static func open(_ path: String, encryption: EncryptionOptions) throws -> StoreFile {
        try open(path, key: try encryption.key())
    }

    /// Opens `path` read-only with the key of an encrypted Realm file, if any.
    static func open(_ path: String, key: [UInt8]?) throws -> StoreFile {
        try RealmFileOpening.requireFile(path)
        guard StoredFileKind.of(path: path) == .porterDatabase else {
            return .realm(try RealmFileOpening.open(path, key: key))
        }
        if key != nil {
            throw PorterError(
                .usage, "--encryption-key applies to Realm files; this is a Porter database", location: path)
        }
        return .porter(try Database.open(at: path, readOnly: true))
    }

    /// The stored schema (a Realm file's, supplemented by `models` when given).
    func schema(models: Schema?, notes: (String) -> Void) -> Schema {
        switch self {
        case .porter(let db): return db.schema
        case .realm(let file):
            guard let models else { return file.schema }
            let (schema, modelNotes) = file.schema.supplemented(by: models)
            for note in modelNotes { notes("note: \(note)") }
            return schema
        }
    }
}

/// `--models FILE`: a schema file supplying what a Realm file never stores.
func loadModels(_ path: String?) throws -> Schema? {
    try path.map { try Schema(contentsOfFile: $0) }
}

/// Whether a file is JSON text (a schema file) rather than a database: its first non-blank byte
/// opens an object or an array.
func isSchemaFile(_ path: String) -> Bool {
    guard StoredFileKind.of(path: path) == .other, let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4096)) ?? Data()
    let first = head.first {
        ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
    }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
}
