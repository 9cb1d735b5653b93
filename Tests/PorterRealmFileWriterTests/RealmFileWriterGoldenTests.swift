import Foundation
import PorterModel
import Testing
import PorterTestSupport
@testable import PorterRealmFile

/// Files the writer makes, byte for byte against goldens that realm-core 14 accepted
/// (`realm-oracle check` and `dump`, see Fixtures/realm/written/README.md).
/// `PORTER_UPDATE_WRITER_GOLDENS=1` rewrites the goldens instead (development only).
@Suite struct RealmFileWriterGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/written")

    static let scenarios = [
        "flat-pk-int", "flat-no-pk", "pk-string-indexed", "pk-objectid", "pk-uuid", "many-objects",
        "links", "collections", "strings-and-blobs", "decimals", "mixed-links", "indexed-mixed", "empty",
    ]

    /// Writes scenario `name` into a fresh temporary directory and returns the bytes.
    static func write(_ name: String, encryptionKey: [UInt8]? = nil, as fileName: String? = nil) throws -> [UInt8] {
        let schema = try Schema(contentsOfFile: directory.appendingPathComponent("\(name).schema.json").path)
        let fixture = try JSONValue.parse(
            try Data(contentsOf: directory.appendingPathComponent("\(name).fixture.json")))
        let source = try WriterFixtureReader(schema: schema).read(fixture)
        let tmp = try TemporaryFolder("writer")
        let temp = tmp.url
        let path = temp.appendingPathComponent("\(fileName ?? name).realm").path
        try RealmFileWriter(schema: schema, schemaVersion: schema.version).write(
            to: path, source: source, encryptionKey: encryptionKey)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: scenarios)
    func matchesGolden(_ name: String) throws {
        let bytes = try Self.write(name)
        let golden = Self.directory.appendingPathComponent("\(name).realm")
        if ProcessInfo.processInfo.environment["PORTER_UPDATE_WRITER_GOLDENS"] == "1" {
            try Data(bytes).write(to: golden)
        }
        let expected = [UInt8](try Data(contentsOf: golden))
        #expect(bytes.count == expected.count)
        #expect(bytes == expected, "\(name): the written file differs from its golden")
    }

    /// The key of the encrypted golden: bytes 0, 1, …, 63 (hex 000102…3f for `REALM_ORACLE_KEY_HEX`).
    static let key = (0..<64).map { UInt8($0) }

    @Test func encryptedMatchesGolden() throws {
        let bytes = try Self.write("links", encryptionKey: Self.key)
        let golden = Self.directory.appendingPathComponent("links-encrypted.realm")
        if ProcessInfo.processInfo.environment["PORTER_UPDATE_WRITER_GOLDENS"] == "1" {
            try Data(bytes).write(to: golden)
        }
        #expect(bytes.count % 4096 == 0)
        #expect(bytes == [UInt8](try Data(contentsOf: golden)))
        #expect(bytes != (try Self.write("links")))
    }

    @Test func encryptionKeyMustHave64Bytes() throws {
        #expect(throws: PorterError.self) { try Self.write("links", encryptionKey: [1, 2, 3]) }
    }

    @Test func sameInputSameBytes() throws {
        #expect(try Self.write("links") == Self.write("links"))
        #expect(try Self.write("collections") == Self.write("collections"))
    }
}
