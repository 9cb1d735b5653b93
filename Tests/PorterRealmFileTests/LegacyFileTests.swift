import Foundation
import PorterModel
import PorterTestSupport
import Testing

@testable import PorterRealmFile

/// Old file formats (2–11) from realm-core's own upgrade tests and Realm Java's test assets, in
/// `../shared/realm-files/legacy`. The expected values are those realm-core's test code writes
/// and checks (`test/test_upgrade_database.cpp` at the tag each file comes from: v5.23.8 for
/// formats 2–9, v6.1.4 for the `9_to_10_*` files, v10.0.0 for `10_to_11`).
@Suite("Old Realm files (formats 2–11)")
struct LegacyFileTests {
    static let folder = "legacy"

    static func path(_ name: String) -> String { SharedRealmFiles.path("\(folder)/\(name)") }

    /// Every object of `className`, in key order.
    func objects(_ file: RealmFile, _ className: String) throws -> [RealmObject] {
        let table = try #require(file.table(named: className), "class \(className)")
        var out: [RealmObject] = []
        try file.forEachObject(in: table) { out.append($0) }
        return out
    }

    /// The value of `property` in `object` of `className`.
    func value(_ file: RealmFile, _ className: String, _ object: RealmObject, _ property: String) throws -> RealmValue {
        let table = try #require(file.table(named: className))
        let index = try #require(table.properties.firstIndex { $0.name == property }, "\(className).\(property)")
        return object.values[index]
    }

    /// `Upgrade_Database_9_10` at v5.23.8 (the file's writer) and v6.1.4 (what the upgrade keeps):
    /// 500 rows (50 with leaf size 4), every odd row filled, a row inserted at 177 (40).
    func checkNineToTen(_ name: String, rows nbRows: Int, insertedAt insertPos: Int) throws {
        let file = try RealmFile(path: Self.path("core/\(name)"))
        #expect(file.fileFormat == 9)
        let table = try #require(file.table(named: "table"))
        #expect(try file.objectCount(in: table) == nbRows + 1)
        #expect(try file.objectCount(in: #require(file.table(named: "other"))) == 25)
        // realm-core 6's upgrade names: the repeated "int" becomes "int_1", the empty name "col_2".
        let expected: [(String, PropertyType, Bool, CollectionKind)] = [
            ("int", .int, false, .none), ("int_1", .int, true, .none), ("col_2", .bool, false, .none),
            ("bool_null", .bool, true, .none), ("float", .float, false, .none), ("double", .double, false, .none),
            ("string", .string, false, .none), ("string_i", .string, true, .none), ("binary", .data, false, .none),
            ("date", .date, false, .none), ("link", .object, true, .none), ("linklist", .object, false, .list),
            ("integers", .int, false, .list),
        ]
        #expect(table.properties.map(\.name) == expected.map(\.0))
        #expect(table.properties.map(\.type) == expected.map(\.1))
        #expect(table.properties.map(\.isOptional) == expected.map(\.2))
        #expect(table.properties.map(\.collection) == expected.map(\.3))
        #expect(table.properties.first { $0.name == "string_i" }?.isIndexed == true)
        #expect(table.properties.first { $0.name == "string" }?.isIndexed == false)
        #expect(table.properties.first { $0.name == "linklist" }?.objectType == "other")
        #expect(table.primaryKey == nil)

        let all = try objects(file, "table")
        func v(_ row: Int, _ property: String) throws -> RealmValue { try value(file, "table", all[row], property) }
        // Row 0: nothing set.
        #expect(try v(0, "int_1") == .null)
        #expect(try v(0, "bool_null") == .null)
        #expect(try v(0, "string") == .string(""))
        // Row 17.
        #expect(try v(17, "int") == .int(17))
        #expect(try v(17, "int_1") == .int(17))
        #expect(try v(17, "col_2") == .bool(false))
        #expect(try v(17, "bool_null") == .bool(false))
        #expect(try v(17, "float") == .float(17 * 1.5))
        #expect(try v(17, "double") == .double(17 * 2.5))
        #expect(try v(17, "string") == .string("This is a medium long string"))
        #expect(try v(17, "string_i") == .string("foo 17"))
        #expect(try v(17, "binary") == .binary(Data(repeating: UInt8(ascii: "x"), count: 1000)))
        #expect(try v(17, "date") == .timestamp(seconds: 1700, nanoseconds: 17))
        #expect(try v(17, "link") == .link(className: "table", key: 27))
        // Row 18: an even row, left empty.
        #expect(try v(18, "string") == .string(""))
        #expect(try v(18, "string_i") == .null)
        // Row 23: the subtable of ints, now a list: 16 + 23 % 20 values j + 23, the first removed.
        #expect(try v(23, "integers") == .list((24...41).map { .int(Int64($0)) }))
        // Row 27: 27 % 3 == 0, a link list of 27 % 10 = 7 rows from 27 % 15 = 12.
        #expect(try v(27, "col_2") == .bool(true))
        #expect(try v(27, "linklist") == .list((12...18).map { .link(className: "other", key: Int64($0)) }))
        // The inserted row.
        #expect(
            try v(insertPos, "string") == .string("This is a rather long string, that should not be very much shorter"))
        #expect(try v(insertPos, "binary") == .binary(Data()))
        // After it, row r holds the values of i = r - 1 (only odd i were filled).
        let i = insertPos % 2 == 1 ? insertPos : insertPos + 1
        #expect(try v(i + 1, "int") == .int(Int64(i)))
        #expect(try v(i + 1, "string") == .string("foo \(i)"))
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format9EveryColumnType() throws {
        try checkNineToTen("test_upgrade_database_1000_9_to_10.realm", rows: 500, insertedAt: 177)
    }

