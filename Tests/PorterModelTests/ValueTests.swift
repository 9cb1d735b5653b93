import Foundation
import Testing
@testable import PorterModel

// MARK: - ObjectId

@Suite("ObjectId")
struct ObjectIdTests {
    @Test("Hex parse and format round trip")
    func hexRoundTrip() throws {
        let id = try ObjectId(string: "507f1f77bcf86cd799439011")
        #expect(id.stringValue == "507f1f77bcf86cd799439011")
        #expect(id.description == "507f1f77bcf86cd799439011")
        #expect(id.bytes == [0x50, 0x7F, 0x1F, 0x77, 0xBC, 0xF8, 0x6C, 0xD7, 0x99, 0x43, 0x90, 0x11])
        #expect(ObjectId(bytes: id.bytes) == id)

        // Uppercase input is accepted; output is always lowercase.
        let upper = try ObjectId(string: "507F1F77BCF86CD799439011")
        #expect(upper == id)
        #expect(upper.stringValue == "507f1f77bcf86cd799439011")

        for hex in ["000000000000000000000000", "ffffffffffffffffffffffff", "0123456789abcdef01234567"] {
            #expect(try ObjectId(string: hex).stringValue == hex)
        }
    }

    @Test("Byte counts other than 12 are rejected")
    func byteCount() {
        #expect(ObjectId(bytes: [UInt8](repeating: 1, count: 11)) == nil)
        #expect(ObjectId(bytes: [UInt8](repeating: 1, count: 13)) == nil)
        #expect(ObjectId(bytes: [UInt8]()) == nil)
    }

    @Test("Bad hex throws a parse error quoting the input", arguments: [
        "", "507f1f77bcf86cd79943901", "507f1f77bcf86cd7994390111", "507f1f77bcf86cd79943901z",
        "507f1f77bcf86cd79943901g", " 07f1f77bcf86cd799439011", "0x7f1f77bcf86cd799439011", "507f1f77bcf86cd79943901é",
    ])
    func badHex(_ hex: String) {
        let error = #expect(throws: PorterError.self) { try ObjectId(string: hex) }
        #expect(error?.code == .parseError)
        #expect(error?.message.hasPrefix("invalid ObjectId '\(hex)': ") == true, "\(error?.message ?? "")")
    }

    @Test("Ordering follows the bytes, timestamp first")
    func ordering() throws {
        let a = try ObjectId(string: "000000010000000000000000")
        let b = try ObjectId(string: "0000000100000000000000ff")
        let c = try ObjectId(string: "00000002000000000000000a")
        let d = try ObjectId(string: "ff0000000000000000000000")
        #expect(a < b && b < c && c < d)
        #expect([d, b, c, a].sorted() == [a, b, c, d])
    }

    @Test("Generated ids are unique, share the process bytes and count up")
    func generate() {
        let ids = (0..<2000).map { _ in ObjectId.generate() }
        #expect(Set(ids).count == ids.count)
        let process = Array(ids[0].bytes[4..<9])
        for (previous, next) in zip(ids, ids.dropFirst()) {
            #expect(Array(next.bytes[4..<9]) == process)
            // Other tests may generate ids concurrently, so the counter may skip values; it must
            // still move forward (modulo its 24-bit wrap-around).
            let step = (counter(of: next) &- counter(of: previous)) & 0xFF_FFFF
            #expect(step > 0 && step < 0x80_0000, "\(previous) → \(next)")
        }
    }

