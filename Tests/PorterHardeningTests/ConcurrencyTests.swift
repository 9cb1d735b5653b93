import Foundation
import Porter
import Testing
import PorterTestSupport

/// Two connections writing one file: the second waits for the busy timeout, then fails with a
/// clear "another porter process is writing FILE" error; nothing is corrupted.
@Suite struct ConcurrencyTests {
    @Test func secondWriterFailsWithBusyAfterTimeout() throws {
        let tmp = try TemporaryFolder("busy")
        let dir = tmp.url
        let path = dir.appendingPathComponent("busy.realm").path
        let schema = try Schema(
            jsonString: #"{"schemaVersion": 1, "classes": [{"name": "A", "properties": {"n": "int"}}]}"#)
        let first = try Database.create(at: path, schema: schema)
        let second = try Database.open(at: path, busyTimeout: 0.2)
        try first.beginWrite()
        try first.create("A", ["n": .int(1)])
        #expect(throws: PorterError.self) { try second.beginWrite() }
        do {
            try second.beginWrite()
        } catch let error as PorterError {
            #expect(error.code == .busy)
            #expect(error.message.contains("another porter process is writing"))
        }
        // A reader sees the old state until the writer commits.
        #expect(try second.count("A") == 0)
        try first.commitWrite()
        #expect(try second.count("A") == 1)
        try second.write { try second.create("A", ["n": .int(2)]) }
        #expect(try first.count("A") == 2)
        #expect(try first.sqliteIntegrityCheck().isEmpty)
    }
}
