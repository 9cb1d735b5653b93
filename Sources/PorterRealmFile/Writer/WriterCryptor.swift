import PorterCCrypto
import PorterModel

/// realm-core's page encryption (core `util/encrypted_file_mapping.cpp`): the decrypted file is cut
/// into 4096-byte pages; each is AES-256-CBC encrypted (no padding) with the IV
/// `iv1 (u32 LE) ‖ page position (u64 LE) ‖ 0 (u32)` and authenticated by HMAC-SHA224 of the
/// ciphertext. Physically, every 64 data pages are preceded by a metadata page of 64 IV tables
/// `{u32 iv1; u8 hmac1[28]; u32 iv2; u8 hmac2[28]}`. Key: bytes 0–31 AES, 32–63 HMAC.
final class WriterCryptor {
    static let pageSize = 4096
    static let pagesPerMetadataPage = 64

    private let aesKey: [UInt8]
    private let hmacKey: [UInt8]
    private let context: OpaquePointer

    init(key: [UInt8]) throws {
        precondition(key.count == 64)
        aesKey = Array(key[0..<32])
        hmacKey = Array(key[32..<64])
        guard let ctx = EVP_CIPHER_CTX_new() else { throw PorterError(.io, "cannot create a cipher context") }
        context = ctx
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// Physical offset of data page `index` (after its metadata page and earlier pages).
    static func physicalOffset(ofPage index: Int) -> Int64 {
        Int64((index / pagesPerMetadataPage + 1 + index) * pageSize)
    }

    /// Physical offset of the metadata page covering data pages `64 * block ..< 64 * (block + 1)`.
    static func physicalOffset(ofMetadataPage block: Int) -> Int64 {
        Int64(block * (pagesPerMetadataPage + 1) * pageSize)
    }

    /// Encrypts plaintext page `index` (4096 bytes); returns the ciphertext and its 64-byte IV table entry.
    func encrypt(page: UnsafeRawBufferPointer, index: Int) throws -> (cipher: [UInt8], ivTable: [UInt8]) {
        precondition(page.count == Self.pageSize)
        let iv1: UInt32 = 1  // first version of the page (0 means "never written")
        var iv = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: iv1.littleEndian) { iv.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: UInt64(index * Self.pageSize).littleEndian) { iv.replaceSubrange(4..<12, with: $0) }
        var cipher = [UInt8](repeating: 0, count: Self.pageSize)
        var outLength: Int32 = 0
        let ok = cipher.withUnsafeMutableBufferPointer { out in
            EVP_EncryptInit_ex(context, EVP_aes_256_cbc(), nil, aesKey, iv) == 1
                && EVP_CIPHER_CTX_set_padding(context, 0) == 1
                && EVP_EncryptUpdate(
                    context, out.baseAddress, &outLength, page.bindMemory(to: UInt8.self).baseAddress,
                    Int32(Self.pageSize)) == 1
                && outLength == Int32(Self.pageSize)
        }
        guard ok else { throw PorterError(.io, "encryption failed (OpenSSL)") }
        var mac = [UInt8](repeating: 0, count: 32)
        var macLength: UInt32 = 0
        guard HMAC(EVP_sha224(), hmacKey, Int32(hmacKey.count), cipher, cipher.count, &mac, &macLength) != nil,
            macLength == 28
        else {
            throw PorterError(.io, "HMAC failed (OpenSSL)")
        }
        var entry = [UInt8]()
        entry.reserveCapacity(64)
        withUnsafeBytes(of: iv1.littleEndian) { entry.append(contentsOf: $0) }
        entry.append(contentsOf: mac[0..<28])
        entry.append(contentsOf: [UInt8](repeating: 0, count: 32))  // iv2/hmac2: no earlier version
        return (cipher, entry)
    }
}
