import Foundation
import PorterCSQLite

extension Database {
    /// The SQLite URI of the shared in-memory database named `identifier`.
    static func memoryURI(_ identifier: String) -> String {
        let escaped = identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "db"
        return "file:porter-\(escaped)?mode=memory&cache=shared"
    }

    /// Keeps the in-memory database named `identifier` for the rest of the process, open or not,
    /// as Realm keeps an `inMemoryIdentifier` realm: SQLite drops a shared in-memory database
    /// when its last connection closes, so one idle connection is held for it (never used).
    package static func keepInMemory(identifier: String) throws {
        try InMemoryKeeper.shared.keep(identifier)
    }
}

/// The idle connections that keep named in-memory databases alive (see
/// ``Database/keepInMemory(identifier:)``).
private final class InMemoryKeeper: @unchecked Sendable {
    static let shared = InMemoryKeeper()
    // Guards `kept`; the connections themselves are never used after opening.
    private let lock = NSLock()
    private var kept: [String: SQLiteConnection] = [:]

    func keep(_ identifier: String) throws {
        lock.lock()
        defer { lock.unlock() }
        guard kept[identifier] == nil else { return }
        kept[identifier] = try SQLiteConnection(
            path: Database.memoryURI(identifier), flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }
}
