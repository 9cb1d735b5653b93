import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument
import PorterModel
import PorterStore
import PorterTestSupport

/// mongodump and mongorestore layouts both ways: dump roots, database folders with metadata,
/// gzip, archives (hand-built from the specification and Porter's own), and the errors of each.
@Suite struct MongoDumpTests {
    static let schemaJSON = """
        {"schemaVersion": 1, "classes": [
          {"name": "Dog", "primaryKey": "_id", "properties": {"_id": "int", "name": {"type": "string", "indexed": true}, "age": "int?"}},
          {"name": "Person", "primaryKey": "_id", "properties": {"_id": "int", "name": "string"}}
        ]}
        """

    static func database(_ label: String = #function) throws -> Database {
        try memoryDatabase(try schema(schemaJSON), label)
    }

    static func dog(_ id: Int64, _ name: String) -> [UInt8] {
        BSONBytes.document {
            $0.int64("_id", id); $0.string("name", name)
        }
    }

    static func person(_ id: Int64, _ name: String) -> [UInt8] {
        BSONBytes.document {
            $0.int64("_id", id); $0.string("name", name)
        }
    }

    /// mongodump 100.x's metadata.json for a collection with an index on `name`.
    static let dogMetadata =
        #"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},{"v":{"$numberInt":"2"},"key":{"name":{"$numberInt":"1"}},"name":"name_1"}],"uuid":"3b241101e2bb42558caf4136c566a962","collectionName":"Dog","type":"collection"}"#
    static let personMetadata =
        #"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}],"uuid":"0123456789abcdef0123456789abcdef","collectionName":"Person","type":"collection"}"#

