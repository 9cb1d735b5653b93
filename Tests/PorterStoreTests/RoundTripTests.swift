import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Whether two values are the same, bit for bit: floats and doubles compare by bit pattern (so NaN
/// equals NaN and -0.0 differs from 0.0), sets compare without regard to order.
func identical(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.set(let x), .set(let y)):
        guard x.count == y.count else { return false }
        var rest = y
        for element in x {
            guard let i = rest.firstIndex(where: { identical(element, $0) }) else { return false }
            rest.remove(at: i)
        }
        return true
    case (.map(let x), .map(let y)), (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
    default: return a == b
    }
}

@Suite("Round trip of every property type")
struct RoundTripTests {
    /// Edge values of each primitive type (at least two each, no two equal under Swift's `==`,
    /// so every list also works as a set).
    static func edgeValues() throws -> [(PropertyType, [Value])] {
        [
            (.bool, [.bool(true), .bool(false)]),
            (.int, [.int(.min), .int(.max), .int(0), .int(-1), .int(42)]),
            (
                .float,
                [
                    .float(.nan), .float(-0.0), .float(.infinity), .float(-.infinity), .float(.greatestFiniteMagnitude),
                    .float(.leastNonzeroMagnitude), .float(1.5), .float(-3.25),
                ]
            ),
            (
                .double,
                [
                    .double(.nan), .double(-0.0), .double(.infinity), .double(-.infinity),
                    .double(.greatestFiniteMagnitude),
                    .double(.leastNonzeroMagnitude), .double(0.1), .double(-1e300),
                ]
            ),
            (
                .string,
                [
                    .string(""), .string("héllo wörld 🐶"), .string("a\u{0}b"),
                    .string(String(repeating: "z", count: 5000)), .string("42"),
                ]
            ),
            (
                .data,
                [.data(Data()), .data(Data(0...255)), .data(Data([0])), .data(Data(repeating: 0xAB, count: 10_000))]
            ),
            (
                .date,
                [
                    .date(try Timestamp(iso8601: "0001-01-01T00:00:00.000001Z")),
                    .date(try Timestamp(iso8601: "9999-12-31T23:59:59.999999Z")),
                    .date(Timestamp(microseconds: 0)), .date(Timestamp(microseconds: -1)),
                    .date(try Timestamp(iso8601: "2024-02-29T12:34:56.789012Z")),
                ]
            ),
            (
                .decimal128,
                [
                    .decimal128(try Decimal128(string: "0")), .decimal128(try Decimal128(string: "-0")),
                    .decimal128(try Decimal128(string: "3.14159265358979323846264338327950")),
                    .decimal128(try Decimal128(string: "9999999999999999999999999999999999E+6111")),
                    .decimal128(try Decimal128(string: "1E-6176")), .decimal128(try Decimal128(string: "NaN")),
                    .decimal128(try Decimal128(string: "Infinity")), .decimal128(try Decimal128(string: "-Infinity")),
                    .decimal128(try Decimal128(string: "-12.50")),
                ]
            ),
            (
                .objectId,
                [
                    .objectId(try ObjectId(string: "000000000000000000000000")),
                    .objectId(try ObjectId(string: "ffffffffffffffffffffffff")),
                    .objectId(try ObjectId(string: "507f1f77bcf86cd799439011")),
                ]
            ),
            (
                .uuid,
                [
                    .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))),
                    .uuid(try #require(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))),
                    .uuid(try #require(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962"))),
                ]
            ),
        ]
    }

    /// For each primitive `t`: `t`, `t_opt`, `t_list`, `t_optlist`, `t_set`, `t_optset`, `t_map`,
    /// `t_optmap`; then mixed (single, list, set, map) and links (single, list, set, map).
    static func schema() -> Schema {
        var properties: [Property] = []
        for type in PropertyType.allCases where type != .mixed && type != .object && type != .linkingObjects {
            let t = type.rawValue
            properties += [
                prop(t, t), prop("\(t)_opt", "\(t)?"), prop("\(t)_list", "\(t)[]"), prop("\(t)_optlist", "\(t)?[]"),
                prop("\(t)_set", "\(t)<>"), prop("\(t)_optset", "\(t)?<>"), prop("\(t)_map", "\(t){}"),
                prop("\(t)_optmap", "\(t)?{}"),
            ]
        }
        properties += [
            prop("mixed", "mixed"), prop("mixed_list", "mixed[]"), prop("mixed_set", "mixed<>"),
            prop("mixed_map", "mixed{}"),
            prop("link", "Target?"), prop("link_list", "Target[]"), prop("link_set", "Target<>"),
            prop("link_map", "Target?{}"),
        ]
        return Schema(
            version: 7,
            classes: [
                ObjectSchema(name: "AllTypes", properties: properties),
                ObjectSchema(name: "Target", properties: [prop("n", "int")]),
            ])
    }

    @Test("Every type, required and optional, single and in lists, sets and maps, survives close and reopen")
    func everyTypeRoundTrip() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("types.porter")
        let edges = try Self.edgeValues()
        let objectCount = edges.map(\.1.count).max()! + 1
        var written: [(ObjectKey, [String: Value])] = []
        do {
            let db = try Database.create(at: path, schema: Self.schema())
            try db.write {
                let targets = try (0..<3).map { ObjectLink("Target", try db.create("Target", ["n": .int(Int64($0))])) }
                let mixedValues: [Value] = [
                    .null, .bool(true), .int(.min), .float(.nan), .float(-0.0), .double(.nan), .double(-0.0),
                    .double(.infinity), .double(1.0), .string(""), .string("text"), .data(Data()), .data(Data([1, 2])),
                    .date(try Timestamp(iso8601: "0001-01-01T00:00:00.000001Z")),
                    .decimal128(try Decimal128(string: "1.5")),
                    .objectId(try ObjectId(string: "507f1f77bcf86cd799439011")),
                    .uuid(try #require(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962"))), .link(targets[1]),
                ]
                for i in 0..<objectCount {
                    var values: [String: Value] = [:]
                    let last = i == objectCount - 1
                    for (type, vs) in edges {
                        let t = type.rawValue
                        // The last object keeps every optional null, to check null round trips too.
                        values[t] = vs[i % vs.count]
                        values["\(t)_opt"] = last ? .null : vs[(i + 1) % vs.count]
                        values["\(t)_list"] = .list(vs + vs.prefix(1))
                        values["\(t)_optlist"] = .list([.null] + vs + [.null])
                        values["\(t)_set"] = .set(vs)
                        values["\(t)_optset"] = .set(vs + [.null])
                        values["\(t)_map"] = .map(
                            Dictionary(uniqueKeysWithValues: vs.enumerated().map { ("k\($0.offset)", $0.element) }))
                        values["\(t)_optmap"] = .map(
                            Dictionary(
                                uniqueKeysWithValues: vs.enumerated().map { ("k\($0.offset)", $0.element) }
                                    + [("none", .null)]))
                    }
                    values["mixed"] = mixedValues[i % mixedValues.count]
                    values["mixed_list"] = .list(mixedValues)
                    values["mixed_set"] = .set(mixedValues)
                    values["mixed_map"] = .map(
                        Dictionary(uniqueKeysWithValues: mixedValues.enumerated().map { ("m\($0.offset)", $0.element) })
                    )
                    values["link"] = last ? .null : .link(targets[i % 3])
                    values["link_list"] = .list([.link(targets[2]), .link(targets[0]), .link(targets[2])])
                    values["link_set"] = .set([.link(targets[0]), .link(targets[1])])
                    values["link_map"] = .map(["a": .link(targets[1]), "b": .null])
                    written.append((try db.create("AllTypes", values), values))
                }
                // One object with nothing given: every default.
                written.append((try db.create("AllTypes", [:]), [:]))
            }
            #expect(try db.sqliteIntegrityCheck().isEmpty)
        }

        let db = try Database.open(at: path, schema: Self.schema())
        #expect(try db.count("AllTypes") == written.count)
        let schema = try #require(Self.schema()["AllTypes"])
        for (key, values) in written {
            let object = try #require(try db.object("AllTypes", key))
            for property in schema.properties {
                let expected = values[property.name] ?? Database.defaultValue(for: property)
                let stored = try db.value("AllTypes", key, property.name)
                #expect(
                    identical(stored, expected), "AllTypes(\(key)).\(property.name): wrote \(expected), read \(stored)")
                #expect(
                    identical(try #require(object[property.name]), stored),
                    "object() and value() disagree on \(property.name)")
            }
        }
        // The defaults of a fresh object are the documented ones.
        let defaults = try #require(try db.object("AllTypes", written.last!.0))
        #expect(defaults["int"] == .int(0))
        #expect(defaults["string"] == .string(""))
        #expect(defaults["data"] == .data(Data()))
        #expect(defaults["date"] == .date(Timestamp(microseconds: 0)))
        #expect(defaults["bool_opt"] == .null)
        #expect(defaults["mixed"] == .null)
        #expect(defaults["int_list"] == .list([]))
        #expect(defaults["uuid_set"] == .set([]))
        #expect(defaults["string_map"] == .map([:]))

        // Streaming reads give the same objects.
        var streamed = 0
        try db.enumerate("AllTypes") { object in
            let direct = try #require(try db.object("AllTypes", object.key))
            #expect(zip(object.values, direct.values).allSatisfy(identical))
            streamed += 1
        }
        #expect(streamed == written.count)
    }

    @Test("Strings and data are stored as given: empty is not null, NUL bytes are kept")
    func emptyIsNotNull() throws {
        let db = try Database.inMemory(identifier: uniqueMemoryID(), schema: Self.schema())
        let key = try db.write {
            try db.create(
                "AllTypes",
                [
                    "string_opt": .string(""), "data_opt": .data(Data()), "mixed": .string(""),
                    "string": .string("\u{0}\u{0}x\u{0}"),
                ])
        }
        #expect(try db.value("AllTypes", key, "string_opt") == .string(""))
        #expect(try db.value("AllTypes", key, "data_opt") == .data(Data()))
        #expect(try db.value("AllTypes", key, "mixed") == .string(""))
        #expect(try db.value("AllTypes", key, "string") == .string("\u{0}\u{0}x\u{0}"))
        #expect(try db.keys("AllTypes", where: "string_opt", equals: .null).isEmpty)
        #expect(try db.keys("AllTypes", where: "string_opt", equals: .string("")) == [key])
    }
}
