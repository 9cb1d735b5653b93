import Foundation

/// What a file holds, told by its content, never by its name: a Porter database (an SQLite file)
/// or a Realm file (`T-DB` at offset 16).
package enum StoredFileKind: Sendable, Equatable {
    /// A Porter database: starts with `SQLite format 3\0`.
    case porterDatabase
    /// A Realm file: the mnemonic `T-DB` at offset 16.
    case realmFile
    /// Anything else (a schema or data file, an encrypted Realm file, noise), or unreadable.
    case other

    /// The kind of the file at `path` (`.other` when it cannot be read).
    package static func of(path: String) -> StoredFileKind {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .other }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 24)) ?? Data())
        return of(header: header)
    }

    /// The kind of a file that starts with `header` (its first 24 bytes or fewer).
    package static func of(header: [UInt8]) -> StoredFileKind {
        if header.starts(with: Array("SQLite format 3\0".utf8)) { return .porterDatabase }
        if header.count >= 20 && header[16..<20].elementsEqual("T-DB".utf8) { return .realmFile }
        return .other
    }

    /// The message for a file that is neither: an encrypted Realm file cannot be told from noise.
    package static let neitherMessage =
        "not a Porter or Realm file; if it is an encrypted Realm file, pass --encryption-key"
}
