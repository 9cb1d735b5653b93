import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// Bad input: a one-line error naming the place, the destination untouched, no file left behind.
@Suite struct RealmFileWriterErrorTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Item", properties: [Property(name: "id", type: .int), Property(name: "name", type: .string)],
            primaryKey: "id"),
        ObjectSchema(
            name: "Tag", properties: [Property(name: "item", type: .object, objectType: "Item", optional: true)]),
    ])

    /// Writes `objects` over an existing destination file and returns the error, checking that
    /// the destination kept its bytes and that the directory holds nothing else.
    static func failingWrite(_ objects: [String: [(Int64, [RealmValue])]]) throws -> PorterError? {
        let tmp = try TemporaryFolder("writer")
        let dir = tmp.url
        let path = dir.appendingPathComponent("out.realm").path
        let original = Data("previous content".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        var caught: PorterError?
        do {
            try RealmFileWriter(schema: schema, schemaVersion: 1).write(
                to: path, source: WriterMemorySource(objects: objects))
        } catch let error as PorterError {
            caught = error
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.realm"])
        return caught
    }

    /// A schema read from a damaged file can repeat a name; the writer says so instead of trapping.
    @Test(arguments: [
        (
            Schema(classes: [
                ObjectSchema(
                    name: "A", properties: [Property(name: "x", type: .int), Property(name: "x", type: .string)])
            ]),
            "two properties are named 'x'", "A.x"
        ),
        (
            Schema(classes: [
                ObjectSchema(name: "A", properties: [Property(name: "x", type: .int)]),
                ObjectSchema(name: "A", properties: [Property(name: "y", type: .int)]),
            ]),
            "two classes are named 'A'", "A"
        ),
    ])
    func repeatedNamesAreRefused(_ schema: Schema, _ message: String, _ location: String) throws {
        let tmp = try TemporaryFolder("writer")
        let path = tmp.path("refused.realm")
        let error = try #require(throws: PorterError.self) {
            try RealmFileWriter(schema: schema, schemaVersion: 1).write(
                to: path, source: WriterMemorySource(objects: [:]))
        }
        #expect(error.message == message)
        #expect(error.location == location)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func wrongTypeIsRefused() throws {
        let error = try Self.failingWrite(["Item": [(0, [.int(1), .int(2)])]])
        #expect(error?.code == .invalidValue)
        #expect(error?.location == "Item[0].name")
    }

    @Test func nullInRequiredIsRefused() throws {
        let error = try Self.failingWrite(["Item": [(0, [.int(1), .null])]])
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("null") == true)
    }

    @Test func duplicatePrimaryKeyIsRefused() throws {
        let error = try Self.failingWrite(["Item": [(0, [.int(1), .string("a")]), (1, [.int(1), .string("b")])]])
        #expect(error?.code == .duplicatePrimaryKey)
        #expect(error?.location == "Item.id")
    }

    @Test func danglingLinkIsRefused() throws {
        let error = try Self.failingWrite([
            "Item": [(0, [.int(1), .string("a")])],
            "Tag": [(0, [.link(className: "Item", key: 9)])],
        ])
        #expect(error?.code == .notFound)
        #expect(error?.location == "Tag[0].item")
    }

    @Test func timestampWithMixedSignsIsRefused() throws {
        let schema = Schema(classes: [ObjectSchema(name: "T", properties: [Property(name: "t", type: .date)])])
        let tmp = try TemporaryFolder("writer")
        let dir = tmp.url
        do {
            try RealmFileWriter(schema: schema, schemaVersion: 0).write(
                to: dir.appendingPathComponent("t.realm").path,
                source: WriterMemorySource(objects: ["T": [(0, [.timestamp(seconds: -1, nanoseconds: 500_000_000)])]]))
            Issue.record("an invalid timestamp was written")
        } catch let error as PorterError {
            #expect(error.code == .invalidValue)
            #expect(error.location == "T[0].t")
        }
    }

    @Test func wrongValueCountIsRefused() throws {
        let error = try Self.failingWrite(["Item": [(0, [.int(1)])]])
        #expect(error?.code == .invalidValue)
        #expect(error?.location == "Item[0]")
    }

    /// A source that gives one more object on every call.
    final class GrowingSource: RealmWriteSource {
        var calls = 0
        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            guard className == "Tag" else { return }
            calls += 1
            for i in 0..<Int64(calls) { try body(i, [.null]) }
        }
    }

    @Test func inconsistentSourceIsRefused() throws {
        let tmp = try TemporaryFolder("writer")
        let dir = tmp.url
        let path = dir.appendingPathComponent("out.realm").path
        #expect(throws: PorterError.self) {
            try RealmFileWriter(schema: Self.schema, schemaVersion: 1).write(to: path, source: GrowingSource())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func successfulWriteReplacesDestination() throws {
        let tmp = try TemporaryFolder("writer")
        let dir = tmp.url
        let path = dir.appendingPathComponent("out.realm").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try RealmFileWriter(schema: Self.schema, schemaVersion: 1)
            .write(to: path, source: WriterMemorySource(objects: ["Item": [(0, [.int(1), .string("a")])]]))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[16..<20]) == Array("T-DB".utf8))
        #expect(bytes[20] == 24 && bytes[21] == 24)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.realm"])
    }
}
