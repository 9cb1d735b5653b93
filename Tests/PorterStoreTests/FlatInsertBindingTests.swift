import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// `createRow` binds strings, ObjectIds and dates from buffers it keeps per parameter: values of
/// every length, one object after another, come back exactly as given.
@Suite("Flat inserts bind from kept buffers")
struct FlatInsertBindingTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Row",
            properties: [
                prop("_id", "objectId"), prop("text", "string"), prop("when", "date"), prop("note", "string?"),
            ], primaryKey: "_id")
    ])

    @Test("strings (empty, NULs, long then short), ObjectIds and dates round-trip through createRow")
    func roundTrip() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema)
        let texts = ["", "a\u{0}b", String(repeating: "long é ", count: 40), "x", "日本語", ""]
        let dates = [
            Timestamp(seconds: -62_135_596_800, nanoseconds: 0), Timestamp(seconds: 0, nanoseconds: 1),
            Timestamp(seconds: 1_700_000_000, nanoseconds: 999_999_999), Timestamp(seconds: -1, nanoseconds: 5),
            Timestamp(seconds: 42, nanoseconds: 0), Timestamp(seconds: 7, nanoseconds: 7),
        ]
        let ids = try (0..<texts.count).map { try ObjectId(string: String(format: "%024x", $0 * 7919 + 1)) }
        let keys = try db.write {
            try texts.indices.map { i in
                try db.createRow(
                    "Row",
                    [.objectId(ids[i]), .string(texts[i]), .date(dates[i]), i % 2 == 0 ? nil : .string(texts[i])])
            }
        }
        for i in texts.indices {
            #expect(try db.value("Row", keys[i], "_id") == .objectId(ids[i]))
            #expect(try db.value("Row", keys[i], "text") == .string(texts[i]))
            #expect(try db.value("Row", keys[i], "when") == .date(dates[i]))
            #expect(try db.value("Row", keys[i], "note") == (i % 2 == 0 ? .null : .string(texts[i])))
        }
        // The stored forms are those every other path writes: dates sort by time in SQL.
        let ordered = try db.connection.prepare("SELECT _key FROM class_Row ORDER BY \"when\"")
        var byTime: [Int64] = []
        while try ordered.step() { byTime.append(ordered.int64(0)) }
        let expected = dates.indices.sorted {
            (dates[$0].seconds, dates[$0].nanoseconds) < (dates[$1].seconds, dates[$1].nanoseconds)
        }
        #expect(byTime == expected.map { keys[$0].rawValue })
    }
}
