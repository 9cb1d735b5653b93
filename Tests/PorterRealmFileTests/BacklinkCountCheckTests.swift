import Foundation
import PorterModel
import PorterTestSupport
import Testing

@testable import PorterRealmFile

/// `check` compares every object's stored backlinks with the links that point at it (issue 35:
/// realm-core's "Many[73]: 3 backlinks stored, 2 links point to it"), on damaged copies of
/// `inner-nodes.realm` (1,000 `Many` objects, one list of 2,500 links among them).
@Suite struct BacklinkCountCheckTests {
    /// Where one object's backlink value is stored: the column leaf slot, and what it holds.
    struct Slot {
        var key: Int64
        var offset: Int
        var bytes: Int
        var value: Int64
    }

    /// The backlink slots of `Many` (from `Many.links`), in key order.
    static func slots(_ file: RealmFile) throws -> [Slot] {
        let table = try #require(file.table(named: "Many"))
        let info = try file.info(table)
        let column = try #require(info.backlinks.first)
        var slots: [Slot] = []
        try file.mem.forEachClusterLeaf(info.clusterRoot) { leaf in
            let node = try file.mem.node(try leaf.columnRef(column.leafIndex))
            for row in 0..<leaf.count where node.width >= 8 {
                slots.append(
                    Slot(
                        key: leaf.key(row), offset: node.ref + 8 + row * node.width / 8, bytes: node.width / 8,
                        value: node.int(row)))
            }
        }
        return slots
    }

    static func check(_ bytes: [UInt8], in folder: TemporaryFolder, _ name: String) throws -> [String] {
        let path = try folder.write(name, bytes)
        return try RealmFile(path: path).check()
    }

    @Test func aStoredCountThatDisagreesIsFound() throws {
        let path = Fixture.own("inner-nodes.realm")
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try RealmFile(path: path)
        #expect(try file.check() == [])
        let slots = try Self.slots(file)
        #expect(slots.count == 1000)
        let folder = try TemporaryFolder("backlink-check")

        var bytes = original
        // Every object here has several backlinks (a ref to a key array). One slot's bits cleared: none stored.
        let arrays = slots.filter { $0.value != 0 && $0.value & 1 == 0 }
        #expect(arrays.count == slots.count)
        let cleared = try #require(arrays.dropFirst(73).first)
        let clearedCount = try file.mem.node(cleared.value).count
        for i in 0..<cleared.bytes { bytes[cleared.offset + i] = 0 }
        #expect(
            try Self.check(bytes, in: folder, "cleared.realm")
                == ["Many[key \(cleared.key)]: 0 backlinks stored from Many.links, \(clearedCount) links point to it"])

        // An object with several backlinks (a key array): its count lowered by one in the array's header.
        let several = try #require(arrays.first { (try? file.mem.node($0.value))?.isInner == false })
        let keys = try file.mem.node(several.value)
        bytes = original
        let countOffset = Int(several.value) + 5  // 24-bit big-endian count in header bytes 5-7
        let lowered = keys.count - 1
        bytes[countOffset] = UInt8(lowered >> 16 & 0xff)
        bytes[countOffset + 1] = UInt8(lowered >> 8 & 0xff)
        bytes[countOffset + 2] = UInt8(lowered & 0xff)
        let found = try Self.check(bytes, in: folder, "several.realm")
        #expect(
            found == [
                "Many[key \(several.key)]: \(lowered) backlink\(lowered == 1 ? "" : "s") stored from Many.links, "
                    + "\(keys.count) links point to it"
            ])
        #expect(found.allSatisfy { !$0.contains("\n") })
    }
}
