import Crypto
import Foundation
import PorterModel
import _CryptoExtras

/// realm-core's page cipher (core `util/aes_cryptor.hpp`, `encrypted_file_mapping.cpp`): every
/// 4096-byte page is AES-256-CBC without padding under the first half of the 64-byte key, and
/// authenticated by HMAC-SHA224 of its ciphertext under the second half.
///
/// AES comes from swift-crypto (BoringSSL compiled into the package on Linux and Android,
/// CommonCrypto on Apple platforms) and HMAC-SHA224 is written here, because swift-crypto has no
/// SHA-224: together they keep the reader free of system libraries, so an app can embed it
/// (issue #38), where linking the system's libcrypto is not possible.
struct PageCipher {
    static let pageSize = 4096

    private let aesKey: SymmetricKey
    private let mac: HMACSHA224

    /// - Parameter key: the 64-byte Realm encryption key (bytes 0–31 AES, 32–63 HMAC).
    init(key: [UInt8]) {
        precondition(key.count == 64, "a Realm encryption key has 64 bytes")
        aesKey = SymmetricKey(data: key[0..<32])
        mac = HMACSHA224(key: key[32..<64])
    }

    /// The IV realm-core uses for a page: `iv (u32 LE) ‖ page position in the plaintext (u64 LE) ‖ 0 (u32)`.
    static func iv(_ iv: UInt32, page: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: iv.littleEndian) { for i in 0..<4 { bytes[i] = $0[i] } }
        withUnsafeBytes(of: UInt64(page * pageSize).littleEndian) { for i in 0..<8 { bytes[4 + i] = $0[i] } }
        return bytes
    }

    /// HMAC-SHA224 of a page's ciphertext (28 bytes).
    func authenticationCode(of ciphertext: UnsafeRawBufferPointer) -> [UInt8] {
        mac.authenticationCode(for: ciphertext)
    }

    /// Decrypts one page of ciphertext into `plaintext` (both `pageSize` bytes).
    /// - Throws: swift-crypto's error when the key or sizes are impossible.
    func decrypt(_ ciphertext: UnsafeRawBufferPointer, iv: [UInt8], into plaintext: UnsafeMutableRawBufferPointer)
        throws
    {
        precondition(ciphertext.count == Self.pageSize && plaintext.count == Self.pageSize)
        let plain = try AES._CBC.decrypt(ciphertext, using: aesKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        guard plain.count == Self.pageSize else { throw CryptoKitError.incorrectParameterSize }
        plain.copyBytes(to: plaintext.bindMemory(to: UInt8.self), count: Self.pageSize)
    }

    /// Encrypts one page of plaintext (`pageSize` bytes).
    func encrypt(_ plaintext: UnsafeRawBufferPointer, iv: [UInt8]) throws -> [UInt8] {
        precondition(plaintext.count == Self.pageSize)
        let cipher = try AES._CBC.encrypt(plaintext, using: aesKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        guard cipher.count == Self.pageSize else { throw CryptoKitError.incorrectParameterSize }
        return [UInt8](cipher)
    }
}

/// HMAC (RFC 2104) over SHA-224 (FIPS 180-4: SHA-256's compression with its own initial values,
/// the digest cut to 28 bytes). The key's inner and outer blocks are compressed once, at init, so
/// a page costs only the compressions of its own 64 blocks and the two final ones.
struct HMACSHA224 {
    private let inner: SHA2State
    private let outer: SHA2State

    init(key: some Collection<UInt8>) {
        var block = [UInt8](repeating: 0, count: 64)
        if key.count > 64 {
            let digest =
                key.withContiguousStorageIfAvailable {
                    SHA2State.sha224.finish(UnsafeRawBufferPointer($0), alreadyHashed: 0, words: 7)
                }
                ?? Array(key).withUnsafeBytes { SHA2State.sha224.finish($0, alreadyHashed: 0, words: 7) }
            block.replaceSubrange(0..<digest.count, with: digest)
        } else {
            block.replaceSubrange(0..<key.count, with: key)
        }
        var inner = SHA2State.sha224, outer = SHA2State.sha224
        inner.compress(block.map { $0 ^ 0x36 })
        outer.compress(block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The 28-byte code of `message`.
    func authenticationCode(for message: UnsafeRawBufferPointer) -> [UInt8] {
        let innerDigest = inner.finish(message, alreadyHashed: 64, words: 7)
        return innerDigest.withUnsafeBytes { outer.finish($0, alreadyHashed: 64, words: 7) }
    }
}
