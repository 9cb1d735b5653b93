import Foundation
import PorterModel
import PorterStore
import PorterTestSupport
import Testing

@testable import PorterInterchange

/// PostgreSQL's text forms read back as the values the PostgreSQL export wrote (`PostgresText`):
/// dates through `timestamptz` text and the `_ns` column (and the `text` fallback beyond
/// timestamptz's years, BC dates, the ends of the int64 range), floats, `bytea` hex.
@Suite struct PostgresCellsTests {
    /// What the writer writes for `t`, read back.
    static func roundTrip(_ t: Timestamp) -> Timestamp? {
        let (text, nanos, _) = PostgresText.timestamp(t)
        return PostgresCells.timestamp(text, nanoseconds: String(nanos))
    }

    @Test(
        "dates: the writer's text and nanoseconds read back as the same instant",
        arguments: [
            Timestamp(seconds: 0, nanoseconds: 0), Timestamp(seconds: 1_600_000_000, nanoseconds: 123_456_789),
            Timestamp(seconds: -1, nanoseconds: -1), Timestamp(seconds: -62_135_596_800, nanoseconds: 0),  // 0001-01-01
            Timestamp(seconds: -62_135_596_801, nanoseconds: -5),  // 1 BC
            Timestamp(seconds: -210_866_803_200, nanoseconds: 0),  // timestamptz's first second
            Timestamp(seconds: 9_224_318_015_999, nanoseconds: 999_999_999),  // its last
            Timestamp(seconds: 253_402_300_800, nanoseconds: 7),  // year 10000
            Timestamp(seconds: .max, nanoseconds: 999_999_999), Timestamp(seconds: .min + 1, nanoseconds: -999_999_999),
        ])
    func dates(_ t: Timestamp) {
        #expect(Self.roundTrip(t) == t, "\(PostgresText.timestamp(t).text)")
    }

    @Test("dates: 10,000 seeded instants over the int64 range read back equal")
    func seededDates() {
        var rng = SeededGenerator(seed: 40)
        for _ in 0..<10_000 {
            let seconds = Int64.random(in: (.min + 1)...(.max), using: &rng) >> Int64.random(in: 0...50, using: &rng)
            let nanos = Int32.random(in: 0...999_999_999, using: &rng) * (seconds < 0 ? -1 : 1)
            let t = Timestamp(seconds: seconds, nanoseconds: nanos)
            #expect(Self.roundTrip(t) == t, "\(PostgresText.timestamp(t).text)")
        }
    }

    /// One row of COPY text as the spool holds it.
    static func row(_ write: (CopySpool) throws -> Void) throws -> String {
        let spool = CopySpool.memory()
        try write(spool)
        try spool.endRow()
        var text = ""
        try spool.forEachChunk { text += String(decoding: $0, as: UTF8.self) }
        return text
    }

    @Test("COPY fields: integers at the ends of the range and padded, ObjectIds, text with and without escapes")
    func copyFields() throws {
        let ints: [(Int64, Int, String)] = [
            (0, 1, "0"), (-1, 1, "-1"), (7, 4, "0007"), (-7, 3, "-007"), (12345, 2, "12345"),
            (.max, 1, "9223372036854775807"), (.min, 1, "-9223372036854775808"),
        ]
        for (value, width, expected) in ints {
            #expect(try Self.row { $0.int(value, width: width) } == expected + "\n", "\(value) width \(width)")
        }
        let id = try ObjectId(string: "5f5e100020e16b6746a13c13")
        #expect(try Self.row { $0.objectId(id) } == "5f5e100020e16b6746a13c13\n")
        let texts: [(String, String, Bool)] = [
            ("plain é ☃", "plain é ☃", false), ("a\\b\tc\nd\re", "a\\\\b\\tc\\nd\\re", false),
            ("nul\u{0}", "nul\\000", true), ("", "", false),
        ]
        for (text, expected, nul) in texts {
            var sawNul = false
            #expect(try Self.row { sawNul = $0.text(text) } == expected + "\n", "\(text.debugDescription)")
            #expect(sawNul == nul, "\(text.debugDescription)")
        }
    }

    @Test("dates as PostgreSQL prints timestamptz: no fraction, a short one, BC")
    func printedForms() {
        #expect(
            PostgresCells.timestamp("1970-01-01 00:00:00+00", nanoseconds: "0") == Timestamp(seconds: 0, nanoseconds: 0)
        )
        #expect(
            PostgresCells.timestamp("2020-09-13 12:26:40.5+00", nanoseconds: "7")
                == Timestamp(seconds: 1_600_000_000, nanoseconds: 500_000_007))
        #expect(
            PostgresCells.timestamp("0001-12-31 23:59:59+00 BC", nanoseconds: nil)
                == Timestamp(seconds: -62_135_596_801, nanoseconds: 0))
        // Not what the export writes: left as text for the reader to name.
        for bad in ["2020-09-13 12:26:40+01", "2020-13-01 00:00:00+00", "yesterday", "2020-09-13 12:26:40.1234567+00"] {
            #expect(PostgresCells.timestamp(bad, nanoseconds: "0") == nil, "\(bad)")
        }
        #expect(PostgresCells.timestamp("2020-09-13 12:26:40+00", nanoseconds: "1000") == nil)
    }

    @Test("real and double precision: the same bits; NaN as the reader's text")
    func floats() {
        #expect(PostgresCells.cell("0.1", type: "real", holds: .float) == .real(Double(Float(0.1))))
        #expect(PostgresCells.cell("0.1", type: "double precision", holds: .double) == .real(0.1))
        #expect(PostgresCells.cell("-0", type: "double precision", holds: .double) == .real(-0.0))
        #expect(PostgresCells.cell("-Infinity", type: "real", holds: .float) == .real(-.infinity))
        #expect(PostgresCells.cell("NaN", type: "double precision", holds: .double) == .text("NaN"))
        #expect(PostgresCells.cell("t", type: "boolean", holds: .bool) == .integer(1))
        #expect(PostgresCells.cell("-9223372036854775808", type: "bigint", holds: .int) == .integer(.min))
    }

    @Test("bytea hex: bytes, or a string's UTF-8 where a string column fell back to bytea")
    func bytea() {
        #expect(PostgresCells.cell("\\x00ff10", type: "bytea", holds: .data) == .blob(Data([0, 255, 16])))
        #expect(PostgresCells.cell("\\x610062", type: "bytea", holds: .string) == .text("a\u{0}b"))
        #expect(PostgresCells.cell("\\x", type: "bytea", holds: .data) == .blob(Data()))
        #expect(PostgresCells.bytes(hex: "\\x0g") == nil)
        #expect(PostgresCells.hex(Data([0, 255, 16])) == "\\x00ff10")
    }
}
