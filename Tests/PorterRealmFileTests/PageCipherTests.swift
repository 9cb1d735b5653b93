import Foundation
import Testing

@testable import PorterModel
@testable import PorterRealmFile

/// The page cipher Porter carries itself (issue #38: no libcrypto in the embeddable reader):
/// SHA-224, SHA-256 and HMAC-SHA224 against the published test vectors and against Python's hashlib on
/// every length around the block boundaries, and AES-256-CBC pages round-tripped and decrypted
/// from files realm-core encrypted (Fixtures/realm/every-type-encrypted.realm).
@Suite struct PageCipherTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func sha224(_ text: String) -> String {
        hex(SHA2State.sha224(Array(text.utf8)))
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> String {
        hex(message.withUnsafeBytes { HMACSHA224(key: key).authenticationCode(for: $0) })
    }

    /// FIPS 180-4's examples (NIST's "SHA224.pdf") and the empty message.
    @Test func sha224MatchesTheStandardsExamples() {
        #expect(Self.sha224("abc") == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(Self.sha224("") == "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")
        #expect(
            Self.sha224("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
    }

    /// RFC 4231's HMAC-SHA-224 test cases 1, 2 and 6 (a key longer than a block is hashed first).
    @Test func hmacMatchesRFC4231() {
        #expect(
            Self.hmac(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8))
                == "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
        #expect(
            Self.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44")
        #expect(
            Self.hmac(
                key: [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e")
    }

    /// Every message length from 0 to 300 bytes (each padding case: the length field in the same
    /// block, in a block of its own, whole blocks) and a page, keyed as Realm keys its pages,
    /// against Python's hashlib and hmac modules.
    @Test func hmacMatchesPythonOnEveryLengthAroundTheBlocks() async throws {
        let key = (0..<32).map { UInt8(($0 * 7 + 3) & 0xff) }
        var lengths = Array(0...300)
        lengths.append(4096)
        let messages = lengths.map { n in (0..<n).map { UInt8(($0 * 31 + n) & 0xff) } }
        let script = """
            import sys, hmac, hashlib
            key = bytes.fromhex(sys.argv[1])
            for line in sys.stdin:
                m = bytes.fromhex(line.strip())
                print(hashlib.sha224(m).hexdigest(), hmac.new(key, m, hashlib.sha224).hexdigest(), hashlib.sha256(m).hexdigest())
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, Self.hex(key)]
        let input = Pipe(), output = Pipe()
        python.standardInput = input
        python.standardOutput = output
        try python.run()
        let reader = Task { output.fileHandleForReading.readDataToEndOfFile() }
        input.fileHandleForWriting.write(Data(messages.map { Self.hex($0) + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        python.waitUntilExit()
        let lines = String(decoding: await reader.value, as: UTF8.self).split(separator: "\n")
        try #require(python.terminationStatus == 0 && lines.count == messages.count)
        for (message, line) in zip(messages, lines) {
            let expected = line.split(separator: " ").map(String.init)
            let ours = SHA2State.sha224(message)
            #expect(Self.hex(ours) == expected[0], "SHA-224 of \(message.count) bytes")
            #expect(Self.hmac(key: key, message) == expected[1], "HMAC-SHA224 of \(message.count) bytes")
            #expect(Self.hex(SHA2State.sha256(message)) == expected[2], "SHA-256 of \(message.count) bytes")
        }
    }

    /// A page encrypted and authenticated as the writer does, then decrypted: the same bytes; a
    /// changed IV or key gives other bytes (CBC is keyed and chained, not a copy).
    @Test func pagesRoundTrip() throws {
        let key = (0..<64).map { UInt8($0) }
        let cipher = PageCipher(key: key)
        let page = (0..<PageCipher.pageSize).map { UInt8(($0 * 13) & 0xff) }
        let iv = PageCipher.iv(1, page: 3)
        let encrypted = try page.withUnsafeBytes { try cipher.encrypt($0, iv: iv) }
        #expect(encrypted != page)
        var plain = [UInt8](repeating: 0, count: PageCipher.pageSize)
        try encrypted.withUnsafeBytes { e in
            try plain.withUnsafeMutableBytes { try cipher.decrypt(e, iv: iv, into: $0) }
        }
        #expect(plain == page)
        try encrypted.withUnsafeBytes { e in
            try plain.withUnsafeMutableBytes { try cipher.decrypt(e, iv: PageCipher.iv(1, page: 4), into: $0) }
        }
        #expect(plain != page)
        try encrypted.withUnsafeBytes { e in
            try plain.withUnsafeMutableBytes {
                try PageCipher(key: key.reversed()).decrypt(e, iv: iv, into: $0)
            }
        }
        #expect(plain != page)
    }

    /// realm-core's own encrypted file (Fixtures/realm/every-type-encrypted.realm, key bytes
    /// 100…163) reads to its last object (its content against realm-core's dump is
    /// `OracleFixtureTests.encryptedEveryTypeMatches`); one changed bit of the HMAC half of the
    /// key refuses it.
    @Test func realmCoresEncryptedFixtureDecryptsAndAWrongKeyIsRefused() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/every-type-encrypted.realm").path
        let key = (100..<164).map { UInt8($0) }
        let file = try RealmFile(path: path, encryptionKey: key)
        #expect(file.isEncrypted)
        var objects = 0
        for table in file.tables { try file.forEachObject(in: table) { _ in objects += 1 } }
        #expect(objects > 0)
        var wrong = key
        wrong[40] ^= 1  // an HMAC-key byte: every page's HMAC fails
        let error = try #require(throws: PorterError.self) { try RealmFile(path: path, encryptionKey: wrong) }
        #expect(error.message.contains("wrong key"))
    }
}
