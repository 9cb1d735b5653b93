import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// Lists and dictionaries nested in `mixed` values (format 24): written as realm-core lays them
/// out (`ArrayMixed` refs and keys), read back by the reader, refused where Realm refuses them.
@Suite struct RealmFileWriterNestedTests {
    static let schema = Schema(
        version: 1,
        classes: [
            ObjectSchema(
                name: "Nest",
                properties: [
                    Property(name: "_id", type: .int),
                    Property(name: "m", type: .mixed, optional: true),
                    Property(name: "ml", type: .mixed, optional: true, collection: .list),
                    Property(name: "md", type: .mixed, optional: true, collection: .map),
                ], primaryKey: "_id")
        ])

    static func entry(_ key: String, _ value: RealmValue) -> RealmDictionaryEntry {
        RealmDictionaryEntry(key: key, value: value)
    }

    /// A nested list of `n` ints, and lists nested `depth` levels deep.
    static func deep(_ depth: Int) -> RealmValue {
        var value = RealmValue.int(Int64(depth))
        for _ in 0..<depth { value = .list([value]) }
        return value
    }

    static let objects: [(Int64, [RealmValue])] = [
        (
            0,
            [
                .int(1),
                .list([
                    .int(5), .bool(true), .null, .list([.int(7), .string("deep")]), .string("hi"),
                    .link(className: "Nest", key: 1),
                ]),
                .list([.dictionary([entry("a", .int(1))]), .list([]), .double(2.5)]),
                .dictionary([
                    entry("x", .list([.int(1), .int(2)])), entry("", .dictionary([])),
                    entry("z", .timestamp(seconds: -1, nanoseconds: -5)),
                ]),
            ]
        ),
        (
            1,
            [
                .int(2),
                .dictionary([entry("b", .int(-3)), entry("a", .int(42)), entry("c", .dictionary([entry("d", .null)]))]),
                .list([]), .dictionary([]),
            ]
        ),
        // Over 1,000 elements: a nested B+tree with an inner node, collections in both leaves.
        (
            2,
            [
                .int(3), .list((0..<2500).map { $0 % 500 == 0 ? .list([.int(Int64($0))]) : .int(Int64($0)) }),
                .list([deep(99)]), .dictionary([]),
            ]
        ),
        (3, [.int(4), .null, .list([]), .dictionary([])]),
    ]

    static func write(_ objects: [(Int64, [RealmValue])], schema: Schema = schema, to path: String) throws {
        try RealmFileWriter(schema: schema, schemaVersion: 1).write(
            to: path, source: WriterMemorySource(objects: ["Nest": objects]))
    }

    /// A fresh folder for one test's file (removed with the value).
    static func temporaryFolder() throws -> TemporaryFolder { try TemporaryFolder("nested-write") }

    /// Dictionaries come back sorted by key (the file keeps them so).
    static func sortedDictionaries(_ value: RealmValue) -> RealmValue {
        switch value {
        case .list(let items): return .list(items.map(sortedDictionaries))
        case .dictionary(let entries):
            return .dictionary(
                entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    .map { entry($0.key, sortedDictionaries($0.value)) })
        default: return value
        }
    }

    @Test func readsBackWhatWasWritten() throws {
        let tmp = try Self.temporaryFolder()
        let path = tmp.path("nested.realm")
        try Self.write(Self.objects, to: path)
        let file = try RealmFile(path: path)
        #expect(try file.check() == [])
        var read: [RealmObject] = []
        try file.forEachObject(in: file.table(named: "Nest")!) { read.append($0) }
        #expect(read.count == Self.objects.count)
        for (object, expected) in zip(read, Self.objects) {
            #expect(object.values == expected.1.map(Self.sortedDictionaries), "object \(expected.0)")
        }
        // A link inside a nested list has its backlink, as a top-level mixed link does.
        #expect(file.backlinks.contains { $0.originClass == "Nest" && $0.originProperty == "m" })
    }

