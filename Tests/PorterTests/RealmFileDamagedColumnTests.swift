import Foundation
import PorterRealmFile
import PorterTestSupport
import Testing

@testable import Porter

/// A model of the damaged file below.
final class RFNote: Object {
    @Persisted(primaryKey: true) var _id = 0
    @Persisted var text = ""
    @Persisted var count = 0
}

/// A Realm file whose one short string has a damaged length byte, read through the typed API
/// (whose runs decode whole columns, see `Leaf.storeScalars`): the damage is named
/// `Class.property`, every other value still reads, and nothing is written.
@Suite struct RealmFileDamagedColumnTests {
    /// Three notes in schema order (`_id`, `text`, `count`); the second's text is `marked`.
    struct Notes: RealmWriteSource {
        func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
            guard className == "RFNote" else { return }
            for (i, text) in ["one", RealmFileDamagedColumnTests.marked, "three"].enumerated() {
                try body(Int64(i), [.int(Int64(i + 1)), .string(text), .int(Int64(10 * (i + 1)))])
            }
        }
    }

    /// Seven bytes: a short-string slot of width 8 whose last byte (8 - 1 - 7 = 0) is its length.
    static let marked = "mQz7Wv9"

    /// Writes the notes and damages the marked string's length byte (0 → 0xEE, past the width).
    private func damagedFile(_ dir: TemporaryFolder) throws -> String {
        let path = dir.path("notes.realm")
        try RealmFileWriter(schema: try Schema(version: 0, objectTypes: [RFNote.self]), schemaVersion: 0).write(
            to: path, source: Notes())
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let pattern = Array(Self.marked.utf8)
        let offsets = (0...(bytes.count - pattern.count)).filter { Array(bytes[$0..<$0 + pattern.count]) == pattern }
        try #require(offsets.count == 1, "the marked string appears once in the file")
        let lengthByte = offsets[0] + pattern.count
        try #require(bytes[lengthByte] == 0, "a short string of width 8")
        bytes[lengthByte] = 0xEE
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A run's damaged column is named Class.property")
    func runNamesTheProperty() throws {
        let dir = try TemporaryFolder("damaged-column")
        let path = try damagedFile(dir)
        let file = try RealmFile(path: path)
        let table = try #require(file.tables.first { $0.name == "RFNote" })
        var keys: [ObjectKey] = []
        var values: [Value] = []
        let error = #expect(throws: PorterError.self) {
            try file.appendRows(
                in: table, from: .min, through: .max, properties: Array(table.properties.indices), keys: &keys,
                values: &values)
        }
        #expect(error?.description.contains("RFNote.text") == true, "\(String(describing: error))")
        #expect(error?.description.contains("bad length byte") == true, "\(String(describing: error))")
    }

    @Test("Typed reads: the damaged value is reported, the rest read, nothing is written")
    func typedReadsAroundTheDamage() throws {
        let dir = try TemporaryFolder("damaged-column")
        let path = try damagedFile(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
        do {
            let realm = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: [RFNote.self]))
            let read = realm.objects(RFNote.self).map { ($0._id, $0.text, $0.count) }
            #expect(read.map(\.0) == [1, 2, 3])
            #expect(read.map(\.1) == ["one", "", "three"])
            #expect(read.map(\.2) == [10, 20, 30])
            let error = try #require(realm.lastReadError)
            #expect("\(error)".contains("RFNote.text"), "\(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == files)
    }
}
