import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore
import PorterTestSupport

/// Hostile input is rejected quickly, without deep recursion or excessive memory.
@Suite struct HostileInputTests {
    static func database() throws -> Database {
        try memoryDatabase(
            try schema(
                #"{"classes":[{"name":"P","primaryKey":"_id","properties":{"_id":"string","x":"mixed","m":"int{}"}}]}"#)
        )
    }

    @Test func jsonNestedHundredsOfThousandsOfLevels() throws {
        let db = try Self.database()
        let depth = 300_000
        let arrays =
            #"{"_id":"a","x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(
            importLines(db, arrays, className: "P") == [
                "input.json:1: documents and arrays are nested deeper than 100 levels (document starting on line 1)"
            ])
        let objects =
            #"{"_id":"a","m":"# + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth) + "}"
        #expect(
            importLines(db, objects, className: "P") == [
                "input.json:1: documents and arrays are nested deeper than 100 levels (document starting on line 1)"
            ])
        let unterminated = String(repeating: "[", count: depth)
        #expect(
            importLines(db, unterminated, className: "P") == [
                "input.json: array elements must be documents ('{') but found '[' (line 1)"
            ])
        #expect(try db.count("P") == 0)
    }

    @Test func bsonNestedHundredsOfThousandsOfLevels() throws {
        let db = try Self.database()
        // 200,000 nested documents `{a: {a: …}}`, written front to back: level j (from the
        // inside) is 5 + 8j bytes long.
        let levels = 200_000
        var inner: [UInt8] = []
        inner.reserveCapacity(levels * 8 + 5)
        for j in stride(from: levels, through: 1, by: -1) {
            inner += withUnsafeBytes(of: UInt32(5 + 8 * j).littleEndian) { Array($0) } + [0x03, UInt8(ascii: "a"), 0]
        }
        inner += [5, 0, 0, 0, 0] + [UInt8](repeating: 0, count: levels)
        let doc = BSONBytes.document { d in
            d.string("_id", "a"); d.rawDocument("x", inner)
        }
        let lines = importLines(db, Data(doc), name: "P.bson")
        #expect(lines.count == 1 && lines[0].hasSuffix("documents and arrays are nested deeper than 100 levels"))
    }

    @Test func aMillionFieldsStopAtTheErrorLimit() throws {
        let db = try Self.database()
        var text = #"{"_id":"a""#
        for i in 0..<200_000 { text += #","f\#(i)":\#(i)"# }
        text += "}"
        let lines = importLines(db, text, options: ImportOptions(maxErrors: 5), className: "P")
        #expect(lines.count == 5)
        #expect(
            lines.first
                == "input.json:1:f0: unknown field (class 'P' has no property 'f0'; use --ignore-unknown to skip it)")
    }

    @Test func invalidUTF8InKeysAndValues() throws {
        let db = try Self.database()
        let jsonKey = Data(#"{"_id":"a","m":{""#.utf8) + Data([0xFF]) + Data(#"":1}}"#.utf8)
        #expect(importLines(db, jsonKey, name: "P.json").first?.contains("invalid utf-8") == true)
        var bsonKey = BSONBytes.document { d in
            d.string("_id", "a"); d.int64("k", 1)
        }
        bsonKey[bsonKey.lastIndex(of: UInt8(ascii: "k"))!] = 0xC0
        #expect(
            importLines(db, Data(bsonKey), name: "P.bson") == [
                "P.bson:1: invalid BSON: a field name is not valid UTF-8"
            ])
        #expect(try db.count("P") == 0)
    }

    @Test func classNamesNeverEscapeTheOutputFolder() throws {
        for name in [
            "../x", "a/b", "..", ".", ".hidden", "x\u{0}y", "tab\there", "%41", "schema", "C:\\x", "ok_Name-1", "Ünï",
        ] {
            for ext in ["bson", "json"] {
                let file = ExportFileNames.fileName(forClass: name, extension: ext)
                #expect(!file.contains("/") && !file.hasPrefix(".") && !file.contains("\u{0}"), "\(name) → \(file)")
                #expect(file != "schema.json")
                #expect(ExportFileNames.className(fromFileName: file) == name, "\(name) → \(file)")
                let dir = try TemporaryFolder()
                let path = try ExportFileNames.path(in: dir.url.path, fileName: file)
                #expect(
                    URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
                        == dir.url.standardizedFileURL.path)
            }
        }
    }

    @Test func aFailedExportLeavesNoFilesBehind() throws {
        let db = try fixtureDatabase()
        let dir = try TemporaryFolder()
        let out = dir.path("out")
        // A folder where a class file should go makes the final rename fail after every file was written.
        try FileManager.default.createDirectory(atPath: out + "/Task.bson/blocker", withIntermediateDirectories: true)
        let exporter = Exporter(database: db, format: BSONFormat())
        #expect(throws: PorterError.self) { _ = try exporter.export(toDirectory: out) }
        let left = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.contains(".porter-") }
        #expect(left.isEmpty)
        // A failed export into a new folder removes the folder.
        let other = dir.path("missing/out")
        let bad = Exporter(database: db, format: BSONFormat(), options: ExportOptions(classes: ["Address"]))
        #expect(throws: PorterError.self) { _ = try bad.export(toDirectory: other) }
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
