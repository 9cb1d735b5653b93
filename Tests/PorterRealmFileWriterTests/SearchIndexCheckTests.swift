import Foundation
import PorterModel
import Testing
import PorterTestSupport

@testable import PorterRealmFile

/// `RealmFile.check` finds search indexes that do not match their columns (what realm-core's
/// `StringIndex::verify` finds): files written by Porter, then damaged at a seeded place.
@Suite struct SearchIndexCheckTests {
    static let schema = Schema(classes: [
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int), Property(name: "name", type: .string, indexed: true),
                Property(name: "n", type: .int, indexed: true),
            ], primaryKey: "id")
    ])

    /// SplitMix64, so every damage lands at the same place on every run.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A file of 300 items with distinct names (`item-<12 hex digits>`) and numbers; its path.
    static func written(_ dir: URL, seed: UInt64) throws -> (path: String, names: [String]) {
        var random = Seeded(state: seed)
        var names: [String] = []
        var objects: [(Int64, [RealmValue])] = []
        for i in 0..<300 {
            let name = "item-" + String(format: "%012llx", random.next() & 0xFFFF_FFFF_FFFF)
            names.append(name)
            objects.append((Int64(i), [.int(Int64(i)), .string(name), .int(Int64(random.next() % 50))]))
        }
        let path = dir.appendingPathComponent("items-\(seed).realm").path
        try RealmFileWriter(schema: schema, schemaVersion: 1).write(
            to: path, source: WriterMemorySource(objects: ["Item": objects]))
        return (path, names)
    }

    static func folder() throws -> TemporaryFolder { try TemporaryFolder("index") }

    /// Overwrites bytes of the file at `offset`.
    static func patch(_ path: String, at offset: Int, _ bytes: [UInt8]) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The search index root of `Item.<property>`.
    static func indexNode(_ file: RealmFile, _ property: String) throws -> Node {
        let column = try #require(file.infos.first { $0.name == "Item" }?.columns.first { $0.name == property })
        return try file.mem.node(column.indexRef)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aValueChangedUnderItsIndexIsFound(_ seed: UInt64) throws {
        let tmp = try Self.folder()
        let dir = tmp.url
        let (path, names) = try Self.written(dir, seed: seed)
        #expect(try RealmFile(path: path).check() == [])
        var random = Seeded(state: seed ^ 0xABCD)
        let victim = Int(random.next() % UInt64(names.count))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = Data(names[victim].utf8)
        let at = try #require(data.range(of: bytes))
        #expect(data.range(of: bytes, in: at.upperBound..<data.count) == nil)
        // The first letter becomes a 'j': still a valid string, filed nowhere in the index.
        try Self.patch(path, at: at.lowerBound, [UInt8(ascii: "j")])
        let changed = "j" + String(names[victim].dropFirst())
        let problems = try RealmFile(path: path).check()
        #expect(
            problems == [
                "Item.name: the search index does not hold the object with key \(victim) under its value '\(changed)'"
            ])
    }

    @Test(arguments: [4, 5] as [UInt64])
    func anEntryMovedToAnotherObjectIsFound(_ seed: UInt64) throws {
        let tmp = try Self.folder()
        let dir = tmp.url
        let (path, _) = try Self.written(dir, seed: seed)
        let file = try RealmFile(path: path)
        // The primary key index files each id alone: a tagged object key in a leaf slot.
        let root = try Self.indexNode(file, "id")
        #expect(!root.isInner && root.width >= 16)
        var random = Seeded(state: seed)
        let slot = 1 + Int(random.next() % UInt64(root.count - 1))
        let owner = try root.tagged(slot)
        let other = (owner + 1) % 300
        let bytes = withUnsafeBytes(of: (other << 1 | 1).littleEndian) { Array($0.prefix(root.width / 8)) }
        try Self.patch(path, at: root.ref + 8 + slot * root.width / 8, bytes)
        let problems = try RealmFile(path: path).check()
        #expect(
            problems == [
                "Item.id: the search index does not hold the object with key \(owner) under its value \(owner)"
            ])
    }

    @Test func keysOutOfOrderAndAMissingEntryAreFound() throws {
        let tmp = try Self.folder()
        let dir = tmp.url
        let (path, _) = try Self.written(dir, seed: 6)
        let file = try RealmFile(path: path)
        let root = try Self.indexNode(file, "n")
        let keys = try file.mem.node(try root.ref(0))
        #expect(keys.count >= 2 && keys.width == 32)
        // Swapping the first two keys breaks their order.
        let first = keys.int(0), second = keys.int(1)
        var swapped: [UInt8] = []
        withUnsafeBytes(of: Int32(second).littleEndian) { swapped += $0 }
        withUnsafeBytes(of: Int32(first).littleEndian) { swapped += $0 }
        try Self.patch(path, at: keys.ref + 8, swapped)
        #expect(
            try RealmFile(path: path).check() == [
                "Item.n: the search index cannot be read: the keys of the index node at \(hex(Int64(root.ref))) are out of order at 1"
            ])
    }

    /// 1,200 ObjectIds sharing their first 8 bytes (as ObjectIds made by one process in one
    /// second do): the sub-index on their last 4 bytes has more than 1,000 keys, so its root is an
    /// inner node, which must not be taken for a list of object keys (the check flagged half the
    /// objects of realm-core's own upgrade test file as missing).
    @Test func aSubIndexWithAnInnerRootPasses() throws {
        let tmp = try Self.folder()
        let dir = tmp.url
        let schema = Schema(classes: [
            ObjectSchema(name: "Doc", properties: [Property(name: "_id", type: .objectId)], primaryKey: "_id")
        ])
        var objects: [(Int64, [RealmValue])] = []
        for i in 0..<1200 {
            let id = try ObjectId(string: "66b9fa6b0a627662" + String(format: "%08x", 0x0c3a_4aa1 + i))
            objects.append((Int64(i), [.objectId(id)]))
        }
        let path = dir.appendingPathComponent("ids.realm").path
        try RealmFileWriter(schema: schema, schemaVersion: 1).write(
            to: path, source: WriterMemorySource(objects: ["Doc": objects]))
        let file = try RealmFile(path: path)
        #expect(try file.check() == [])
        // Root (bytes 0-3) → sub-index (bytes 4-7) → sub-index (bytes 8-11) with an inner root.
        let column = try #require(file.infos.first { $0.name == "Doc" }?.columns.first { $0.name == "_id" })
        var node = try file.mem.node(column.indexRef)
        for _ in 0..<2 {
            #expect(node.count == 2 && !node.isInner)
            node = try file.mem.node(try node.ref(1))
            #expect(RealmFile.isSubIndex(node))
        }
        #expect(node.isInner)
    }

    @Test func everyUndamagedFixtureFilePasses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folders =
            ["Fixtures/realm", "Fixtures/realm/written", "Fixtures/realm/column-migration"].map {
                root.appendingPathComponent($0)
            } + [root.deletingLastPathComponent().appendingPathComponent("shared/realm-files")]
        var checked = 0
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".realm") && !name.contains("encrypted") {
                let path = folder.appendingPathComponent(name).path
                guard let file = try? RealmFile(path: path) else { continue }
                let problems = try file.check().filter { $0.contains("search index") }
                #expect(problems.isEmpty, "\(name): \(problems)")
                checked += 1
            }
        }
        #expect(checked >= 3)
    }
}
