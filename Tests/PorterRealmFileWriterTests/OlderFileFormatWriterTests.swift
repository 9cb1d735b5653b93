import Foundation
import PorterModel
import PorterTestSupport
import Testing
@testable import PorterRealmFile

/// Writing file formats 22 and 23: the layout compared with files realm-core itself wrote in
/// those formats (../shared/realm-files), node by node where the formats differ; what a format
/// cannot hold refused naming the class and property.
@Suite struct OlderFileFormatWriterTests {
    /// Streams a Realm file's objects as stored (set elements in stored order).
    struct FileSource: RealmWriteSource {
        let file: RealmFile
        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            guard let table = file.table(named: className) else { return }
            try file.forEachObject(in: table) { try body($0.key, $0.values) }
        }
    }

    /// Real files realm-core (or an SDK on it) wrote in format 22 or 23, and that format.
    static let realFiles: [(String, Int)] = [
        ("core-upgrade-1000-22", 22), ("core-sync-client-history-011", 22), ("core-upgrade-1000-23", 23),
        ("js-simple", 23), ("js-bundled", 23),
    ]

    /// Rewrites `source` in `format` the way `porter export --format realm --file-format` does.
    static func rewrite(_ source: RealmFile, format: Int, in dir: URL) throws -> RealmFile {
        var writer = try RealmFileWriter(
            schema: source.schema, schemaVersion: UInt64(max(0, source.schemaVersion ?? 0)), fileFormat: format)
        writer.mixedSetStringsInCoreOrder = source.fileFormat <= 23
        let path = dir.appendingPathComponent("out-\(format).realm").path
        try writer.write(to: path, source: FileSource(file: source))
        return try RealmFile(path: path)
    }

    /// The top array of a table (`tables[i]` of the group), its Spec, and the group's top array.
    static func tableTop(_ file: RealmFile, _ info: TableInfo) throws -> (top: Node, spec: Node, group: Node) {
        let mem = file.mem
        let group = try mem.node(try FileHeader(mem).topRef)
        let tables = try mem.node(try group.ref(1))
        for i in 0..<tables.count where tables.int(i) & 1 == 0 && tables.int(i) != 0 {
            let top = try mem.node(tables.int(i))
            if try top.tagged(3) == Int64(info.key) { return (top, try mem.node(try top.ref(0)), group) }
        }
        throw RealmFault("no table \(info.name)")
    }

    static func ints(_ node: Node) -> [Int64] { (0..<node.count).map(node.int) }

    /// The column leaf of `column` in every cluster leaf of the table.
    static func columnLeaves(_ file: RealmFile, _ info: TableInfo, _ column: ColumnInfo) throws -> [Node] {
        var nodes: [Node] = []
        try file.mem.forEachClusterLeaf(info.clusterRoot) { leaf in
            nodes.append(try file.mem.node(try leaf.columnRef(column.leafIndex)))
        }
        return nodes
    }

    @Test(arguments: realFiles)
    func layoutMatchesRealmCoreFile(_ name: String, _ format: Int) throws {
        guard SharedRealmFiles.available else {
            print(SharedRealmFiles.missing)
            return
        }
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(path: SharedRealmFiles.path("\(name).realm"))
        #expect(source.fileFormat == format)
        let written = try Self.rewrite(source, format: format, in: dir)
        #expect(written.fileFormat == format)
        for info in source.infos where !info.isInternal {
            let mine = try #require(written.infos.first { $0.name == info.name }, "\(info.name)")
            let (theirTop, theirSpec, theirGroup) = try Self.tableTop(source, info)
            let (myTop, mySpec, myGroup) = try Self.tableTop(written, mine)
            // Same top-array slots (a streaming file: [names, tables, size]), same table top slots.
            #expect(myGroup.count == theirGroup.count || theirGroup.count > 3, "\(name)")
            // 14 slots as realm-core 13 creates a table (js-bundled's tables, upgraded from format 9, have 12).
            #expect(myTop.count == 14 && (theirTop.count == 14 || name == "js-bundled"), "\(name) \(info.name)")
            #expect(mine.tableType == info.tableType)
            // The Spec: column types (13 for List<Object>), attributes (Indexed, Nullable, collections).
            let theirColumns = Dictionary(uniqueKeysWithValues: info.columns.map { ($0.name, $0) })
            for column in mine.columns {
                let their = try #require(theirColumns[column.name], "\(info.name).\(column.name)")
                let location = "\(name) \(info.name).\(column.name)"
                #expect(mySpec.int(0) >= 0 && theirSpec.int(0) >= 0)
                let myTypes = Self.ints(try written.mem.node(try mySpec.ref(0)))
                let theirTypes = Self.ints(try source.mem.node(try theirSpec.ref(0)))
                #expect(myTypes[column.specIndex] == theirTypes[their.specIndex], "\(location) spec type")
                let myAttrs = Self.ints(try written.mem.node(try mySpec.ref(2)))
                let theirAttrs = Self.ints(try source.mem.node(try theirSpec.ref(2)))
                #expect(myAttrs[column.specIndex] == theirAttrs[their.specIndex], "\(location) spec attributes")
                // ColKey: type and attributes (bits 16–29); the leaf index and tag may differ.
                #expect((column.colKey >> 16) & 0x3FFF == (their.colKey >> 16) & 0x3FFF, "\(location) column key")
                #expect(column.hasSearchIndex == their.hasSearchIndex, "\(location) search index")
                if column.type == ColumnInfo.Kind.link {
                    #expect((column.oppositeColKey >> 16) & 0x3F == (their.oppositeColKey >> 16) & 0x3F)
                }
                if column.type == ColumnInfo.Kind.mixed && !column.isCollection {
                    // ArrayMixed: four slots before format 24.
                    for leaf in try Self.columnLeaves(written, mine, column) { #expect(leaf.count == 4, "\(location)") }
                    for leaf in try Self.columnLeaves(source, info, their) { #expect(leaf.count == 4, "\(location)") }
                }
                if column.isDictionary && format == 22 {
                    // A cluster tree keyed by the keys' CityHash64: the same keys as realm-core's.
                    func keys(_ file: RealmFile, _ info: TableInfo, _ c: ColumnInfo) throws -> [[Int64]] {
                        var out: [[Int64]] = []
                        for refs in try Self.columnLeaves(file, info, c) {
                            for i in 0..<refs.count where refs.int(i) != 0 {
                                var keys: [Int64] = []
                                try file.mem.forEachClusterLeaf(refs.int(i)) { leaf in
                                    keys += (0..<leaf.count).map(leaf.key)
                                }
                                out.append(keys)
                            }
                        }
                        return out
                    }
                    let mineKeys = try keys(written, mine, column), theirKeys = try keys(source, info, their)
                    #expect(!mineKeys.isEmpty && mineKeys == theirKeys, "\(location) dictionary keys")
                }
            }
            // Backlink lists: one plain array of keys (not a B+tree) before format 24.
            for column in mine.backlinks {
                for leaf in try Self.columnLeaves(written, mine, column) {
                    for i in 0..<leaf.count where leaf.int(i) != 0 && leaf.int(i) & 1 == 0 {
                        #expect(!(try written.mem.node(leaf.int(i))).isInner)
                    }
                }
            }
            // Every object equal, sets in realm-core's stored order.
            var theirs: [RealmObject] = []
            try source.forEachObject(in: try #require(source.table(named: info.name))) { theirs.append($0) }
            var ours: [RealmObject] = []
            try written.forEachObject(in: try #require(written.table(named: info.name))) { ours.append($0) }
            #expect(ours.map(\.values) == theirs.map(\.values), "\(name) \(info.name)")
        }
    }

    /// 10,000 backlinks to one object: realm-core 13 keeps them in one array; so does the writer.
    @Test func manyBacklinksStayOneArray() throws {
        guard SharedRealmFiles.available else {
            print(SharedRealmFiles.missing)
            return
        }
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(path: SharedRealmFiles.path("core-upgrade-1000-23.realm"))
        for (file, format) in [(source, 23), (try Self.rewrite(source, format: 23, in: dir), 23)] {
            #expect(file.fileFormat == format)
            let target = try #require(file.infos.first { $0.name == "target" })
            let leaf = try #require(try Self.columnLeaves(file, target, target.backlinks[0]).first)
            let list = try file.mem.node(leaf.int(0))
            #expect(!list.isInner && list.count == 10_000)
        }
        let upgraded = try Self.rewrite(source, format: 24, in: dir)
        let target = try #require(upgraded.infos.first { $0.name == "target" })
        let leaf = try #require(try Self.columnLeaves(upgraded, target, target.backlinks[0]).first)
        #expect(try upgraded.mem.node(leaf.int(0)).isInner)
    }

    /// Decimal128 leaves are 16 bytes wide before format 24, whatever the values.
    @Test(arguments: [22, 23, 24])
    func decimalLeafWidth(_ format: Int) throws {
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let source = try RealmFile(
            path: RealmFileWriterGoldenTests.directory.appendingPathComponent("decimals.realm").path)
        let written = try Self.rewrite(source, format: format, in: dir)
        var widths = Set<Int>()
        for info in written.infos where !info.isInternal {
            for column in info.columns where column.type == ColumnInfo.Kind.decimal && !column.isCollection {
                for leaf in try Self.columnLeaves(written, info, column) { widths.insert(leaf.width) }
            }
        }
        #expect(!widths.isEmpty)
        if format < 24 { #expect(widths == [16]) } else { #expect(widths.count > 1) }
    }

    /// CityHash64 against libc++'s `std::hash<std::string>` (libc++ 14, the implementation realm-core
    /// took): every length branch; "one" and "nine" are also keys of realm-core's format-22 file.
    @Test func cityHashMatchesLibcxx() {
        let vectors: [(String, UInt64)] = [
            ("one", 6_989_620_035_281_317_992), ("nine", 3_991_501_445_031_807_483), ("ab", 1_725_057_946_192_985_918),
            ("abcdefghi", 7_406_163_328_168_016_081), ("abcdefghijklmnopqrst", 6_597_918_609_636_401_574),
            ("abcdefghijklmnopqrstuvwxyz0123456789ABCD", 825_169_785_493_429_933),
            (
                "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_xyz",
                7_875_404_999_574_839_689
            ),
        ]
        for (text, expected) in vectors {
            #expect(CityHash64.hash(Array(text.utf8)) & (UInt64.max >> 1) == expected, "\(text)")
        }
    }

    /// Set order before 24: signed bytes for strings and binaries; in a set of mixed strings
    /// before binaries (23) or by bytes together (22).
    @Test func legacySetOrder() {
        let ascii = RealmValue.string("b"), accented = RealmValue.string("é"), plain = RealmValue.string("a")
        #expect(
            WriterSetOrder.sortedUnique([ascii, accented, plain], fileFormat: 23) == [accented, plain, ascii])
        #expect(WriterSetOrder.sortedUnique([ascii, accented, plain], fileFormat: 24) == [plain, ascii, accented])
        let bin = RealmValue.binary(Data([0x61, 0x61])), str = RealmValue.string("b")
        #expect(WriterSetOrder.sortedUnique([str, bin], fileFormat: 23, mixedColumn: true) == [str, bin])
        #expect(WriterSetOrder.sortedUnique([str, bin], fileFormat: 22, mixedColumn: true) == [bin, str])
        #expect(WriterFileFormat.keyPrecedes("é", "a", fileFormat: 23))
        #expect(!WriterFileFormat.keyPrecedes("é", "a", fileFormat: 24))
    }

    /// Format 22 compares a string and a binary of a set of mixed by bytes alone: a string with a
    /// binary twin is refused whichever of the set's strings it is (it once depended on which string
    /// an unordered set gave first, so `core-upgrade-1000-23` as format 22 was refused in some runs only).
    @Test(arguments: [0, 7, 19])
    func formatTwentyTwoRefusesEveryStringWithABinaryTwin(twin: Int) throws {
        let strings = (0..<20).map { RealmValue.string("s\($0)") }
        let elements = strings + [.binary(Data("s\(twin)".utf8)), .int(1)]
        let location = WriterLocation(className: "Mixed", sourceKey: 3, property: "set")
        let error = #expect(throws: PorterError.self) {
            try WriterFileFormat.checkMixedSet(elements, fileFormat: 22, givenOrder: true, location: location)
        }
        #expect(error?.message.contains("same bytes in one set of mixed (\"s\(twin)\")") == true)
        #expect(error?.location == "Mixed[3].set")
        // Format 23 orders strings before binaries: the same set is written.
        try WriterFileFormat.checkMixedSet(elements, fileFormat: 23, givenOrder: true, location: location)
        // No twin: nothing refused.
        try WriterFileFormat.checkMixedSet(
            strings + [.binary(Data("other".utf8))], fileFormat: 22, givenOrder: true, location: location)
    }

    static func write(_ schemaJSON: String, _ objects: [String: [(Int64, [RealmValue])]], format: Int) throws {
        let schema = try Schema(jsonString: schemaJSON)
        struct Source: RealmWriteSource {
            let objects: [String: [(Int64, [RealmValue])]]
            func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
                for (key, values) in objects[className] ?? [] { try body(key, values) }
            }
        }
        let tmp = try TemporaryFolder("rewriter")
        let dir = tmp.url
        let path = dir.appendingPathComponent("x.realm").path
        do {
            try RealmFileWriter(schema: schema, schemaVersion: 1, fileFormat: format).write(
                to: path, source: Source(objects: objects))
        } catch {
            // Refused: nothing written, no temporary file left.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
            throw error
        }
    }

    static let mixedSchema = #"{"classes": [{"name": "A", "properties": {"m": "mixed", "s": "mixed<>"}}]}"#

    @Test(arguments: [22, 23])
    func nestedCollectionInMixedIsRefused(_ format: Int) throws {
        for nested in [RealmValue.list([.int(1)]), .dictionary([RealmDictionaryEntry(key: "k", value: .int(1))])] {
            let error = try #require(throws: PorterError.self) {
                try Self.write(Self.mixedSchema, ["A": [(0, [nested, .set([])])]], format: format)
            }
            #expect(error.location == "A[0].m")
            #expect(error.message.contains("file format \(format) cannot hold a list or dictionary inside a mixed"))
        }
    }

    @Test(arguments: [22, 23])
    func mixedSetOfStringsIsRefused(_ format: Int) throws {
        let error = try #require(throws: PorterError.self) {
            try Self.write(
                Self.mixedSchema, ["A": [(0, [.null, .set([.string("x"), .string("y"), .int(1)])])]], format: format)
        }
        #expect(error.location == "A[0].s")
        #expect(error.message.contains("holds 2 different strings"))
        // One string is fine.
        try Self.write(Self.mixedSchema, ["A": [(0, [.null, .set([.string("x"), .int(1)])])]], format: format)
    }

    @Test func format22RefusesStringAndBinaryOfSameBytes() throws {
        let set = RealmValue.set([.string("ab"), .binary(Data("ab".utf8))])
        let error = try #require(throws: PorterError.self) {
            try Self.write(Self.mixedSchema, ["A": [(0, [.null, set])]], format: 22)
        }
        #expect(error.location == "A[0].s")
        try Self.write(Self.mixedSchema, ["A": [(0, [.null, set])]], format: 23)
    }

    @Test(arguments: [22, 23])
    func indexedListIsRefused(_ format: Int) throws {
        let schema = #"{"classes": [{"name": "A", "properties": {"t": {"type": "string[]", "indexed": true}}}]}"#
        let error = try #require(throws: PorterError.self) {
            try Self.write(schema, ["A": [(0, [.list([.string("x")])])]], format: format)
        }
        #expect(error.location == "A.t")
        #expect(error.message.contains("file format \(format) cannot index a list"))
    }

    @Test(arguments: [20, 21, 25])
    func otherFormatsAreRefused(_ format: Int) throws {
        let error = try #require(throws: PorterError.self) {
            try RealmFileWriter(schema: Schema(classes: []), schemaVersion: 0, fileFormat: format)
        }
        #expect(error.code == .usage)
    }
}
