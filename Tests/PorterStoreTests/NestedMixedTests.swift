import Foundation
import Testing
@testable import PorterStore
import PorterModel
import PorterTestSupport

/// Lists and dictionaries nested in `mixed` values (Realm's nested collections in `AnyRealmValue`).
@Suite("Nested collections in mixed")
struct NestedMixedTests {
    /// Three levels: a dictionary holding a list holding a dictionary, with every scalar kind.
    static func deepValue(dog: ObjectLink) throws -> Value {
        .map([
            "scalars": .list([
                .null, .bool(true), .int(.min), .float(-0.0), .double(.nan), .double(-0.0), .string("ü"),
                .data(Data([0, 0x0a, 0x0b])),
                .date(Timestamp(seconds: -1, nanoseconds: -1)), .decimal128(try Decimal128(string: "1.50")),
                .objectId(try ObjectId(hex: "5f1b2c3d4e5f6a7b8c9d0e1f")),
                .uuid(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962")!),
            ]),
            "levels": .list([.map(["inner": .list([.int(3), .link(dog)]), "empty": .map([:])]), .list([])]),
            "dog": .link(dog),
        ])
    }

    @Test("Nested values round trip through a file, three levels deep, links included")
    func roundTrip() throws {
        let dir = try TemporaryFolder()
        let path = dir.path("nested.porter")
        let expected: Value
        do {
            let db = try Database.create(at: path, schema: petSchema())
            expected = try db.write {
                let rex = try db.create("Dog", ["name": .string("Rex")])
                let value = try Self.deepValue(dog: ObjectLink("Dog", rex))
                _ = try db.create(
                    "Person",
                    ["name": .string("Ann"), "extra": value, "extras": .list([value, .list([.int(1)]), .string("x")])])
                return value
            }
        }
        let db = try Database.open(at: path, readOnly: true)
        let ann = try #require(try db.key("Person", primaryKey: .string("Ann")))
        let extra = try db.value("Person", ann, "extra")
        // NaN is not equal to itself: compare the stored bytes, then everything else by value.
        #expect(NestedMixedCodec.encode(extra) == NestedMixedCodec.encode(expected))
        guard case .map(let map) = extra, case .list(let levels)? = map["levels"] else {
            Issue.record("not a nested map: \(extra)"); return
        }
        #expect(
            levels == [
                .map(["inner": .list([.int(3), .link(ObjectLink("Dog", ObjectKey(1)))]), "empty": .map([:])]),
                .list([]),
            ])
        #expect(
            NestedMixedCodec.encode(try db.listElement("Person", ann, "extras", at: 0))
                == NestedMixedCodec.encode(expected))
        #expect(try db.listElement("Person", ann, "extras", at: 1) == .list([.int(1)]))
        #expect(try db.checkConsistency().isEmpty)
    }

    @Test("Equal dictionaries are equal blobs whatever their insertion order")
    func canonical() throws {
        var a: [String: Value] = [:], b: [String: Value] = [:]
        for key in ["b", "a", "ä", "A", "z"] { a[key] = .string(key) }
        for key in ["z", "A", "ä", "a", "b"] { b[key] = .string(key) }
        #expect(NestedMixedCodec.encode(.map(a)) == NestedMixedCodec.encode(.map(b)))
        #expect(try NestedMixedCodec.decode(NestedMixedCodec.encode(.map(a))) == .map(a))
    }

    @Test("Damaged nested bytes are a clear error, never a trap")
    func damaged() throws {
        let good = NestedMixedCodec.encode(.list([.string("abc"), .map(["k": .int(1)])]))
        for cut in 1..<good.count {
            #expect(throws: PorterError.self) { _ = try NestedMixedCodec.decode(Array(good.prefix(cut))) }
        }
        #expect(throws: PorterError.self) { _ = try NestedMixedCodec.decode(good + [0]) }
        #expect(throws: PorterError.self) { _ = try NestedMixedCodec.decode([10, 0xff, 0xff, 0xff, 0xff]) }
    }

    @Test("Deleting a linked object removes it from nested lists and dictionaries, and nulls a plain mixed link")
    func deleteTarget() throws {
        let db = try petDatabase()
        let (ann, rex, max) = try db.write {
            let rex = try db.create("Dog", ["name": .string("Rex")])
            let max = try db.create("Dog", ["name": .string("Max")])
            let (r, m) = (Value.link(ObjectLink("Dog", rex)), Value.link(ObjectLink("Dog", max)))
            let ann = try db.create(
                "Person",
                [
                    "name": .string("Ann"),
                    "extra": .map(["a": r, "b": m, "deep": .list([r, .int(1), .map(["x": r, "y": m]), m])]),
                    "extras": .list([.list([r, m]), r, .map(["only": r])]),
                ])
            _ = try db.create("Person", ["name": .string("Bob"), "extra": r])
            return (ann, rex, max)
        }
        let incoming = try db.incomingLinks(to: ObjectLink("Dog", rex))
        #expect(
            Set(incoming.map { "\($0.source.key.rawValue).\($0.property)" }) == [
                "\(ann.rawValue).extra", "\(ann.rawValue).extras", "2.extra",
            ])
        try db.write { try db.delete("Dog", rex) }
        let m = Value.link(ObjectLink("Dog", max))
        #expect(try db.value("Person", ann, "extra") == .map(["b": m, "deep": .list([.int(1), .map(["y": m]), m])]))
        #expect(try db.value("Person", ann, "extras") == .list([.list([m]), .map([:])]))
        let bob = try #require(try db.key("Person", primaryKey: .string("Bob")))
        #expect(try db.value("Person", bob, "extra") == .null)
        #expect(try db.incomingLinks(to: ObjectLink("Dog", rex)).isEmpty)
        #expect(try db.checkConsistency().isEmpty)
    }

    @Test("Invalid nested values are refused with their place, and nothing changes")
    func refused() throws {
        let db = try petDatabase()
        let ann = try db.write { try db.create("Person", ["name": .string("Ann"), "extra": .list([.int(1)])]) }
        let cases: [(Value, PorterError.Code, String)] = [
            (
                .map(["$a": .int(1)]), .constraintViolation,
                "Person.extra: invalid map key '$a': keys must contain no '.' or NUL, and not start with '$'"
            ),
            (
                .list([.map(["ok": .map(["a.b": .int(1)])])]), .constraintViolation,
                "Person.extra[0][\"ok\"]: invalid map key 'a.b': keys must contain no '.' or NUL, and not start with '$'"
            ),
            (
                .list([.list([.map(["nul\u{0}": .null])])]), .constraintViolation,
                "Person.extra[0][0]: invalid map key 'nul\u{0}': keys must contain no '.' or NUL, and not start with '$'"
            ),
            (.list([.object(["a": .int(1)])]), .invalidValue, "Person.extra[0]: a mixed value cannot hold a object"),
            (
                .map(["d": .link(ObjectLink("Dog", ObjectKey(99)))]), .notFound,
                "Person.extra[\"d\"]: link target Dog(99) does not exist"
            ),
            (
                .list([.link(ObjectLink("Geo", ObjectKey(1)))]), .invalidValue,
                "Person.extra[0]: a mixed value cannot link to embedded class 'Geo'"
            ),
        ]
        for (value, code, headline) in cases {
            let before = try dump(db)
            let error = expectPorterError(code) { try db.write { try db.set("Person", ann, "extra", value) } }
            #expect(error?.headline == headline)
            #expect(try dump(db) == before)
        }
        // A set of mixed holds scalars and links only, as in Realm.
        let setSchema = Schema(version: 0, classes: [ObjectSchema(name: "Bag", properties: [prop("items", "mixed<>")])])
        let bags = try Database.inMemory(identifier: uniqueMemoryID(), schema: setSchema)
        let error = expectPorterError(.invalidValue) {
            try bags.write { _ = try bags.create("Bag", ["items": .set([.int(1), .list([.int(2)])])]) }
        }
        #expect(
            error?.headline
                == "Bag.items: a set cannot hold a nested list (as in Realm, only lists and dictionaries nest)")
        #expect(try bags.count("Bag") == 0)
    }

    @Test("Nesting is limited to 100 levels, in what is written and in what is read")
    func depthLimit() throws {
        func nested(_ levels: Int) -> Value {
            var value = Value.int(1)
            for i in 0..<levels { value = i % 2 == 0 ? .list([value]) : .map(["k": value]) }
            return value
        }
        let db = try petDatabase()
        let ann = try db.write { try db.create("Person", ["name": .string("Ann"), "extra": nested(100)]) }
        #expect(NestedMixedCodec.encode(try db.value("Person", ann, "extra")) == NestedMixedCodec.encode(nested(100)))
        let error = expectPorterError(.constraintViolation) {
            try db.write { try db.set("Person", ann, "extra", nested(101)) }
        }
        #expect(error?.message == "collections nested in a mixed value may be at most 100 levels deep")
        #expect(error?.location?.hasPrefix("Person.extra[0][\"k\"][0]") == true)
        // Stored bytes deeper than that (a damaged or foreign file) are refused, not recursed into.
        #expect(throws: PorterError.self) { _ = try NestedMixedCodec.decode(NestedMixedCodec.encode(nested(101))) }
        // 5,000 levels, built without the (recursive, validated-input-only) encoder.
        func be32(_ n: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) } }
        let oneInt = NestedMixedCodec.encode(.list([.int(1)]))
        let listTag = oneInt[0]
        var element = Array(oneInt.dropFirst(5))
        for _ in 0..<5_000 { element = [listTag] + be32(4 + element.count) + be32(1) + element }
        #expect(throws: PorterError.self) { _ = try NestedMixedCodec.decode([listTag] + be32(1) + element) }
    }
}
