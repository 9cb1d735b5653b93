import Foundation
import PorterTestSupport
import PorterModel
@testable import PorterRealmFile

/// Paths of the committed fixtures.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let realm = root.appendingPathComponent("Fixtures/realm")
    /// A real Realm file of another project, from `../shared/realm-files`.
    static func shared(_ name: String) -> String { SharedRealmFiles.path(name) }
    static func own(_ name: String) -> String { realm.appendingPathComponent(name).path }

    static func json(_ path: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The key of `dev-encrypted-realm-docs.realm`: bytes 0x00…0x3f.
    static let devKey: [UInt8] = (0..<64).map { UInt8($0) }
    /// The key of `core-encrypted-4k-page.realm`.
    static let coreKey: [UInt8] = Array("1234567890123456789012345678901123456789012345678901234567890123".utf8)

    /// Compares the reader's dump of `realmPath` with `expectedPath` as documents; returns the
    /// differing normalized texts (nil when equal).
    static func compareDump(_ realmPath: String, _ expectedPath: String, key: [UInt8]? = nil) throws -> (
        String, String
    )? {
        let file = try RealmFile(path: realmPath, encryptionKey: key)
        let mine = DumpCompare.normalizeDump(try OracleDump(file: file).document())
        let expected = DumpCompare.normalizeDump(try json(expectedPath))
        return mine == expected ? nil : (mine.serialized(pretty: true), expected.serialized(pretty: true))
    }
}
