import Foundation
import PorterModel
import Testing
import PorterTestSupport

@testable import PorterRealmFile

/// `RealmFile.check` finds a collection nested in a `mixed` that cannot be read (a damaged ref
/// in the mixed column's refs array), as realm-core's own check does (issue 18: `porter check`
/// passed such a file).
@Suite struct NestedCollectionCheckTests {
    enum Damage: String, CaseIterable {
        /// Past the end of the file.
        case outOfFile
        /// Not 8-aligned.
        case misaligned
        /// At an integer array (the `_id` column's leaf): not a mixed array.
        case wrongNode
        /// At the column's own array: a cycle.
        case cycle
    }

    @Test(arguments: Damage.allCases)
    func anUnreadableNestedListIsFound(_ damage: Damage) throws {
        let tmp = try RealmFileWriterNestedTests.temporaryFolder()
        let path = tmp.path("nested.realm")
        try RealmFileWriterNestedTests.write(
            [
                (0, [.int(1), .list([.int(5), .list([.string("deep")])]), .list([]), .dictionary([])]),
                (1, [.int(2), .int(7), .list([]), .dictionary([])]),
            ], to: path)
        let file = try RealmFile(path: path)
        #expect(try file.check() == [])
        let info = try file.info(file.table(named: "Nest")!)
        let m = try #require(info.columns.first { $0.name == "m" })
        let id = try #require(info.columns.first { $0.name == "_id" })
        var leafRef: Int64 = 0
        var keysRef: Int64 = 0
        try file.mem.forEachClusterLeaf(info.clusterRoot) { leaf in
            leafRef = try leaf.columnRef(m.leafIndex)
            keysRef = try leaf.columnRef(id.leafIndex)
        }
        let column = try file.mem.array(leafRef, minimum: 6, "mixed column")
        let refs = try file.mem.node(try column.ref(4))
        #expect(refs.count == 1 && refs.width >= 8)
        let bad: Int64
        switch damage {
        case .outOfFile: bad = Int64(file.mem.size) + 4096
        case .misaligned: bad = refs.int(0) + 4
        case .wrongNode: bad = keysRef
        case .cycle: bad = leafRef
        }
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = withUnsafeBytes(of: bad.littleEndian) { Array($0.prefix(refs.width / 8)) }
        data.replaceSubrange(refs.ref + 8..<refs.ref + 8 + bytes.count, with: bytes)
        try data.write(to: URL(fileURLWithPath: path))
        let problems = try RealmFile(path: path).check()
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix("Nest.m: ") == true, "\(problems)")
    }
}
