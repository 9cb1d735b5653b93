import Foundation
import Porter
@testable import PorterStore
import Testing
import PorterTestSupport

/// Class names become file names in an export. Schema validation forbids dangerous names, but a
/// crafted or damaged file can still hold any name in its stored schema: whatever the name, the
/// export writes only inside its output folder and overwrites nothing outside it.
@Suite struct ExportNameTests {
    /// (A name with NUL cannot reach a file: SQLite's C strings end there, so no table can hold
    /// it; the file-name mapping still encodes it, see `nulAndControlCharactersAreEncoded`.)
    static let hostileNames = [
        "../x", "a/b", "..", ".", ".hidden", "bell\u{7}", "tab\there", "line\nbreak", "schema", "%2e%2e",
        "/etc/passwd", "../../escape", "C:\\x", "-rf", "ünï/../cödé",
    ]

    /// A database whose stored schema holds `names` as classes (one object each), written with
    /// the store's own DDL below the validation that would refuse them.
    private func craftedDatabase(_ path: String, names: [String]) throws {
        let classes = names.map { ObjectSchema(name: $0, properties: [Property(name: "v", type: .int)]) }
        let schema = Schema(version: 1, classes: classes)
        let db = try Database.create(at: path, schema: try Schema(jsonString: #"{"schemaVersion": 1, "classes": []}"#))
        try db.connection.execute("BEGIN IMMEDIATE")
        for cls in schema.classes {
            try SchemaDDL(connection: db.connection).createClass(cls)
            let stmt = try db.connection.prepare(
                "INSERT INTO \(quoteIdentifier(StorageLayout.table(cls.name))) (v) VALUES (7)")
            try stmt.run()
        }
        try Database.writeStoredSchema(db.connection, schema)
        try db.connection.execute("COMMIT")
    }

    @Test(arguments: ["bson", "json", "ejson"])
    func hostileClassNamesStayInsideTheOutputFolder(format: String) throws {
        let dir = try TemporaryFolder("export-names")
        let db = dir.path("crafted.porter")
        try craftedDatabase(db, names: Self.hostileNames)
        // Files an escaping name would hit: next to the output folder, and in it.
        let sentinels = ["x.\(format == "bson" ? "bson" : "json")", "out/schema.json"].map { dir.path($0) }
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        for path in sentinels { try Data("sentinel".utf8).write(to: URL(fileURLWithPath: path)) }
        let database = try Database.open(at: db, readOnly: true)
        #expect(database.schema.classes.count == Self.hostileNames.count)
        let outputFormat = try InterchangeFormats.outputFormat(named: format)
        let report = try Exporter(database: database, format: outputFormat).export(toDirectory: dir.path("out"))
        #expect(report.files.count == Self.hostileNames.count)
        let outDir = URL(fileURLWithPath: dir.path("out")).standardizedFileURL.path
        for file in report.files {
            let parent = URL(fileURLWithPath: file.path).deletingLastPathComponent().standardizedFileURL.path
            #expect(parent == outDir, "\(file.className.debugDescription) was written to \(file.path)")
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            #expect(
                !name.hasPrefix(".") && !name.contains("/") && !name.unicodeScalars.contains { $0.value < 0x20 },
                "\(name.debugDescription)")
            // The mapping is reversible, so an import finds the class again.
            #expect(ExportFileNames.className(fromFileName: name) == file.className)
        }
        // Nothing outside the folder changed; the folder holds the schema plus one file per class.
        #expect(try String(contentsOfFile: sentinels[0], encoding: .utf8) == "sentinel")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
                == [
                    "crafted.porter", "crafted.porter-shm", "crafted.porter-wal", "out",
                    sentinels[0].components(separatedBy: "/").last!,
                ].sorted())
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path("out"))
        // BSON exports write a mongodump metadata file beside each class file.
        #expect(written.count == Self.hostileNames.count * (format == "bson" ? 2 : 1) + 1)
        #expect(try Schema(contentsOfFile: dir.path("out/schema.json")).classes.count == Self.hostileNames.count)
    }

    @Test func nulAndControlCharactersAreEncoded() throws {
        for name in ["x\u{0}y", "\u{0}", "a\u{1F}b", "del\u{7F}", "../\u{0}/.."] {
            let file = ExportFileNames.fileName(forClass: name, extension: "bson")
            #expect(
                file.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "/" },
                "\(name.debugDescription) → \(file)")
            #expect(!file.hasPrefix("."))
            #expect(ExportFileNames.className(fromFileName: file) == name)
        }
    }

    @Test func aHostileClassArgumentIsRefused() throws {
        let dir = try TemporaryFolder("export-names")
        let db = dir.path("plain.porter")
        try craftedDatabase(db, names: ["Plain"])
        let database = try Database.open(at: db, readOnly: true)
        for name in ["../Plain", "Plain/..", "/Plain"] {
            #expect(throws: PorterError.self) {
                _ = try Exporter(
                    database: database, format: try InterchangeFormats.outputFormat(named: "json"),
                    options: ExportOptions(classes: [name])
                ).export(toDirectory: dir.path("out"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
    }
}
