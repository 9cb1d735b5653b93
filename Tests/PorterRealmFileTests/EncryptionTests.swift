import Foundation
import PorterTestSupport
import PorterModel
import Testing
@testable import PorterRealmFile

@Suite("Encrypted Realm files (AES-256-CBC + HMAC-SHA224 pages)")
struct EncryptionTests {
    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func decryptsAFormat24FileAndMatchesTheOracle() throws {
        let file = try RealmFile(path: Fixture.shared("dev-encrypted-realm-docs.realm"), encryptionKey: Fixture.devKey)
        #expect(file.isEncrypted)
        #expect(file.fileFormat == 24)
        #expect(file.fileSize == 36864)
        // The oracle reports "fileFormat": 0 for encrypted files (it cannot read the header); the
        // decrypted header says 24.
        var expected = try Fixture.json(Fixture.own("dev-encrypted-realm-docs.expected.json"))
        if case .object(var members) = expected, let i = members.firstIndex(where: { $0.key == "fileFormat" }) {
            members[i].value = .number(24)
            expected = .object(members)
        }
        let mine = DumpCompare.normalizeDump(try OracleDump(file: file).document())
        let want = DumpCompare.normalizeDump(expected)
        #expect(mine == want, "\(mine.serialized(pretty: true))")
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func wrongKeyIsRefused() throws {
        var key = Fixture.devKey
        key[63] ^= 1
        let error = try #require(throws: PorterError.self) {
            try RealmFile(path: Fixture.shared("dev-encrypted-realm-docs.realm"), encryptionKey: key)
        }
        #expect(error.code == .notADatabase)
        #expect(error.message == "decryption failed: wrong key, or the file is corrupt")
        #expect(error.location == Fixture.shared("dev-encrypted-realm-docs.realm"))
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func coreFileDecryptsToFormat9AndReads() throws {
        // realm-core's `Shared_DecryptExisting` (v5.23.8 `test_shared.cpp`): one string of 1.5 pages of 'a'.
        let file = try RealmFile(path: Fixture.shared("core-encrypted-4k-page.realm"), encryptionKey: Fixture.coreKey)
        #expect(file.fileFormat == 9)
        #expect(file.isEncrypted)
        let table = try #require(file.table(named: "table"))
        var values: [[RealmValue]] = []
        try file.forEachObject(in: table) { values.append($0.values) }
        #expect(values == [[.string(String(repeating: "a", count: 6144))]])
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)"))
    func encryptedFileWithoutKeyIsRefused() throws {
        for name in ["core-encrypted-4k-page.realm", "dev-encrypted-realm-docs.realm"] {
            let error = try #require(throws: PorterError.self) { try RealmFile(path: Fixture.shared(name)) }
            #expect(
                error.message == "not a Porter or Realm file; if it is an encrypted Realm file, pass --encryption-key")
        }
    }

    @Test(.enabled(if: SharedRealmFiles.available, "\(SharedRealmFiles.missing)")) func plainFileWithKeyIsRefused()
        throws
    {
        let error = try #require(throws: PorterError.self) {
            try RealmFile(path: Fixture.shared("js-simple.realm"), encryptionKey: Fixture.devKey)
        }
        #expect(error.message == "the file is not encrypted: open it without an encryption key")
    }
}
