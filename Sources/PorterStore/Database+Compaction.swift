import Foundation
import PorterModel

extension Database {
    /// The database file's size in bytes and the bytes its data uses (the rest is free pages a
    /// compaction would give back), for Realm's `shouldCompactOnLaunch`.
    public func fileUsage() throws -> (totalBytes: Int, usedBytes: Int) {
        func pragma(_ name: String) throws -> Int {
            guard case .integer(let value) = try connection.scalar("PRAGMA \(name)") else { return 0 }
            return Int(value)
        }
        let pageSize = try pragma("page_size")
        let pages = try pragma("page_count")
        let free = try pragma("freelist_count")
        return (pages * pageSize, (pages - free) * pageSize)
    }

    /// Rewrites the file without its free pages (SQLite's `VACUUM`, itself atomic: the old
    /// content stays until the new one is complete).
    /// - Throws: ``PorterError/Code/usage`` inside a write transaction or on a read-only
    ///   database; the store's error when the rewrite fails.
    public func compact() throws {
        if isReadOnly { throw PorterError(.usage, "a read-only database cannot be compacted", location: path) }
        guard !isInWriteTransaction else {
            throw PorterError(.usage, "a database cannot be compacted inside a write transaction", location: path)
        }
        try connection.execute("VACUUM")
    }
}
