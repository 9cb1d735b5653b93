import Foundation
import Testing
@testable import PorterDiff
import PorterModel
import PorterTestSupport

/// Every conversion of the issue (and a few more), on values alone.
@Suite struct ConversionTests {
    private func convert(_ v: Value, _ to: PropertyType, _ rule: ConversionRule = .exact) throws -> Value {
        try ValueConversion.convertElement(v, to: to, rule: rule)
    }

    private func fails(
        _ v: Value, _ to: PropertyType, _ rule: ConversionRule = .exact,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
        expectPorterError(.invalidValue, sourceLocation: sourceLocation) { _ = try convert(v, to, rule) }?.message
    }

    @Test func intAndString() throws {
        #expect(try convert(.int(-42), .string) == .string("-42"))
        #expect(try convert(.string("-42"), .int) == .int(-42))
        #expect(try convert(.string(String(Int64.max)), .int) == .int(.max))
        #expect(fails(.string("4.5"), .int) == "'4.5' is not an integer")
        #expect(fails(.string("abc"), .int) == "'abc' is not an integer")
    }

    @Test func intToDoubleIsExact() throws {
        #expect(try convert(.int(1 << 53), .double) == .double(9007199254740992))
        #expect(fails(.int((1 << 53) + 1), .double) != nil)
        #expect(try convert(.int((1 << 53) + 1), .double, .nearest) == .double(9007199254740992))
    }

    @Test func doubleToIntOnlyIntegral() throws {
        #expect(try convert(.double(3), .int) == .int(3))
        #expect(try convert(.double(-0.0), .int) == .int(0))
        #expect(fails(.double(2.5), .int) == "2.5 is not an integral value")
        #expect(fails(.double(1e300), .int) == "1e+300 is out of the range of an int")
        #expect(fails(.double(.nan), .int) != nil)
        #expect(try convert(.double(2.5), .int, .truncate) == .int(2))
        #expect(try convert(.double(2.5), .int, .nearest) == .int(2))
        #expect(try convert(.double(3.5), .int, .nearest) == .int(4))
        #expect(try convert(.float(7), .int) == .int(7))
    }

    @Test func floatAndDouble() throws {
        #expect(try convert(.float(1.5), .double) == .double(1.5))
        #expect(try convert(.float(0.1), .double) == .double(Double(Float(0.1))))
        #expect(ValueConversion.defaultRule(from: .double, to: .float) == .nearest)
        #expect(try convert(.double(0.1), .float, .nearest) == .float(0.1))
        #expect(fails(.double(0.1), .float, .exact) != nil)
        #expect(fails(.double(1e300), .float, .nearest) == "1e+300 is out of the range of a float")
    }

    @Test func stringAndDate() throws {
        let t = try Timestamp(iso8601: "2024-02-29T12:34:56.789Z")
        #expect(try convert(.string("2024-02-29T12:34:56.789Z"), .date) == .date(t))
        #expect(try convert(.date(t), .string) == .string("2024-02-29T12:34:56.789Z"))
        #expect(try convert(.string("2024-01-01"), .date) == .date(try Timestamp(iso8601: "2024-01-01T00:00:00Z")))
        #expect(fails(.string("yesterday"), .date) == "'yesterday' is not an ISO 8601 date")
    }

    @Test func stringAndObjectId() throws {
        let hex = "5f1b2c3d4e5f60718293a4b5"
        #expect(try convert(.string(hex), .objectId) == .objectId(try ObjectId(string: hex)))
        #expect(try convert(.objectId(try ObjectId(string: hex)), .string) == .string(hex))
        #expect(fails(.string("5f1b"), .objectId) == "'5f1b' is not an ObjectId (24 hex digits)")
    }

    @Test func stringAndUUID() throws {
        let u = UUID()
        #expect(try convert(.string(u.uuidString), .uuid) == .uuid(u))
        #expect(try convert(.uuid(u), .string) == .string(u.uuidString.lowercased()))
        #expect(fails(.string("nope"), .uuid) == "'nope' is not a UUID")
    }

    @Test func decimal128() throws {
        #expect(try convert(.string("12.50"), .decimal128) == .decimal128(try Decimal128(string: "12.50")))
        #expect(try convert(.decimal128(try Decimal128(string: "12.50")), .string) == .string("12.50"))
        #expect(try convert(.int(-7), .decimal128) == .decimal128(Decimal128(-7)))
        #expect(try convert(.decimal128(try Decimal128(string: "1.000E+3")), .int) == .int(1000))
        #expect(fails(.decimal128(try Decimal128(string: "1.5")), .int) != nil)
        #expect(fails(.string("1.2.3"), .decimal128) != nil)
    }

    @Test func boolAndMixed() throws {
        #expect(try convert(.bool(true), .int) == .int(1))
        #expect(try convert(.int(0), .bool) == .bool(false))
        #expect(fails(.int(2), .bool) == "2 is not 0 or 1")
        #expect(try convert(.string("TRUE"), .bool) == .bool(true))
        #expect(try convert(.int(5), .mixed) == .int(5))
        #expect(try convert(.string("5"), .mixed) == .string("5"))
        #expect(try convert(.null, .int) == .null)
    }

    @Test func shapes() throws {
        let int = Property(name: "v", type: .int), string = Property(name: "v", type: .string)
        let ints = Property(name: "v", type: .int, collection: .list),
            strings = Property(name: "v", type: .string, collection: .list)
        let intSet = Property(name: "v", type: .int, collection: .set),
            intMap = Property(name: "v", type: .int, collection: .map)
        #expect(ValueConversion.isSupported(from: int, to: string))
        #expect(ValueConversion.isSupported(from: ints, to: strings))
        #expect(ValueConversion.isSupported(from: int, to: ints))
        #expect(ValueConversion.isSupported(from: int, to: intSet))
        #expect(!ValueConversion.isSupported(from: ints, to: int))
        #expect(!ValueConversion.isSupported(from: ints, to: intSet))
        #expect(ValueConversion.isSupported(from: intMap, to: Property(name: "v", type: .string, collection: .map)))
        let link = Property(name: "v", type: .object, objectType: "Dog", optional: true)
        #expect(
            ValueConversion.isSupported(
                from: link, to: Property(name: "v", type: .object, objectType: "Dog", collection: .list)))
        #expect(
            !ValueConversion.isSupported(
                from: link, to: Property(name: "v", type: .object, objectType: "Cat", optional: true)))
        #expect(!ValueConversion.isSupported(from: Property(name: "v", type: .data), to: int))
    }
}
