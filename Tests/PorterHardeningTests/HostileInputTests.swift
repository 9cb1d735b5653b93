import Foundation
import Porter
import Testing
import PorterTestSupport

/// Hostile input through the real command line: every case is rejected with a clear error,
/// the database is untouched, the stack never overflows, and peak memory stays bounded (measured
/// with `wait4`). The bounds are generous multiples of a debug build's ~30 MB baseline;
/// `PORTER_RSS_LIMIT_SCALE` widens them under sanitizers.
@Suite(
    .serialized, .enabled(if: Hardening.binariesBuilt, "needs the built porter and porter-torture-writer (swift build)")
)
struct HostileFileTests {
    static let scale = ProcessInfo.processInfo.environment["PORTER_RSS_LIMIT_SCALE"].flatMap { Int($0) } ?? 1
    /// Peak memory allowed for a rejection that must not allocate by what the input claims.
    static let smallMiB = 100 * scale

    /// A database with one Item, and `porter import` run against it with `file`.
    private func rejectImport(
        _ name: String, _ bytes: [UInt8], extraArgs: [String] = [], viaStdin: Bool = false,
        maxRSSMiB: Int = smallMiB, expecting phrase: String
    ) throws {
        let dir = try TemporaryFolder("hostile")
        let db = dir.path("h.porter")
        #expect(try Hardening.writer(["create", db, "--seed", "1", "--objects", "1"]).status == 0)
        let before = try DatabaseState.digest(at: db)
        let file = dir.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let result =
            viaStdin
            ? try Hardening.porterMeasured(["import", db, "-", "--class", "Item"] + extraArgs, stdinPath: file)
            : try Hardening.porterMeasured(["import", db, file] + extraArgs)
        #expect(
            result.status == 1,
            "\(name): exit \(String(describing: result.status)) signal \(String(describing: result.signal))")
        #expect(result.stderr.lowercased().contains(phrase.lowercased()), "\(name): \(result.stderr.prefix(600))")
        #expect(result.stderr.hasSuffix("nothing was written\n"), "\(name): \(result.stderr.suffix(300))")
        #expect(result.maxRSSKiB < maxRSSMiB * 1024, "\(name): peak RSS \(result.maxRSSKiB / 1024) MiB")
        print(
            "hostile \(name) (\(bytes.count) bytes\(viaStdin ? ", stdin" : "")): rejected, peak RSS \(result.maxRSSKiB / 1024) MiB"
        )
        #expect(try DatabaseState.digest(at: db) == before)
    }

    /// A little-endian 32-bit length.
    private func le32(_ n: UInt32) -> [UInt8] { withUnsafeBytes(of: n.littleEndian) { Array($0) } }

    @Test func bsonLengthPrefixesClaimingGigabytes() throws {
        for claimed: UInt32 in [0x7FFF_FFFF, 0xFFFF_FFFF, 0x4000_0000] {
            let bytes = le32(claimed) + [0x02, 0x61, 0x00] + [UInt8](repeating: 0, count: 29)
            try rejectImport("Item.bson", bytes, expecting: "length")
            // Through a pipe the size is unknown: the buffer must grow only as bytes arrive.
            try rejectImport("stdin.bson", bytes, extraArgs: ["--format", "bson"], viaStdin: true, expecting: "length")
        }
    }

    @Test func nestingHundredsOfThousandsOfLevelsDeep() throws {
        let depth = 300_000
        let arrays =
            Array(#"{"id": 1, "extra": "#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: depth)
            + [UInt8](repeating: UInt8(ascii: "]"), count: depth) + Array("}\n".utf8)
        try rejectImport("Item.json", arrays, expecting: "nested deeper than")
        let objects =
            Array(#"{"id": 1, "counts": "#.utf8) + Array(String(repeating: #"{"a": "#, count: depth).utf8)
            + Array("1".utf8)
            + [UInt8](repeating: UInt8(ascii: "}"), count: depth + 1) + Array("\n".utf8)
        try rejectImport("Item.json", objects, expecting: "nested deeper than")
        let fixture =
            Array(#"{"schemaVersion": 1, "Item": "#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: depth)
            + [UInt8](repeating: UInt8(ascii: "]"), count: depth) + Array("}".utf8)
        try rejectImport("fixture.json", fixture, expecting: "must hold documents")
        // BSON: 200,000 documents, each the only field of the one around it.
        let levels = 200_000
        var inner: [UInt8] = []
        inner.reserveCapacity(levels * 8 + 5)
        for j in stride(from: levels, through: 1, by: -1) {
            inner += le32(UInt32(5 + 8 * j)) + [0x03, UInt8(ascii: "a"), 0]
        }
        inner += [5, 0, 0, 0, 0] + [UInt8](repeating: 0, count: levels)
        let field: [UInt8] = [0x03] + Array("extra".utf8) + [0] + inner
        let id: [UInt8] = [0x12] + Array("id".utf8) + [0] + [1, 0, 0, 0, 0, 0, 0, 0]
        let bson = le32(UInt32(4 + id.count + field.count + 1)) + id + field + [0]
        try rejectImport("Item.bson", bson, expecting: "nested deeper than")
    }

    @Test func deeplyNestedSchemaFiles() throws {
        let dir = try TemporaryFolder("hostile-schema")
        let depth = 300_000
        let text =
            #"{"schemaVersion": 1, "classes": "# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("deep.json")))
        for args in [
            ["validate", dir.path("deep.json")], ["create", dir.path("x.porter"), "--schema", dir.path("deep.json")],
            ["schema", dir.path("deep.json")],
        ] {
            let result = try Hardening.porterMeasured(args)
            #expect(result.status == 1)
            #expect(result.stderr.contains("nesting deeper than"), "\(args[0]): \(result.stderr)")
            #expect(result.maxRSSKiB < Self.smallMiB * 1024, "\(args[0]): peak RSS \(result.maxRSSKiB / 1024) MiB")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.porter")))
    }

    @Test func documentsWithHugeNumbersOfFields() throws {
        // 200,000 unknown fields in one JSON document, 1,000,000 in one BSON document: the error
        // limit stops the report, and memory stays within a small multiple of the input size.
        var json = Array(#"{"id": 1"#.utf8)
        for i in 0..<200_000 { json += Array(#", "f\#(i)": \#(i)"#.utf8) }
        json += Array("}\n".utf8)
        try rejectImport("Item.json", json, maxRSSMiB: 160 * Self.scale, expecting: "Item.json:1:f0: unknown field")
        var body: [UInt8] = []
        body.reserveCapacity(13_000_000)
        for i in 0..<1_000_000 { body += [0x10] + Array("f\(i)".utf8) + [0] + le32(UInt32(i)) }
        let bson = le32(UInt32(body.count + 5)) + body + [0]
        try rejectImport("Item.bson", bson, maxRSSMiB: 200 * Self.scale, expecting: "Item.bson:1:f0: unknown field")
    }

    @Test func invalidUTF8InKeysAndValues() throws {
        try rejectImport(
            "Item.json", Array(#"{"id": 1, "label": "a"#.utf8) + [0xFF, 0xFE] + Array("b\"}\n".utf8), expecting: "UTF-8"
        )
        try rejectImport(
            "Item.json", Array(#"{"id": 1, ""#.utf8) + [0xC3, 0x28] + Array("\": 1}\n".utf8), expecting: "UTF-8")
        let id: [UInt8] = [0x12] + Array("id".utf8) + [0] + [1, 0, 0, 0, 0, 0, 0, 0]
        let badValue: [UInt8] = [0x02] + Array("label".utf8) + [0] + le32(4) + [0x61, 0xFF, 0x62, 0]
        try rejectImport(
            "Item.bson", le32(UInt32(4 + id.count + badValue.count + 1)) + id + badValue + [0], expecting: "UTF-8")
        let badKey: [UInt8] = [0x10, 0x66, 0xFF, 0x00] + le32(1)
        try rejectImport(
            "Item.bson", le32(UInt32(4 + id.count + badKey.count + 1)) + id + badKey + [0], expecting: "UTF-8")
    }
}
