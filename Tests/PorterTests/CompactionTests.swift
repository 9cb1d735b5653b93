import Foundation
import Porter
import Testing
import PorterTestSupport

/// `Database.compact()` and `fileUsage()`, behind Realm's `shouldCompactOnLaunch`.
@Suite struct CompactionTests {
    @Test func compactingInsideAWriteTransactionIsRefused() throws {
        let dir = try TemporaryFolder()
        let database = try Database.create(
            at: dir.file("c.porter").path,
            schema: Schema(version: 0, classes: []))
        try database.beginWrite()
        let error = expectPorterError(.usage) { try database.compact() }
        #expect(error?.message.contains("inside a write transaction") == true)
        try database.commitWrite()
        try database.compact()
    }

    @Test func compactingAReadOnlyDatabaseIsRefused() throws {
        let dir = try TemporaryFolder()
        let path = dir.file("r.porter").path
        _ = try Database.create(at: path, schema: Schema(version: 0, classes: []))
        let readOnly = try Database.open(at: path, readOnly: true)
        let error = expectPorterError(.usage) { try readOnly.compact() }
        #expect(error?.message.contains("read-only") == true)
    }
}