    @Test("The timestamp is the creation time in whole seconds")
    func timestamp() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.75)
        let id = ObjectId.generate(at: date)
        #expect(id.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(Array(id.bytes[0..<4]) == [0x65, 0x53, 0xF1, 0x00])

        #expect(try ObjectId(string: "507f1f77bcf86cd799439011").timestamp == Date(timeIntervalSince1970: 0x507F_1F77))
        #expect(try ObjectId(string: "ffffffff0000000000000000").timestamp == Date(timeIntervalSince1970: 4_294_967_295))

        let before = Date().timeIntervalSince1970.rounded(.down)
        let now = ObjectId.generate().timestamp.timeIntervalSince1970
        let after = Date().timeIntervalSince1970
        #expect(now >= before && now <= after)
    }

    @Test("Dates outside what a Double of seconds converts to Int64 do not crash")
    func extremeDates() {
        for seconds in [Double.infinity, -.infinity, .nan, 1e300] {
            _ = ObjectId.generate(at: Date(timeIntervalSince1970: seconds))
        }
    }

    private func counter(of id: ObjectId) -> UInt32 {
        let b = id.bytes
        return UInt32(b[9]) << 16 | UInt32(b[10]) << 8 | UInt32(b[11])
    }
}

// MARK: - Timestamp

@Suite("Timestamp")
struct TimestampTests {
    @Test("ISO 8601 format and parse round trip", arguments: [
        ("0001-01-01T00:00:00Z", -62_135_596_800_000_000 as Int64),
        ("1969-12-31T23:59:59.999999Z", -1),
        ("1969-12-31T23:59:59.999Z", -1_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.000001Z", 1),
        ("2023-06-15T12:34:56.123456Z", 1_686_832_496_123_456),
        ("2023-06-15T12:34:56.120Z", 1_686_832_496_120_000),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000_000),
        ("9999-12-31T23:59:59.999999Z", 253_402_300_799_999_999),
        ("+010000-01-01T00:00:00Z", 253_402_300_800_000_000),
        ("+100000-01-01T00:00:00Z", 3_093_527_980_800_000_000),
        ("+294247-01-10T04:00:54.775807Z", .max),
    ])
    func roundTrip(_ text: String, _ microseconds: Int64) throws {
        let parsed = try Timestamp(iso8601: text)
        #expect(parsed.microseconds == microseconds)
        #expect(parsed.iso8601 == text)
        #expect(parsed.description == text)
    }

    @Test("Extreme values round trip")
    func extremes() throws {
        for micros in [Int64.min, .min + 1, .max, -62_135_596_800_000_001, -86_400_000_000 * 1_000_000] {
            let t = Timestamp(microseconds: micros)
            #expect(try Timestamp(iso8601: t.iso8601).microseconds == micros, "\(t.iso8601)")
        }
        #expect(Timestamp(microseconds: .min).iso8601 == "-290308-12-21T19:59:05.224192Z")
    }

    @Test("Fraction digits: 0, 3 or 6 as needed, or at least the minimum asked for")
    func fractionDigits() throws {
        let whole = try Timestamp(iso8601: "2023-06-15T12:34:56Z")
        #expect(whole.iso8601 == "2023-06-15T12:34:56Z")
        #expect(whole.iso8601(minimumFractionDigits: 3) == "2023-06-15T12:34:56.000Z")
        #expect(whole.iso8601(minimumFractionDigits: 6) == "2023-06-15T12:34:56.000000Z")

        let millis = try Timestamp(iso8601: "2023-06-15T12:34:56.5Z")
        #expect(millis.iso8601 == "2023-06-15T12:34:56.500Z")
        #expect(millis.iso8601(minimumFractionDigits: 6) == "2023-06-15T12:34:56.500000Z")

        let micros = try Timestamp(iso8601: "2023-06-15T12:34:56.1234Z")
        #expect(micros.iso8601 == "2023-06-15T12:34:56.123400Z")
        #expect(micros.iso8601(minimumFractionDigits: 3) == "2023-06-15T12:34:56.123400Z")

        // Digits past the sixth are accepted only when they are zeros.
        #expect(try Timestamp(iso8601: "2023-06-15T12:34:56.123456000Z") == Timestamp(iso8601: "2023-06-15T12:34:56.123456Z"))
        #expect(try Timestamp(iso8601: "2023-06-15T12:34:56,5Z") == millis)
    }