    /// The same content written with leaf size 4: B+trees of many levels for every column.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format9DeepBPlusTrees() throws {
        try checkNineToTen("test_upgrade_database_4_9_to_10.realm", rows: 50, insertedAt: 40)
    }

    /// `Upgrade_Database_9_10_with_pk_table` (v6.1.4): the object store's `pk` table, `class_`
    /// tables, a string enum column, lists of strings (subtables), links by primary key.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format9PrimaryKeyTable() throws {
        let file = try RealmFile(path: Self.path("core/test_upgrade_database_9_to_10_pk_table.realm"))
        #expect(Set(file.tables.map(\.name)) == ["dog", "link origin", "object"])
        #expect(file.schemaVersion == 0)
        #expect(file.table(named: "object")?.primaryKey == "pk")
        #expect(file.table(named: "link origin")?.primaryKey == "pk")
        #expect(file.table(named: "dog")?.primaryKey != nil)
        #expect(Set(file.skippedTables) == ["pk", "metadata"])
        let objects = try objects(file, "object")
        let rows = try objects.map { o in
            try ["pk", "value", "enum", "list", "optional"].map { try value(file, "object", o, $0) }
        }
        #expect(
            rows == [
                [.string("hello"), .int(7), .string("red"), .list([.string("")]), .null],
                [.string("world"), .int(35), .string("blue"), .list([]), .null],
                [.string("goodbye"), .int(800), .string("red"), .list([]), .int(-87)],
            ])
        let origins = try self.objects(file, "link origin")
        #expect(try origins.map { try value(file, "link origin", $0, "pk") } == [.int(5), .int(6), .int(7)])
        // pk 6 links to "hello"; pk 7's array holds "world" and "goodbye".
        let hello = objects[0].key, world = objects[1].key, goodbye = objects[2].key
        #expect(try value(file, "link origin", origins[1], "object") == .link(className: "object", key: hello))
        #expect(
            try value(file, "link origin", origins[2], "array")
                == .list([.link(className: "object", key: world), .link(className: "object", key: goodbye)]))
        #expect(try self.objects(file, "dog").isEmpty)
    }

    /// `Upgrade_Database_9_10_with_oid` (v6.1.4): the `!OID` column of a synced file becomes the
    /// object keys (foo 512, 513, 514), and links follow it.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format9ObjectIds() throws {
        let file = try RealmFile(path: Self.path("core/test_upgrade_database_9_to_10_oid.realm"))
        let foo = try objects(file, "foo")
        #expect(foo.map(\.key) == [512, 513, 514])
        #expect(file.table(named: "foo")?.properties.map(\.name) == ["name", "age"])
        #expect(
            try foo.map { try value(file, "foo", $0, "name") } == [.string("Tom"), .string("Pluto"), .string("Jerry")])
        #expect(file.table(named: "bar")?.primaryKey == "ident")
        let origin = try objects(file, "origin")
        #expect(try value(file, "origin", origin[0], "num") == .int(1))
        #expect(
            try value(file, "origin", origin[2], "array")
                == .list([.link(className: "foo", key: 512), .link(className: "foo", key: 514)]))
        guard case .link("bar", let key) = try value(file, "origin", origin[1], "object") else {
            Issue.record("origin 2 does not link to a bar")
            return
        }
        let bar = try #require(file.table(named: "bar"))
        #expect(try file.primaryKeyValue(in: bar, key: key) == .string("hello"))
    }

    /// `Upgrade_Database_4_5_DateTime1` (v5.23.8), a format-3 file: DateTime seconds read as the
    /// Timestamp realm-core's upgrade makes of them (`Timestamp(seconds, 0)`), nulls kept.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format3DateTimeBecomesTimestamp() throws {
        let file = try RealmFile(path: Self.path("core/test_upgrade_database_1000_4_to_5_datetime1.realm"))
        #expect(file.fileFormat == 3)
        let table = try #require(file.table(named: "table"))
        #expect(table.properties.map(\.type) == [.date, .date, .date, .date])
        #expect(table.properties.map(\.isOptional) == [true, false, true, false])
        let t = { (s: Int64) in RealmValue.timestamp(seconds: s, nanoseconds: 0) }
        #expect(
            try objects(file, "table").map(\.values) == [
                [t(1234), t(1234), t(1234), t(1234)], [t(0), t(0), t(0), t(0)], [.null, t(0), .null, t(0)],
            ])
    }

    /// `Upgrade_Database_2_3` (v5.23.8), format 2: 1,000 rows of string i and int i, both indexed.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format2StringsAndIntegers() throws {
        for (name, format) in [("test_upgrade_database_1000_1.realm", 2), ("test_upgrade_database_4_1.realm", 2)] {
            let file = try RealmFile(path: Self.path("core/\(name)"))
            #expect(file.fileFormat == format)
            let table = try #require(file.table(named: "table"))
            #expect(table.properties.map(\.name) == ["string", "integer"])
            #expect(table.properties.map(\.isIndexed) == [true, true])
            let values = try objects(file, "table").map(\.values)
            #expect(values == (0..<1000).map { [.string("\($0)"), .int(Int64($0))] }, "\(name)")
        }
    }

    /// `Upgrade_Database_Binary` and `Upgrade_Database_Strings_With_NUL` (v5.23.8), format 2.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format2BinariesAndStringsWithNul() throws {
        let binaries = try RealmFile(path: Self.path("core/test_upgrade_database_1000_3.realm"))
        // `BinaryData("foo")` of a C literal keeps its terminating NUL; the test's read checks say
        // row 0 of both tables is empty and row 1 is not "foo" (without the NUL).
        let foo = Data("foo\0".utf8)
        #expect(try objects(binaries, "short").map(\.values) == [[.binary(Data())], [.binary(foo)]])
        let long = "1234567890123456789012345678901234567890123456789012345678901234567890\0"
        #expect(try objects(binaries, "long").map(\.values) == [[.binary(Data())], [.binary(Data(long.utf8))]])
        let nuls = try RealmFile(path: Self.path("core/test_upgrade_database_1000_4.realm"))
        #expect(
            try objects(nuls, "table").map(\.values) == (0..<5).map { [.string(String(repeating: "\0", count: $0))] })
    }

    /// `Upgrade_Database_8_9` (v5.23.8), and the one-row files of formats 6 and 7.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func formats6To8OneRow() throws {
        let eight = try RealmFile(path: Self.path("core/test_upgrade_database_1000_8_to_9.realm"))
        #expect(eight.fileFormat == 8)
        #expect(try objects(eight, "table").map(\.values) == [[.int(123), .string("test string")]])
        for (name, format) in [
            ("test_upgrade_database_1000_6_to_7.realm", 6), ("test_upgrade_database_1000_7_to_8.realm", 7),
        ] {
            let file = try RealmFile(path: Self.path("core/\(name)"))
            #expect(file.fileFormat == format)
            #expect(try objects(file, "table").map(\.values) == [[.int(123)]])
        }
    }

    /// `Upgrade_Database_10_11` (v10.0.0), format 10 read by the cluster reader: primary keys 0,
    /// 2, 3, 15, 42, 100, 7000, each linked once from `origin`, in order.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func format10PrimaryKeysAndLinks() throws {
        let file = try RealmFile(path: Self.path("core/test_upgrade_database_1000_10_to_11.realm"))
        #expect(file.fileFormat == 10)
        let table = try #require(file.table(named: "table"))
        #expect(table.primaryKey == "id")
        let ids: [Int64] = [0, 2, 3, 15, 42, 100, 7000]
        var keyByID: [Int64: Int64] = [:]
        for object in try objects(file, "table") {
            guard case .int(let id) = object.values[0] else { continue }
            keyByID[id] = object.key
        }
        #expect(Set(keyByID.keys) == Set(ids))
        let links = try self.objects(file, "origin").map(\.values)
        #expect(links == ids.map { [RealmValue.link(className: "table", key: keyByID[$0] ?? -1)] })
    }

    /// `Shared_DecryptExisting` (v5.23.8 `test_shared.cpp`): encrypted format-9 files written on
    /// systems of 4 KB and 64 KB pages, one string of 1.5 pages of 'a'; realm-core's test key.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func encryptedFormat9Files() throws {
        for (name, pageSize) in [
            ("test_shared_decrypt_4k_page.realm", 4096), ("test_shared_decrypt_64k_page.realm", 65536),
        ] {
            let file = try RealmFile(path: Self.path("core/\(name)"), encryptionKey: Fixture.coreKey)
            #expect(file.fileFormat == 9)
            #expect(file.isEncrypted)
            #expect(
                try objects(file, "table").map(\.values) == [[.string(String(repeating: "a", count: pageSize * 3 / 2))]]
            )
        }
    }

    /// Every old file either opens and reads completely, or is refused with one line; reading
    /// writes nothing (no lock file, no change to the file).
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func everyLegacyFileOpensOrIsRefusedInOneLine() throws {
        var opened = 0
        for sub in ["core", "java"] {
            let dir = SharedRealmFiles.path("\(Self.folder)/\(sub)")
            let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            for name in before where name.hasSuffix(".realm") {
                let path = "\(dir)/\(name)"
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                do {
                    let file = try RealmFile(path: path)
                    for table in file.tables { try file.forEachObject(in: table) { _ in } }
                    opened += 1
                } catch let error as PorterError {
                    #expect(!error.message.contains("\n"), "\(name): \(error.message)")
                    #expect(!error.message.isEmpty, "\(name)")
                }
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(name) changed")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before, "\(sub): files added")
        }
        // 58 of the 71 open today (the rest: encrypted, mid-upgrade snapshots, an old Mixed column,
        // a never-written file, a leaf-size-4 test build's cluster keys).
        #expect(opened >= 58)
    }

    /// realm-core 6 upgrades in place, table by table: a file whose upgrade was cut short (realm-core's
    /// `Upgrade_progress` files) still says format 9 but holds tables of the new layout.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func halfUpgradedFilesAreRefused() throws {
        for name in ["test_upgrade_progress_2.realm", "test_upgrade_colkey_error.realm"] {
            let error = expectPorterError(.notADatabase) { _ = try RealmFile(path: Self.path("core/\(name)")) }
            #expect(
                error?.message.hasPrefix("the file was left in the middle of realm-core 6's upgrade (table ") == true,
                "\(error?.message ?? "")")
            #expect(
                error?.message.hasSuffix("the header still says format 9): Porter does not read such a file yet")
                    == true)
        }
    }

    /// A copy cut short anywhere, or with bytes flipped, is refused in one line, never a crash.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func damagedCopiesAreRefusedInOneLine() throws {
        let whole = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: Self.path("core/test_upgrade_database_4_9_to_10.realm"))))
        let tmp = try TemporaryFolder("legacy-damaged")
        let path = tmp.path("damaged.realm")
        var generator = SeededGenerator(seed: 37)
        var variants: [[UInt8]] = stride(from: 24, to: whole.count, by: 1000).map { Array(whole.prefix($0 & ~7)) }
        for _ in 0..<200 {
            var copy = whole
            let at = Int.random(in: 24..<copy.count, using: &generator)
            copy[at] ^= UInt8.random(in: 1...255, using: &generator)
            variants.append(copy)
        }
        for bytes in variants {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let file = try RealmFile(path: path)
                for table in file.tables { try file.forEachObject(in: table) { _ in } }
            } catch let error as PorterError {
                #expect(!error.message.contains("\n"), "\(error.message)")
            }
        }
    }

    /// Formats 12–19 were never written by a released core: refused as such, and 1 as unknown.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func madeUpFormatsAreRefused() throws {
        var bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: Self.path("core/test_upgrade_database_1000_8_to_9.realm"))))
        let tmp = try TemporaryFolder("legacy-format")
        let path = tmp.path("format.realm")
        for format: UInt8 in [12, 15, 19] {
            bytes[20] = format
            bytes[21] = format
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = expectPorterError(.notADatabase) { _ = try RealmFile(path: path) }
            #expect(
                error?.message
                    == "file format \(format) is not supported: no released realm-core wrote it (the formats are 2–11 and 20–24); the file is damaged or not a Realm file"
            )
            let diagnosis = RealmFileDiagnosis.diagnose(path: path)
            #expect(diagnosis.kind == .damaged)
            #expect(diagnosis.message.hasPrefix("file format \(format) is not supported"))
        }
        bytes[20] = 1
        bytes[21] = 1
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = expectPorterError(.notADatabase) { _ = try RealmFile(path: path) }
        #expect(error?.message == "file format 1 is not supported: Porter reads formats 2–11 and 20–24")
        #expect(RealmFileDiagnosis.diagnose(path: path).kind == .olderFormat)
    }

    /// `porter check`'s diagnosis reads old formats like new ones.
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func diagnosisOfOldFormats() throws {
        for (name, format) in [
            ("core/test_upgrade_database_1000_9_to_10.realm", 9),
            ("core/test_upgrade_database_1000_4_to_5_datetime1.realm", 3),
            ("core/test_upgrade_database_11.realm", 11), ("java/default0.realm", 9),
        ] {
            let diagnosis = RealmFileDiagnosis.diagnose(path: Self.path(name))
            #expect(diagnosis.kind == .ok, "\(name): \(diagnosis.message)")
            #expect(diagnosis.message.hasPrefix("ok: file format \(format),"), "\(name): \(diagnosis.message)")
        }
    }
}
