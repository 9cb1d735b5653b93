import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore
import PorterTestSupport

/// Dates with nanoseconds: plain JSON keeps all nine digits both ways; BSON and Extended JSON
/// hold milliseconds, so finer digits are floored, counted and warned about.
@Suite struct NanosecondDateInterchangeTests {
    static let schemaText =
        #"{"classes":[{"name":"E","primaryKey":"_id","properties":{"_id":"int","at":"date","more":"date[]","any":"mixed"}}]}"#

    static func database() throws -> Database {
        let db = try memoryDatabase(try schema(schemaText))
        try db.write {
            _ = try db.create(
                "E",
                [
                    "_id": .int(1), "at": .date(try Timestamp(iso8601: "2024-01-02T03:04:05.123456789Z")),
                    "more": .list([
                        .date(try Timestamp(iso8601: "0001-01-01T00:00:00.000000001Z")),
                        .date(try Timestamp(iso8601: "2024-01-02T03:04:05.250Z")),
                        .date(Timestamp(seconds: -1, nanoseconds: -1)),
                    ]),
                    "any": .date(try Timestamp(iso8601: "9999-12-31T23:59:59.999999999Z")),
                ])
        }
        return db
    }

    @Test func plainJSONWritesAndReadsNineFractionDigits() throws {
        let db = try Self.database()
        let text = String(decoding: try exportClass(db, "E", format: "json"), as: UTF8.self)
        #expect(
            text
                == #"{"_id":1,"at":"2024-01-02T03:04:05.123456789Z","more":["0001-01-01T00:00:00.000000001Z","2024-01-02T03:04:05.250Z","1969-12-31T23:59:58.999999999Z"],"any":{"$date":"9999-12-31T23:59:59.999999999Z"}}"#
                + "\n")
        let copy = try memoryDatabase(try schema(Self.schemaText))
        #expect(importLines(copy, text, name: "E.json", className: "E").isEmpty)
        let key = try #require(try copy.key("E", primaryKey: .int(1)))
        #expect(try copy.snapshot("E", key) == (try db.snapshot("E", key)))
        #expect(try copy.value("E", key, "at") == .date(Timestamp(seconds: 1_704_164_645, nanoseconds: 123_456_789)))
    }

    @Test(arguments: ["bson", "ejson", "ejson-canonical"])
    func millisecondFormatsFloorCountAndWarn(format: String) throws {
        let db = try Self.database()
        let exporter = Exporter(
            database: db, format: try InterchangeFormats.outputFormat(named: format), options: ExportOptions())
        let report = try exporter.export(className: "E", to: ByteOutput(memoryNamed: "-"))
        // 123456789 ns, 1 ns, -1 ns and 999999999 ns have digits below the millisecond; .250 has not.
        #expect(report.flooredDates == 4)
        #expect(
            report.warnings == [
                "warning: 4 date values had sub-millisecond precision and were floored to milliseconds (BSON dates hold milliseconds; use --format json to keep nanoseconds)"
            ])
        let copy = try memoryDatabase(try schema(Self.schemaText))
        #expect(
            importLines(
                copy, Data(try exportClass(db, "E", format: format)), name: "E.\(format == "bson" ? "bson" : "json")",
                className: "E"
            ).isEmpty)
        let key = try #require(try copy.key("E", primaryKey: .int(1)))
        #expect(try copy.value("E", key, "at") == .date(try Timestamp(iso8601: "2024-01-02T03:04:05.123Z")))
        #expect(
            try copy.value("E", key, "more")
                == .list([
                    .date(try Timestamp(iso8601: "0001-01-01T00:00:00Z")),
                    .date(try Timestamp(iso8601: "2024-01-02T03:04:05.250Z")),
                    .date(Timestamp(milliseconds: -1001)),
                ]))
    }

    @Test func extendedJSONISODatesWithNanosecondsAreReadByPorter() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        let text =
            #"{"_id": 1, "at": {"$date": "2024-01-02T03:04:05.123456789Z"}, "more": [{"$date": "1969-12-31T23:59:59.999999999+00:00"}], "any": {"$date": "2024-01-02T03:04:05.000000001Z"}}"#
        #expect(importLines(db, text, name: "E.json", className: "E").isEmpty)
        let key = try #require(try db.key("E", primaryKey: .int(1)))
        #expect(try db.value("E", key, "at") == .date(Timestamp(seconds: 1_704_164_645, nanoseconds: 123_456_789)))
        #expect(try db.value("E", key, "more") == .list([.date(Timestamp(seconds: 0, nanoseconds: -1))]))
        #expect(try db.value("E", key, "any") == .date(Timestamp(seconds: 1_704_164_645, nanoseconds: 1)))
        // Below the nanosecond nothing is cut silently.
        let lines = importLines(
            db, #"{"_id": 2, "at": {"$date": "2024-01-02T03:04:05.1234567891Z"}}"#, name: "E.json", className: "E")
        #expect(
            lines == [
                "E.json:1:at: invalid Extended JSON $date: invalid ISO 8601 date '2024-01-02T03:04:05.1234567891Z': more than nanosecond precision (Porter keeps 9 fraction digits)"
            ])
    }

    @Test func datesBeyondBSONRangeAreRefusedNotClamped() throws {
        let db = try memoryDatabase(try schema(Self.schemaText))
        try db.write {
            _ = try db.create("E", ["_id": .int(1), "at": .date(Timestamp(seconds: .max, nanoseconds: 0))])
        }
        let exporter = Exporter(
            database: db, format: try InterchangeFormats.outputFormat(named: "bson"), options: ExportOptions())
        let error = #expect(throws: PorterError.self) {
            try exporter.export(className: "E", to: ByteOutput(memoryNamed: "-"))
        }
        #expect(error?.message.contains("beyond what BSON dates hold") == true, "\(String(describing: error))")
        #expect(
            String(decoding: try exportClass(db, "E", format: "json"), as: UTF8.self).contains(
                #""at":"+292277026596-12-04T15:30:07Z""#))
    }

    @Test func aFormatOneFileExportsAsTheOldPorterExportedIt() throws {
        let fixture = Files.root.appendingPathComponent("Fixtures/format1")
        let expected = try Data(contentsOf: fixture.appendingPathComponent("events.export.json"))
        let dir = try TemporaryFolder()
        let path = dir.path("events.porter")
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("events.porter").path, toPath: path)
        // Read-only: the old encoding as it is; then read-write: converted to format 2 first.
        for readOnly in [true, false] {
            let db = try Database.open(at: path, readOnly: readOnly)
            #expect(try exportClass(db, "Event", format: "json") == expected, "readOnly: \(readOnly)")
        }
    }
}