    /// Every nested collection has a key, non-zero and unique in the array or B+tree holding it
    /// (realm-core finds a nested collection again by that key).
    @Test func nestedCollectionsHaveUniqueKeys() throws {
        let tmp = try Self.temporaryFolder()
        let path = tmp.path("nested.realm")
        try Self.write([Self.objects[2]], to: path)
        let file = try RealmFile(path: path)
        let info = try file.info(file.table(named: "Nest")!)
        let m = info.columns.first { $0.name == "m" }!
        var leafRef: Int64 = 0
        try file.mem.forEachClusterLeaf(info.clusterRoot) { leafRef = try $0.columnRef(m.leafIndex) }
        // The cluster's ArrayMixed holds one nested list: its key is 1.
        let column = try file.mem.array(leafRef, minimum: 6, "mixed column")
        let listRef = try file.mem.node(try column.ref(4)).int(0)
        #expect(try file.mem.node(try column.ref(5)).int(0) == 1)
        // The nested list is a B+tree (2,500 elements): its leaves' keys, taken together, are 1…5.
        let root = try file.mem.node(listRef)
        #expect(root.isInner)
        var keys: [Int64] = []
        for child in 1..<(root.count - 1) {
            let leaf = try file.mem.array(try root.ref(child), minimum: 6, "mixed leaf")
            let composite = try file.mem.node(try leaf.ref(0))
            let keyArray = try file.mem.node(try leaf.ref(5))
            for i in 0..<composite.count where composite.int(i) & 0x1F == 20 { keys.append(keyArray.int(i)) }
        }
        #expect(keys == [1, 2, 3, 4, 5])
    }

    @Test(arguments: [
        (RealmValue.set([.int(1)]), "not a set"),
        (RealmValue.list([.set([])]), "not a set"),
        (deep(101), "deeper than 100"),
        (RealmValue.dictionary([entry("a.b", .int(1))]), "contains '.'"),
        (RealmValue.list([.link(className: "Nest", key: 99)]), "no Nest object with key 99"),
    ])
    func refusals(_ value: RealmValue, _ message: String) throws {
        let tmp = try Self.temporaryFolder()
        let path = tmp.path("nested.realm")
        let error = try #require(throws: PorterError.self) {
            try Self.write([(0, [.int(1), value, .list([]), .dictionary([])])], to: path)
        }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.location == "Nest[0].m")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// An indexed mixed holding a list or dictionary is written as realm-core 14 writes it: the
    /// object filed under the string "__List__" or "__Dictionary__" (`Mixed::get_index_data`),
    /// its elements not at all; read back, the file passes the check of its search index.
    @Test func anIndexedMixedHoldingACollectionIsFiledUnderItsKind() throws {
        var schema = Self.schema
        var nest = schema["Nest"]!
        nest.properties[1].isIndexed = true
        schema.upsert(nest)
        let tmp = try Self.temporaryFolder()
        let path = tmp.path("nested.realm")
        let values: [RealmValue] = [
            .list([.int(1), .link(className: "Nest", key: 1)]), .dictionary([Self.entry("a", .int(1))]), .int(1),
            .list([]), .string("__List__"), .dictionary([Self.entry("b", .list([.string("x")]))]),
        ]
        let objects = values.enumerated().map { (Int64($0), [.int(Int64($0)), $1, .list([]), .dictionary([])]) }
        try Self.write(objects, schema: schema, to: path)
        let file = try RealmFile(path: path)
        #expect(try file.check() == [])
        var read: [RealmValue] = []
        try file.forEachObject(in: file.table(named: "Nest")!) { read.append($0.values[1]) }
        #expect(read == values.map(Self.sortedDictionaries))
        // Keys of the root: the 4-byte prefixes "__Li" (two lists and the string) and "__Di", and the int 1
        // (8 bytes little-endian: 01 00 00 00); no other (a list's elements are not filed).
        let m = try #require(file.infos.first { $0.name == "Nest" }?.columns.first { $0.name == "m" })
        let root = try file.mem.node(m.indexRef)
        let keys = try file.mem.node(try root.ref(0))
        let found = Set((0..<keys.count).map { UInt32(truncatingIfNeeded: keys.int($0)) })
        #expect(found == [0x5F5F_4C69, 0x5F5F_4469, 0x0100_0000], "\(found.map { String($0, radix: 16) })")
    }
}
