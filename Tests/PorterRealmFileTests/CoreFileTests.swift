import Foundation
import PorterTestSupport
import PorterModel
import Testing
@testable import PorterRealmFile

@Suite("realm-core's own test files (formats 20, 22, 23), compared with the decoded contents")
struct CoreFileTests {
    /// Compares every table's rows (as multisets; sets inside as multisets too) with the decoded file.
    func compare(_ name: String) throws {
        let file = try RealmFile(path: Fixture.shared("\(name).realm"))
        let decoded = try Fixture.json(Fixture.shared("\(name).decoded.json"))
        let dump = PrototypeDump(file: file)
        for expectedTable in decoded["tables"]?.arrayValue ?? [] {
            let stored = try require(expectedTable["name"]?.stringValue)
            let table = try #require(file.tables.first { $0.storedName == stored }, "table \(stored)")
            let rows = try dump.rows(table)
            #expect(rows.count == Int(expectedTable["row_count"]?.int64Value ?? -1), "\(stored) row count")
            let mine = rows.map { DumpCompare.normalize($0, unorderedArrays: true) }
            if let all = expectedTable["rows"]?.arrayValue {
                let want = all.map { DumpCompare.normalize(PrototypeDump.expected($0), unorderedArrays: true) }
                #expect(mine == want, "\(stored) rows")
            } else {
                let first = (expectedTable["first_rows"]?.arrayValue ?? []).map {
                    DumpCompare.normalize(PrototypeDump.expected($0), unorderedArrays: true)
                }
                let last = (expectedTable["last_rows"]?.arrayValue ?? []).map {
                    DumpCompare.normalize(PrototypeDump.expected($0), unorderedArrays: true)
                }
                #expect(Array(mine.prefix(first.count)) == first, "\(stored) first rows")
                #expect(Array(mine.suffix(last.count)) == last, "\(stored) last rows")
            }
        }
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format20TombstonesAndHashedKeys() throws {
        try compare("core-upgrade-20")
        let file = try RealmFile(path: Fixture.shared("core-upgrade-20.realm"))
        #expect(file.fileFormat == 20)
        let origin = try #require(file.table(named: "origin"))
        #expect(try file.objectCount(in: origin) == 14)
        // Unresolved links (tombstones) read as null.
        #expect(try file.object(in: origin, key: 4)?.values == [.null, .null])
        #expect(try file.object(in: origin, key: 11)?.values == [.null, .null])
        #expect(try file.objectCount(in: #require(file.table(named: "foo"))) == 6)
        let bar = try #require(file.table(named: "bar"))
        #expect(try file.primaryKeyValue(in: bar, key: 3_171_638_181_778_167_822) == .string("adam"))
        #expect(Set(file.backlinks.map(\.originProperty)) == ["link1", "link2"])
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format22DictionaryLayoutAndMixedSet() throws {
        try compare("core-upgrade-1000-22")
        let file = try RealmFile(path: Fixture.shared("core-upgrade-1000-22.realm"))
        let table = try #require(file.table(named: "table"))
        let object = try #require(try file.object(in: table, key: 0))
        guard case .dictionary(let entries) = object.values[1] else { Issue.record("dict is not a dictionary"); return }
        #expect(entries.count == 9)
        #expect(entries.first { $0.key == "eight" }?.value == .timestamp(seconds: 4, nanoseconds: 5))
        #expect(entries.first { $0.key == "nine" }?.value == .link(className: "target", key: 0))
        guard case .set(let set) = object.values[2] else { Issue.record("set is not a set"); return }
        #expect(set.contains(.binary(Data("Paul\0".utf8))))
        #expect(set.count == 8)
        // The primary key is indexed in the file; Porter's schema does not repeat it for a primary key.
        #expect(table.primaryKey == "id" && !table.properties[0].isIndexed)
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format23InnerClusterNodesAndStrings() throws {
        try compare("core-upgrade-1000-23")
        let file = try RealmFile(path: Fixture.shared("core-upgrade-1000-23.realm"))
        let table = try #require(file.table(named: "table"))
        #expect(try file.objectCount(in: table) == 10_000)
        var keys: [Int64] = []
        try file.forEachObject(in: table) { keys.append($0.key) }
        #expect(keys == (0..<10_000).map { Int64($0) })
        // Descent through the inner node, not a scan.
        #expect(try file.object(in: table, key: 7_777)?.values == [.int(7_777), .link(className: "target", key: 0)])
        #expect(try file.object(in: table, key: 10_000) == nil)
        let mixed = try #require(file.table(named: "table_for_mixed"))
        let row = try #require(try file.object(in: mixed, key: 0))
        guard case .set(let mixedSet) = row.values[1], case .set(let strings) = row.values[2],
            case .set(let binaries) = row.values[3]
        else {
            Issue.record("sets expected"); return
        }
        #expect(mixedSet.count == 32 && strings.count == 20 && binaries.count == 8)
        #expect(strings.contains(.string("\0\0\u{1}")))
        #expect(strings.contains(.string(String(repeating: "a", count: 200) + "aaaaʄ")))
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func selectBitChoosesTheCurrentSnapshot() throws {
        try compare("core-sync-client-history-011")
        let file = try RealmFile(path: Fixture.shared("core-sync-client-history-011.realm"))
        #expect(file.historyType == 3)
        let table = try #require(file.table(named: "Table"))
        var values: [String: RealmValue] = [:]
        try file.forEachObject(in: table) { o in
            if case .string(let label) = o.values[0] { values[label] = o.values[1] }
        }
        #expect(values == ["Banach": .int(88), "Hausdorff": .int(66), "Hilbert": .int(77)])
        #expect(table.primaryKey == "label")
    }
}