    /// Runs an import of `sources`; returns the report or the error lines.
    static func run(_ db: Database, _ sources: [ImportSource], options: ImportOptions = ImportOptions()) -> (
        ImportReport?, [String]
    ) {
        let importer = Importer(database: db, formats: InterchangeFormats.input, options: options)
        do {
            return (try importer.run(sources), [])
        } catch let error as PorterError {
            return (nil, error.details.isEmpty ? [error.headline] : error.details)
        } catch {
            return (nil, ["\(error)"])
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let memory = ByteOutput(memoryNamed: "mem")
        let output = try ByteOutput(gzipInto: memory)
        try output.write(bytes)
        try output.close()
        return Array(memory.collected)
    }

    /// A mongodump database folder: `.bson` plus `.metadata.json` per collection.
    static func databaseFolder(_ path: String, gzip: Bool = false) throws {
        let files: [(String, [UInt8])] = [
            ("Dog.bson", dog(1, "Rex") + dog(2, "Fido")), ("Dog.metadata.json", Array(dogMetadata.utf8)),
            ("Person.bson", person(7, "Ada")), ("Person.metadata.json", Array(personMetadata.utf8)),
        ]
        for (name, bytes) in files {
            try write(gzip ? try Self.gzip(bytes) : bytes, to: path + "/" + name + (gzip ? ".gz" : ""))
        }
    }

    @Test func crc64MatchesTheCatalogueCheckValue() {
        // CRC-64/XZ ("123456789" → 0x995DC9BBDF1939FA), which Go's crc64.ECMA table computes.
        var crc = CRC64()
        crc.update(Array("123456789".utf8))
        #expect(crc.value == 0x995D_C9BB_DF19_39FA)
        #expect(MongoArchiveBuilder.crc64(Array("123456789".utf8)) == 0x995D_C9BB_DF19_39FA)
    }

    @Test func databaseFolderWithMetadataImports() throws {
        let dir = try TemporaryFolder()
        try Self.databaseFolder(dir.path("dump/sales"))
        let db = try Self.database()
        let (report, lines) = Self.run(db, [ImportSource(path: dir.path("dump/sales"))])
        #expect(lines.isEmpty, "\(lines)")
        #expect(try db.count("Dog") == 2 && db.count("Person") == 1)
        #expect(report?.warnings == [])
    }

    @Test func gzipFolderImportsByContent() throws {
        let dir = try TemporaryFolder()
        try Self.databaseFolder(dir.path("dump/sales"), gzip: true)
        let db = try Self.database()
        let (_, lines) = Self.run(db, [ImportSource(path: dir.path("dump/sales"))])
        #expect(lines.isEmpty, "\(lines)")
        #expect(try db.count("Dog") == 2 && db.count("Person") == 1)
        // A gzip file is recognized by its magic bytes, not its name.
        try Self.write(try Self.gzip(Self.dog(9, "Zed")), to: dir.path("renamed/Dog.bson"))
        let (_, more) = Self.run(db, [ImportSource(path: dir.path("renamed/Dog.bson"))])
        #expect(more.isEmpty, "\(more)")
        #expect(try db.count("Dog") == 3)
    }

    @Test func dumpRootUsesItsOnlyDatabaseOrDb() throws {
        let dir = try TemporaryFolder()
        try Self.databaseFolder(dir.path("one/sales"))
        // Newer mongodumps write a prelude.json beside the database folders.
        try Self.write(
            Array(#"{"ServerVersion":"7.0.2","ToolVersion":"100.9.0"}"#.utf8), to: dir.path("one/prelude.json"))
        let db = try Self.database()
        let (oneReport, oneLines) = Self.run(db, [ImportSource(path: dir.path("one"))])
        #expect(oneLines.isEmpty, "\(oneLines)")
        #expect(oneReport?.warnings.count == 1)
        #expect(try db.count("Dog") == 2)
        // --db on a database folder (not a root) says so.
        let plain = try Self.database()
        #expect(
            Self.run(plain, [ImportSource(path: dir.path("one/sales"))], options: ImportOptions(dumpDatabase: "sales"))
                .1
                == [
                    "\(dir.path("one/sales")): --db sales: this folder is not a mongodump root (it has no database subfolders holding .bson files)"
                ])

        try Self.databaseFolder(dir.path("two/sales"))
        try Self.databaseFolder(dir.path("two/weather"))
        let other = try Self.database()
        #expect(
            Self.run(other, [ImportSource(path: dir.path("two"))]).1
                == ["\(dir.path("two")): the dump holds several databases (sales, weather): pass --db NAME to pick one"]
        )
        #expect(try other.count("Dog") == 0)
        #expect(
            Self.run(other, [ImportSource(path: dir.path("two"))], options: ImportOptions(dumpDatabase: "nope")).1
                == ["\(dir.path("two")): the dump holds no database 'nope' (it holds: sales, weather)"])
        // mongodump --gzip gzips the prelude too; a single-database dump may hold one in its folder.
        try Self.write(
            try Self.gzip(Array(#"{"ServerVersion":"7.0.16","ToolVersion":""}"#.utf8)),
            to: dir.path("two/prelude.json.gz"))
        try Self.write(
            Array(#"{"ServerVersion":"7.0.16","ToolVersion":""}"#.utf8), to: dir.path("two/weather/prelude.json"))
        let (report, lines) = Self.run(
            other, [ImportSource(path: dir.path("two"))], options: ImportOptions(dumpDatabase: "weather"))
        #expect(lines.isEmpty, "\(lines)")
        #expect(try other.count("Dog") == 2)
        #expect(
            report?.warnings == [
                "warning: \(dir.path("two/prelude.json.gz")): skipped (not a .bson, .json or .metadata.json file of a class in the schema)",
                "warning: \(dir.path("two/sales")): skipped (not a .bson, .json or .metadata.json file of a class in the schema)",
                "warning: \(dir.path("two/weather/prelude.json")): skipped (not a .bson, .json or .metadata.json file of a class in the schema)",
            ])
    }

    @Test func metadataIndexesAreComparedWithTheSchema() throws {
        let dir = try TemporaryFolder()
        try Self.write(Self.dog(1, "Rex"), to: dir.path("db/Dog.bson"))
        // No index on name (the schema has one), an index on age (the schema has none), a
        // compound index, and options Porter has no use for (ignored silently).
        let metadata =
            #"{"options":{"capped":true,"size":{"$numberLong":"4096"}},"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},{"v":{"$numberInt":"2"},"key":{"age":{"$numberInt":"-1"}},"name":"age_-1"},{"v":{"$numberInt":"2"},"key":{"name":{"$numberInt":"1"},"age":{"$numberInt":"1"}},"name":"name_1_age_1"},{"v":{"$numberInt":"2"},"key":{"location.geo":"2dsphere"},"name":"geo_2dsphere"},{"v":{"$numberInt":"2"},"key":{"address.city":{"$numberInt":"1"}},"name":"city_1"}],"collectionName":"Dog","type":"collection"}"#
        try Self.write(Array(metadata.utf8), to: dir.path("db/Dog.metadata.json"))
        let db = try Self.database()
        let (report, lines) = Self.run(db, [ImportSource(path: dir.path("db"))])
        #expect(lines.isEmpty, "\(lines)")
        let file = dir.path("db/Dog.metadata.json")
        #expect(
            report?.warnings == [
                "warning: \(file): index 'age_-1' is on Dog.age, which the schema does not declare indexed",
                "warning: \(file): index 'name_1_age_1' on name, age spans several fields; Realm indexes single properties, so it is not kept",
                "warning: \(file): index 'geo_2dsphere' is a 2dsphere index on 'location.geo'; Realm has no such index, so it is not kept",
                "warning: \(file): index 'city_1' is on the nested field 'address.city'; Realm indexes top-level properties only, so it is not kept",
                "warning: \(file): Dog.name is indexed in the schema but the dump has no index on it",
            ])
    }

    @Test func unreadableMetadataIsAWarningNotAFailure() throws {
        let dir = try TemporaryFolder()
        try Self.write(Self.dog(1, "Rex"), to: dir.path("db/Dog.bson"))
        try Self.write(Array("{not json".utf8), to: dir.path("db/Dog.metadata.json"))
        let db = try Self.database()
        let (report, lines) = Self.run(db, [ImportSource(path: dir.path("db"))])
        #expect(lines.isEmpty)
        #expect(
            report?.warnings == [
                "warning: \(dir.path("db/Dog.metadata.json")): metadata is not valid JSON; its indexes were not checked"
            ])
        #expect(try db.count("Dog") == 1)
    }

    @Test func handBuiltArchiveWithInterleavedSegmentsImports() throws {
        var archive = MongoArchiveBuilder(database: "sales")
        archive.collections = [("Dog", Self.dogMetadata), ("Person", Self.personMetadata), ("Empty", "")]
        archive.parts = [
            .segment("Dog", [Self.dog(1, "Rex")]), .segment("Person", [Self.person(7, "Ada")]),
            .segment("Dog", [Self.dog(2, "Fido"), Self.dog(3, "Max")]), .eof("Person"), .eof("Dog"),
            // mongodump closes an empty collection with a segment holding no documents.
            .segment("Empty", []), .eof("Empty"),
        ]
        for gzipped in [false, true] {
            let db = try Self.database()
            let bytes = gzipped ? try Self.gzip(archive.bytes()) : archive.bytes()
            // The name says nothing: content decides.
            #expect(importLines(db, Data(bytes), name: "sampledata") == [])
            #expect(try db.count("Dog") == 3 && db.count("Person") == 1)
            let max = try #require(try db.key("Dog", primaryKey: .int(3)))
            #expect(try db.object("Dog", max)?["name"] == .string("Max"))
        }
    }

    @Test func everyTruncationOrFlippedByteOfAnArchiveIsOneErrorOrNothing() throws {
        var archive = MongoArchiveBuilder(database: "sales")
        archive.collections = [("Dog", Self.dogMetadata)]
        archive.parts = [.segment("Dog", [Self.dog(1, "Rex"), Self.dog(2, "Fido")]), .eof("Dog")]
        let bytes = archive.bytes()
        let db = try Self.database()
        for length in 0..<bytes.count {
            let lines = importLines(
                db, Data(bytes.prefix(length)), name: "a.archive", options: ImportOptions(dumpDatabase: "sales"))
            #expect(lines.count == 1 && lines[0].hasPrefix("a.archive"), "prefix \(length): \(lines)")
        }
        for index in stride(from: 0, to: bytes.count, by: 3) {
            var damaged = bytes
            damaged[index] ^= 0x5A
            // Either an error, or (a flip inside a string the CRC does not cover) a clean import.
            let lines = importLines(db, Data(damaged), name: "a.archive", options: ImportOptions(dumpDatabase: "sales"))
            #expect(lines.allSatisfy { !$0.isEmpty }, "flip at \(index)")
            if lines.isEmpty { try db.write { try db.deleteAll("Dog") } }
        }
        #expect(try db.count("Dog") == 0)
    }

    @Test func archiveErrorsNameWhatIsWrongAndWriteNothing() throws {
        var bad = MongoArchiveBuilder(database: "sales")
        bad.collections = [("Dog", Self.dogMetadata)]
        bad.parts = [.segment("Dog", [Self.dog(1, "Rex")]), .corruptEOF("Dog")]
        let db = try Self.database()
        #expect(
            importLines(db, Data(bad.bytes()), name: "a.archive")
                == ["a.archive: corrupt archive: the documents of sales.Dog do not match the CRC of its EOF marker"])
        var truncated = bad
        truncated.parts = [.segment("Dog", [Self.dog(1, "Rex")])]
        #expect(
            importLines(db, Data(truncated.bytes()), name: "a.archive")
                == ["a.archive: truncated archive: it ends before the EOF marker of sales.Dog"])
        var two = MongoArchiveBuilder(database: "sales")
        two.collections = [("Dog", Self.dogMetadata)]
        two.parts = [.eof("Dog")]
        var both = two.bytes()
        // Add a second database's collection to the prelude by building it with two databases.
        var weather = MongoArchiveBuilder(database: "weather")
        weather.collections = [("Dog", Self.dogMetadata)]
        weather.parts = [.eof("Dog")]
        both = Self.twoDatabaseArchive(two, weather)
        #expect(
            importLines(db, Data(both), name: "a.archive")
                == ["a.archive: the archive holds several databases (sales, weather): pass --db NAME to pick one"])
        #expect(importLines(db, Data(both), name: "a.archive", options: ImportOptions(dumpDatabase: "weather")) == [])
        #expect(
            importLines(db, Data(bad.bytes()), name: "a.archive", options: ImportOptions(dumpDatabase: "x"))
                == ["a.archive: the archive holds no database 'x' (it holds: sales)"])
        let jsonReader = Importer(database: db, formats: InterchangeFormats.input)
        #expect(throws: PorterError.self) {
            try jsonReader.run(data: Data(bad.bytes()), name: "a.archive", format: "json")
        }
        #expect(
            importLines(db, Data(bad.bytes()), name: "Dog.bson", options: ImportOptions()).first?.contains("CRC")
                == true)
        #expect(try db.count("Dog") == 0)
    }

    /// An archive whose prelude lists one empty collection in each of two databases.
    static func twoDatabaseArchive(_ a: MongoArchiveBuilder, _ b: MongoArchiveBuilder) -> [UInt8] {
        var first = a.bytes(), second = b.bytes()
        // Splice: magic+header of `a`, metadata of both, terminator, then both bodies.
        func preludeEnd(_ bytes: [UInt8]) -> Int {
            var i = 4
            while true {
                let n = Int(
                    UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
                        << 24)
                if n == 0xFFFF_FFFF { return i }
                i += n
            }
        }
        func headerEnd(_ bytes: [UInt8]) -> Int {
            4 + Int(UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24)
        }
        let aEnd = preludeEnd(first), bEnd = preludeEnd(second)
        var out = Array(first[0..<aEnd]) + Array(second[headerEnd(second)..<bEnd]) + [0xFF, 0xFF, 0xFF, 0xFF]
        out += first[(aEnd + 4)...]
        out += second[(bEnd + 4)...]
        first = []
        second = []
        return out
    }

    @Test func porterArchivesAndGzipFoldersRoundTrip() throws {
        let db = try Self.database()
        try db.write {
            try db.create("Dog", ["_id": .int(1), "name": .string("Rex"), "age": .int(3)])
            try db.create("Person", ["_id": .int(7), "name": .string("Ada")])
        }
        let exporter = Exporter(
            database: db, format: try InterchangeFormats.outputFormat(named: "bson"), options: ExportOptions(gzip: true)
        )
        let memory = ByteOutput(memoryNamed: "dump.archive")
        _ = try exporter.export(toArchive: memory, databaseName: "app")
        let archive = Array(memory.collected)
        #expect(archive.starts(with: [0x1F, 0x8B]))
        let copy = try Self.database()
        #expect(importLines(copy, Data(archive), name: "dump.archive") == [])
        #expect(try counts(copy) == counts(db))

        let dir = try TemporaryFolder()
        _ = try exporter.export(toDirectory: dir.path("out"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).sorted()
                == ["Dog.bson.gz", "Dog.metadata.json.gz", "Person.bson.gz", "Person.metadata.json.gz", "schema.json"])
        let again = try Self.database()
        let (report, lines) = Self.run(again, [ImportSource(path: dir.path("out"))])
        #expect(lines.isEmpty, "\(lines)")
        #expect(report?.warnings == [])
        #expect(try counts(again) == counts(db))
    }

    /// The fields of a flat BSON document (strings, booleans, int32, int64), read independently.
    static func flatFields(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        var i = bytes.startIndex + 4
        func int(_ at: Int, _ width: Int) -> Int64 {
            (0..<width).reduce(Int64(0)) { $0 | Int64(bytes[at + $1]) << (8 * Int64($1)) }
        }
        while bytes[i] != 0 {
            let type = bytes[i]
            let keyEnd = bytes[(i + 1)...].firstIndex(of: 0)!
            let key = String(decoding: bytes[(i + 1)..<keyEnd], as: UTF8.self)
            i = keyEnd + 1
            switch type {
            case 0x02:
                let n = Int(int(i, 4))
                fields[key] = "s:" + String(decoding: bytes[(i + 4)..<(i + 3 + n)], as: UTF8.self)
                i += 4 + n
            case 0x08: fields[key] = "b:\(bytes[i])"; i += 1
            case 0x10: fields[key] = "i32:\(Int32(truncatingIfNeeded: int(i, 4)))"; i += 4
            case 0x12: fields[key] = "i64:\(int(i, 8))"; i += 8
            default: Issue.record("unexpected type \(type) in an archive header"); return fields
            }
        }
        return fields
    }

    @Test func porterArchivesFollowTheSpecification() throws {
        let db = try Self.database()
        try db.write {
            try db.create("Dog", ["_id": .int(1), "name": .string("Rex")])
            try db.create("Dog", ["_id": .int(2), "name": .string("Fido")])
        }
        let memory = ByteOutput(memoryNamed: "a.archive")
        let exporter = Exporter(database: db, format: try InterchangeFormats.outputFormat(named: "bson"))
        _ = try exporter.export(toArchive: memory, databaseName: "app")
        let bytes = Array(memory.collected)
        var i = 0
        func next() -> ArraySlice<UInt8>? {
            let n = Int(
                UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
            if n == 0xFFFF_FFFF { i += 4; return nil }
            defer { i += n }
            return bytes[i..<(i + n)]
        }
        #expect(Array(bytes[0..<4]) == [0x6D, 0xE2, 0x99, 0x81])
        i = 4
        let header = Self.flatFields(try #require(next()))
        #expect(header["version"] == "s:0.1" && header["concurrent_collections"] == "i32:1")
        var metadata: [[String: String]] = []
        while let doc = next() { metadata.append(Self.flatFields(doc)) }
        #expect(metadata.map { $0["collection"] } == ["s:Dog", "s:Person"])
        #expect(metadata.allSatisfy { $0["db"] == "s:app" && $0["type"] == "s:collection" && $0["size"] != nil })
        #expect(metadata.first?["metadata"]?.contains(#""name":"name_1""#) == true)
        // Dog: namespace header, its two documents, terminator, EOF header with the CRC, terminator.
        let segment = Self.flatFields(try #require(next()))
        #expect(segment == ["db": "s:app", "collection": "s:Dog", "EOF": "b:0", "CRC": "i64:0"])
        var documents: [UInt8] = []
        while let doc = next() { documents += doc }
        #expect(documents == (try documentsOf(db)))
        let eof = Self.flatFields(try #require(next()))
        #expect(
            eof == [
                "db": "s:app", "collection": "s:Dog", "EOF": "b:1",
                "CRC": "i64:\(Int64(bitPattern: MongoArchiveBuilder.crc64(documents)))",
            ])
        #expect(next() == nil)
        // Person is empty: only its EOF header (CRC 0) and terminator.
        #expect(
            Self.flatFields(try #require(next())) == [
                "db": "s:app", "collection": "s:Person", "EOF": "b:1", "CRC": "i64:0",
            ])
        #expect(next() == nil)
        #expect(i == bytes.count)
    }

    /// The BSON export of Dog, for comparing with the archive's documents.
    func documentsOf(_ db: Database) throws -> [UInt8] {
        Array(try exportClass(db, "Dog", format: "bson"))
    }

    @Test func metadataFilesHaveMongodumpsForm() throws {
        let cls = try #require(try schema(Self.schemaJSON)["Dog"])
        #expect(
            DumpMetadata.json(for: cls)
                == #"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},{"v":{"$numberInt":"2"},"key":{"name":{"$numberInt":"1"}},"name":"name_1"}],"collectionName":"Dog","type":"collection"}"#
        )
    }

    @Test func aFolderOfUnusedFilesIsAnErrorNotAnEmptyImport() throws {
        let dir = try TemporaryFolder()
        try Self.write(Array("hello".utf8), to: dir.path("stuff/notes.txt"))
        try Self.write(Array("x".utf8), to: dir.path("stuff/data.csv"))
        let db = try Self.database()
        #expect(
            Self.run(db, [ImportSource(path: dir.path("stuff"))]).1
                == [
                    "\(dir.path("stuff")): no documents imported: the source holds only files Porter does not read: \(dir.path("stuff/data.csv")), \(dir.path("stuff/notes.txt"))"
                ])
        // With documents imported, skipped files are warnings.
        try Self.write(Self.dog(1, "Rex"), to: dir.path("stuff/Dog.bson"))
        let (report, lines) = Self.run(db, [ImportSource(path: dir.path("stuff"))])
        #expect(lines.isEmpty)
        #expect(report?.warnings.count == 2)
        #expect(try db.count("Dog") == 1)
    }

    @Test func otherCompressedFormatsAreNamed() throws {
        let db = try Self.database()
        #expect(
            importLines(db, Data([0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0, 0]), name: "Dog.bson")
                == [
                    "Dog.bson: this is a zstd file, which Porter does not read (it reads gzip-compressed files and mongodump archives): unpack it first"
                ])
        #expect(
            importLines(db, Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3, 4]), name: "dump.json").first?.hasPrefix(
                "dump.json: this is a zip archive") == true)
        #expect(try db.count("Dog") == 0)
    }

    @Test func corruptGzipIsOneLineAndNothingIsWritten() throws {
        let db = try Self.database()
        var bytes = try Self.gzip(Self.dog(1, "Rex") + Self.dog(2, "Fido"))
        bytes[bytes.count / 2] ^= 0xFF
        #expect(importLines(db, Data(bytes), name: "Dog.bson").first?.hasPrefix("Dog.bson: corrupt gzip data") == true)
        let truncated = Array(try Self.gzip(Self.dog(1, "Rex")).dropLast(12))
        #expect(
            importLines(db, Data(truncated), name: "Dog.bson") == [
                "Dog.bson: truncated gzip file: the compressed stream ends before its end marker"
            ])
        #expect(try db.count("Dog") == 0)
    }
}
