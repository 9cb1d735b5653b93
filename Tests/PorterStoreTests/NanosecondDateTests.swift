import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Dates keep nanoseconds in the store, sort by time in SQL, and files of format 1 (INTEGER
/// microseconds, written by Porter at c3f2a87) still read, and convert when opened for writing.
@Suite("Nanosecond dates in the store")
struct NanosecondDateTests {
    static func eventSchema() -> Schema {
        Schema(
            version: 1,
            classes: [
                ObjectSchema(
                    name: "Event",
                    properties: [
                        prop("_id", "int"), prop("at", "date", indexed: true), prop("maybe", "date?"),
                        prop("history", "date[]"),
                        prop("seen", "date<>"), prop("byName", "date?{}"), prop("extra", "mixed"),
                        prop("extras", "mixed[]"),
                    ], primaryKey: "_id")
            ])
    }

    static let instants: [Timestamp] = [
        Timestamp(seconds: .min, nanoseconds: -999_999_999), Timestamp(seconds: .min, nanoseconds: 0),
        Timestamp(seconds: -62_135_596_800, nanoseconds: 0),  // 0001-01-01
        Timestamp(seconds: -1, nanoseconds: -999_999_999), Timestamp(seconds: -1, nanoseconds: 0),
        Timestamp(seconds: 0, nanoseconds: -500_000_000), Timestamp(seconds: 0, nanoseconds: -1),
        Timestamp(seconds: 0, nanoseconds: 0), Timestamp(seconds: 0, nanoseconds: 1),
        Timestamp(seconds: 1_709_210_096, nanoseconds: 789_012_345),
        Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999),  // 9999-12-31T23:59:59.999999999
        Timestamp(seconds: .max, nanoseconds: 999_999_999),
    ]

    @Test("Stored date bytes decode the same from a column's buffer as from a collection, damaged ones to nil")
    func storedBytesDecode() {
        func both(_ bytes: [UInt8]) -> (Timestamp?, Timestamp?) {
            (bytes.withUnsafeBytes { StorageCodec.timestamp($0) }, StorageCodec.timestamp(bytes[...]))
        }
        for t in Self.instants {
            let (raw, generic) = both(StorageCodec.dateBytes(t))
            #expect(raw == t)
            #expect(generic == t)
        }
        // Format 1: 8 bytes of microseconds.
        let micros = both([0, 0, 0, 0, 0, 0, 0x03, 0xE8])
        #expect(micros.0 == Timestamp(microseconds: 1000))
        #expect(micros.1 == Timestamp(microseconds: 1000))
        let damaged: [[UInt8]] = [
            Array(repeating: 0, count: 12),  // nanoseconds Int32.min
            StorageCodec.dateBytes(Timestamp(seconds: 1, nanoseconds: 0)).prefix(8) + [0x80 + 0x3B, 0x9A, 0xCA, 0x00],
            StorageCodec.dateBytes(Timestamp(seconds: 5, nanoseconds: 0)).prefix(8) + [0x7F, 0xFF, 0xFF, 0xFF],
            [1, 2, 3], [],
        ]
        for bytes in damaged {
            let (raw, generic) = both(bytes)
            #expect(raw == nil, "\(bytes)")
            #expect(generic == nil, "\(bytes)")
        }
    }

    @Test("Every kind of date slot keeps nanoseconds, including the int64 extremes")
    func roundTrip() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("dates.porter")
        do {
            let db = try Database.create(at: path, schema: Self.eventSchema())
            try db.write {
                for (i, t) in Self.instants.enumerated() {
                    _ = try db.create(
                        "Event",
                        [
                            "_id": .int(Int64(i)), "at": .date(t), "maybe": .date(t),
                            "history": .list([.date(t), .date(t)]),
                            "seen": .set([.date(t)]), "byName": .map(["k": .date(t)]), "extra": .date(t),
                            "extras": .list([.date(t), .int(1)]),
                        ])
                }
            }
        }
        let db = try Database.open(at: path, readOnly: true)
        for (i, t) in Self.instants.enumerated() {
            let key = try #require(try db.key("Event", primaryKey: .int(Int64(i))))
            let object = try #require(try db.snapshot("Event", key))
            #expect(object["at"] == .date(t))
            #expect(object["maybe"] == .date(t))
            #expect(object["history"] == .list([.date(t), .date(t)]))
            #expect(object["seen"] == .set([.date(t)]))
            #expect(object["byName"] == .map(["k": .date(t)]))
            #expect(object["extra"] == .date(t))
            #expect(object["extras"] == .list([.date(t), .int(1)]))
            // Equality lookups in SQL find the exact instant and nothing else.
            #expect(try db.keys("Event", where: "at", equals: .date(t)) == [key])
            #expect(try db.keys("Event", where: "extra", equals: .date(t)) == [key])
        }
        #expect(try db.checkConsistency().isEmpty)
    }

    @Test("SQL orders stored dates by time (the index and ORDER BY see the 12-byte encoding)")
    func sqlOrder() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.eventSchema())
        try db.write {
            // Inserted in shuffled order, ids recording the expected rank.
            for (rank, t) in Self.instants.enumerated().shuffled() {
                _ = try db.create("Event", ["_id": .int(Int64(rank)), "at": .date(t)])
            }
        }
        let stmt = try db.connection.prepare("SELECT _id FROM \"class_Event\" ORDER BY at")
        var ids: [Int64] = []
        while try stmt.step() { ids.append(stmt.int64(0)) }
        #expect(ids == Array(0..<Int64(Self.instants.count)))
        let range = try db.connection.prepare("SELECT count(*) FROM \"class_Event\" WHERE at > ? AND at < ?")
        StorageCodec.bind(.date(Timestamp(seconds: 0, nanoseconds: -1)), type: .date, to: range, at: 1)
        StorageCodec.bind(
            .date(Timestamp(seconds: 1_709_210_096, nanoseconds: 789_012_346)), type: .date, to: range, at: 2)
        #expect(try range.step())
        #expect(range.int64(0) == 3)  // the epoch, 1 ns after it, and 2024
    }
}

