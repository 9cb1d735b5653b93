import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// Format 24 nests lists and dictionaries in a mixed (the oracle cannot make them): a whole file
/// built node by node, one class `Nest` with one mixed property.
@Suite("Collections nested in mixed (format 24), in a hand-built file")
struct NestedCollectionTests {
    /// A mixed composite value: `value << 8 | payload index << 5 | (DataType + 1)`.
    static func mixed(_ value: Int64, payload: Int64 = 0, type: Int64) -> Int64 {
        value << 8 | payload << 5 | (type + 1)
    }

    func build() -> [UInt8] {
        let b = NodeBuilder(), tag = NodeBuilder.tag
        // list [5, true, null, [7], "hi"]
        let innerList = b.ints([b.ints([Self.mixed(7, type: 0)])], hasRefs: true)
        let hi = b.shortStrings(["hi"])
        let list = b.ints(
            [
                b.ints([
                    Self.mixed(5, type: 0), Self.mixed(1, type: 1), 0, Self.mixed(0, payload: 4, type: 19),
                    Self.mixed(0, payload: 3, type: 2),
                ]), 0, 0, hi,
                b.ints([innerList], hasRefs: true),
            ], hasRefs: true)
        // dictionary {"a": 42, "b": -3, "c": {"d": null}}
        let innerDict = b.ints([b.shortStrings(["d"]), b.ints([b.ints([0])], hasRefs: true)], hasRefs: true)
        let dict = b.ints(
            [
                b.shortStrings(["a", "b", "c"]),
                b.ints(
                    [
                        b.ints([Self.mixed(42, type: 0), Self.mixed(-3, type: 0), Self.mixed(0, payload: 4, type: 21)]),
                        0, 0, 0, b.ints([innerDict], hasRefs: true),
                    ], hasRefs: true),
            ],
            hasRefs: true)
        let column = b.ints(
            [
                b.ints([Self.mixed(0, payload: 4, type: 19), Self.mixed(1, payload: 4, type: 21), 0]), 0, 0, 0,
                b.ints([list, dict], hasRefs: true),
            ], hasRefs: true)
        let cluster = b.ints([tag(3), column], hasRefs: true)
        let colKey: Int64 = 6 << 16 | 16 << 22  // leaf 0, Mixed, Nullable
        let spec = b.ints([b.ints([6]), b.shortStrings(["m"]), b.ints([0]), 0, 0, b.ints([colKey])], hasRefs: true)
        let table = b.ints([spec, 0, cluster, tag(0), 0, tag(1), tag(0), 0, 0, tag(3), 0, 0], hasRefs: true)
        let top = b.ints([b.shortStrings(["class_Nest"]), b.ints([table], hasRefs: true), tag(24)], hasRefs: true)
        b.setTopRef(top)
        return b.bytes
    }

    @Test func nestedListsAndDictionaries() throws {
        let tmp = try TemporaryFolder("nested")
        let path = tmp.path("nested.realm")
        try Data(build()).write(to: URL(fileURLWithPath: path))
        let file = try RealmFile(path: path)
        #expect(file.fileFormat == 24)
        let nest = try #require(file.table(named: "Nest"))
        #expect(nest.properties.map(\.typeShorthand) == ["mixed"])
        var values: [RealmValue] = []
        try file.forEachObject(in: nest) { values.append($0.values[0]) }
        #expect(
            values == [
                .list([.int(5), .bool(true), .null, .list([.int(7)]), .string("hi")]),
                .dictionary([
                    RealmDictionaryEntry(key: "a", value: .int(42)), RealmDictionaryEntry(key: "b", value: .int(-3)),
                    RealmDictionaryEntry(key: "c", value: .dictionary([RealmDictionaryEntry(key: "d", value: .null)])),
                ]),
                .null,
            ])
        #expect(try file.check() == [])
    }

    @Test func selfNestingIsRefused() throws {
        // A nested list whose refs point back at itself: the depth limit stops it.
        let b = NodeBuilder(), tag = NodeBuilder.tag
        let placeholder = b.ints([0], hasRefs: true)
        let list = b.ints([b.ints([Self.mixed(0, payload: 4, type: 19)]), 0, 0, 0, placeholder], hasRefs: true)
        // Point the refs array at the list itself.
        withUnsafeBytes(of: list.littleEndian) { for i in 0..<8 { b.bytes[Int(placeholder) + 8 + i] = $0[i] } }
        let column = b.ints(
            [b.ints([Self.mixed(0, payload: 4, type: 19)]), 0, 0, 0, b.ints([list], hasRefs: true)], hasRefs: true)
        let cluster = b.ints([tag(1), column], hasRefs: true)
        let spec = b.ints(
            [b.ints([6]), b.shortStrings(["m"]), b.ints([0]), 0, 0, b.ints([6 << 16 | 16 << 22])], hasRefs: true)
        let table = b.ints([spec, 0, cluster, tag(0)], hasRefs: true)
        let top = b.ints([b.shortStrings(["class_Nest"]), b.ints([table], hasRefs: true), tag(24)], hasRefs: true)
        b.setTopRef(top)
        let bytes = b.bytes
        let tmp = try TemporaryFolder("nested")
        let path = tmp.path("nested.realm")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let realm = try RealmFile(path: path)
        let error = try #require(throws: PorterError.self) { try realm.forEachObject(in: realm.tables[0]) { _ in } }
        #expect(error.message == "Nest.m: nested collections nest deeper than 128 levels")
    }
}

@Suite("Amplification through shared subtrees")
struct AmplificationTests {
    @Test func sharedListsAreStoppedByTheBudget() throws {
        // 10 objects whose int lists all share one B+tree of 50 distinct 1,000-element zero-width
        // leaves: 500,000 values from 1.4 KB, more than any real file of that size holds (a real
        // file never shares a subtree).
        let b = NodeBuilder(), tag = NodeBuilder.tag
        let leaves = (0..<50).map { _ in b.node([], count: 1000, widthIndex: 0, widthType: 0) }
        let root = b.ints([tag(1000)] + leaves + [tag(50_000)], inner: true, hasRefs: true)
        let refs = b.ints(Array(repeating: root, count: 10), hasRefs: true)
        let cluster = b.ints([tag(10), refs], hasRefs: true)
        let spec = b.ints([b.ints([0]), b.shortStrings(["l"]), b.ints([0]), 0, 0, b.ints([32 << 22])], hasRefs: true)
        let table = b.ints([spec, 0, cluster, tag(0)], hasRefs: true)
        let top = b.ints([b.shortStrings(["class_Wide"]), b.ints([table], hasRefs: true), tag(24)], hasRefs: true)
        b.setTopRef(top)
        let tmp = try TemporaryFolder("wide")
        let path = tmp.path("wide.realm")
        try Data(b.bytes).write(to: URL(fileURLWithPath: path))
        let file = try RealmFile(path: path)
        var seen = 0
        let error = try #require(throws: PorterError.self) {
            try file.forEachObject(in: file.tables[0]) { _ in seen += 1 }
        }
        #expect(error.message.hasPrefix("Wide.l: the file's structure repeats itself"))
        #expect(seen < 10, "stopped before the last object")
        // One object alone is fine: its list has 50,000 zeros.
        guard case .list(let items)? = try file.object(in: file.tables[0], key: 7)?.values.first else {
            Issue.record("list"); return
        }
        #expect(items.count == 50_000)
    }
}