    @Test("Zone offsets and other accepted spellings")
    func offsets() throws {
        let utc = try Timestamp(iso8601: "2023-06-15T12:34:56Z")
        for text in [
            "2023-06-15T14:34:56+02:00", "2023-06-15T14:34:56+0200", "2023-06-15T07:04:56-05:30",
            "2023-06-15T12:34:56+00:00", "2023-06-15T12:34:56-00:00", "2023-06-15t12:34:56z",
            "2023-06-15 12:34:56Z", "2023-06-15T12:34:56", "+002023-06-15T12:34:56Z",
        ] {
            #expect(try Timestamp(iso8601: text) == utc, "\(text)")
        }
        // An offset can move the instant across a day and year boundary.
        #expect(try Timestamp(iso8601: "2000-01-01T01:00:00+02:00").iso8601 == "1999-12-31T23:00:00Z")
        #expect(try Timestamp(iso8601: "2023-06-15").iso8601 == "2023-06-15T00:00:00Z")
        #expect(try Timestamp(iso8601: "2023-06-15T12:34Z").iso8601 == "2023-06-15T12:34:00Z")
    }

    @Test("Invalid dates throw a parse error quoting the text", arguments: [
        "2023-02-29T00:00:00Z", "1900-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-06-00",
        "2023-06-15T24:00:00Z", "2023-06-15T12:60:00Z", "2023-06-15T12:34:60Z", "2023-06-15T12:34:56.Z",
        "2023-06-15T12:34:56.123456789Z", "2023-06-15T12:34:56.0000001Z", "2023-06-15T12:34:56Zjunk",
        "2023-06-15T12:34:56+2:00", "", "23-06-15", "99999-01-01", "+999999-12-31T23:59:59Z",
        "2023/06/15",
    ])
    func invalid(_ text: String) {
        let error = #expect(throws: PorterError.self) { try Timestamp(iso8601: text) }
        #expect(error?.code == .parseError)
        #expect(error?.message.hasPrefix("invalid ISO 8601 date '\(text)': ") == true, "\(error?.message ?? "")")
    }

    @Test("Leap years follow the Gregorian rules")
    func leapYears() throws {
        #expect(throws: Never.self) { try Timestamp(iso8601: "2000-02-29") }
        #expect(throws: Never.self) { try Timestamp(iso8601: "2024-02-29") }
        #expect(throws: PorterError.self) { try Timestamp(iso8601: "2100-02-29") }
    }

    @Test("Milliseconds: exact conversion, floor rounding, overflow throws")
    func milliseconds() throws {
        #expect(try Timestamp(milliseconds: 1_700_000_000_123).microseconds == 1_700_000_000_123_000)
        #expect(try Timestamp(milliseconds: -1).microseconds == -1_000)
        #expect(try Timestamp(milliseconds: Int64.max / 1000).milliseconds == Int64.max / 1000)
        for ms in [Int64.max, .min, Int64.max / 1000 + 1, Int64.min / 1000 - 1] {
            let error = #expect(throws: PorterError.self) { try Timestamp(milliseconds: ms) }
            #expect(error?.code == .invalidValue)
        }
        #expect(Timestamp(microseconds: -1).milliseconds == -1)
        #expect(Timestamp(microseconds: 1_999).milliseconds == 1)
        #expect(Timestamp(microseconds: -1).hasSubMillisecondPrecision)
        #expect(!Timestamp(microseconds: -2_000).hasSubMillisecondPrecision)
    }

    @Test("Ordering follows time")
    func ordering() throws {
        let a = try Timestamp(iso8601: "1969-12-31T23:59:59.999999Z")
        let b = try Timestamp(iso8601: "1970-01-01T00:00:00Z")
        let c = try Timestamp(iso8601: "+010000-01-01T00:00:00Z")
        #expect(a < b && b < c)
    }
}