/// `Fixtures/format1/events.porter`: written by Porter at c3f2a87 (file format 1).
@Suite("Files of format 1")
struct FormatOneFileTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/format1")

    /// A copy of the fixture in a scratch folder (tests never change the committed file).
    static func copy(into dir: TemporaryFolder) throws -> String {
        let path = dir.path("events.porter")
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("events.porter").path, toPath: path)
        return path
    }

    static func date(_ text: String) throws -> Value { .date(try Timestamp(iso8601: text)) }

    /// What `events.json` put in the file (and the old Porter exported).
    static func expectOriginalValues(_ db: Database, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let oneKey = try #require(try db.key("Event", primaryKey: .int(1)))
        let one = try #require(try db.snapshot("Event", oneKey))
        #expect(one["at"] == (try date("2024-02-29T12:34:56.789012Z")), sourceLocation: sourceLocation)
        #expect(one["maybe"] == (try date("1969-12-31T23:59:59.999999Z")), sourceLocation: sourceLocation)
        #expect(
            one["history"]
                == .list([
                    try date("0001-01-01T00:00:00Z"), try date("9999-12-31T23:59:59.999999Z"),
                    try date("1970-01-01T00:00:00.000001Z"),
                ]), sourceLocation: sourceLocation)
        #expect(
            Set(one["seen"].flatMap { if case .set(let v) = $0 { return v } else { return nil } } ?? [])
                == [try date("2000-01-01T00:00:00Z"), try date("1900-06-15T08:00:00.5Z")],
            sourceLocation: sourceLocation)
        #expect(
            one["byName"] == .map(["start": try date("2020-05-05T05:05:05.050505Z"), "end": .null]),
            sourceLocation: sourceLocation)
        #expect(one["extra"] == (try date("1969-07-20T20:17:40.123456Z")), sourceLocation: sourceLocation)
        #expect(
            one["extras"] == .list([.int(1), try date("2038-01-19T03:14:08.000001Z"), .string("text")]),
            sourceLocation: sourceLocation)
        let twoKey = try #require(try db.key("Event", primaryKey: .int(2)))
        let two = try #require(try db.snapshot("Event", twoKey))
        #expect(two["at"] == (try date("1950-01-01T00:00:00.000001Z")), sourceLocation: sourceLocation)
    }

    static func userVersion(_ db: Database) throws -> SQLValue? { try db.connection.scalar("PRAGMA user_version") }

    @Test("A read-only open reads the old encoding and changes nothing")
    func readOnly() throws {
        let dir = try TemporaryFolder()
        let path = try Self.copy(into: dir)
        let before = try fileBytes(path)
        do {
            let db = try Database.open(at: path, readOnly: true)
            #expect(try Self.userVersion(db) == .integer(1))
            try Self.expectOriginalValues(db)
            #expect(try db.checkConsistency().isEmpty)
            #expect(try db.keys("Event", where: "at", equals: try Self.date("1950-01-01T00:00:00.000001Z")).count <= 1)
        }
        #expect(try fileBytes(path) == before)
    }

    @Test("A write open converts every date to format 2 in place, keeping each value")
    func upgrade() throws {
        let dir = try TemporaryFolder()
        let path = try Self.copy(into: dir)
        do {
            let db = try Database.open(at: path)
            #expect(try Self.userVersion(db) == .integer(2))
            try Self.expectOriginalValues(db)
            #expect(try db.checkConsistency().isEmpty)
            // Nothing is left in the old encoding, in columns, collections or mixed cells.
            for sql in [
                "SELECT count(*) FROM \"class_Event\" WHERE typeof(at) <> 'blob' OR typeof(maybe) = 'integer'",
                "SELECT count(*) FROM \"class_Event.history\" WHERE typeof(value) <> 'blob' OR length(value) <> 12",
                "SELECT count(*) FROM \"class_Event.seen\" WHERE typeof(value) <> 'blob'",
                "SELECT count(*) FROM \"class_Event.byName\" WHERE typeof(value) = 'integer'",
                "SELECT count(*) FROM \"class_Event\" WHERE typeof(extra) = 'blob' AND length(extra) = 9",
                "SELECT count(*) FROM \"class_Event.extras\" WHERE typeof(value) = 'blob' AND length(value) = 9",
            ] {
                #expect(try db.connection.scalar(sql) == .integer(0), "\(sql)")
            }
            let key = try #require(try db.key("Event", primaryKey: .int(1)))
            try db.write {
                // A set lookup compares stored bytes: an existing date is found, not added twice.
                #expect(try db.setInsert("Event", key, "seen", try Self.date("2000-01-01T00:00:00Z")) == false)
                #expect(try db.setInsert("Event", key, "seen", try Self.date("2000-01-01T00:00:00.000000001Z")))
                try db.set("Event", key, "maybe", try Self.date("1969-12-31T23:59:59.999999999Z"))
            }
            #expect(try db.collectionCount("Event", key, "seen") == 3)
        }
        let db = try Database.open(at: path, readOnly: true)
        let key = try #require(try db.key("Event", primaryKey: .int(1)))
        #expect(try db.value("Event", key, "maybe") == (try Self.date("1969-12-31T23:59:59.999999999Z")))
        #expect(try Self.userVersion(db) == .integer(2))
    }

    @Test("A file of a newer format is still refused")
    func newerRefused() throws {
        let dir = try TemporaryFolder()
        let path = try Self.copy(into: dir)
        do {
            let db = try Database.open(at: path)
            try db.connection.execute("PRAGMA user_version=3")
        }
        let error = expectPorterError(.notADatabase) { _ = try Database.open(at: path, readOnly: true) }
        #expect(error?.message.contains("file format 3; this Porter reads up to 2") == true)
    }
}
