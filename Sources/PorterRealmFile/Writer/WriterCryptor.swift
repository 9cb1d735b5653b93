import PorterModel

/// realm-core's page encryption (core `util/encrypted_file_mapping.cpp`): the decrypted file is cut
/// into 4096-byte pages; each is AES-256-CBC encrypted (no padding) with the IV
/// `iv1 (u32 LE) ‖ page position (u64 LE) ‖ 0 (u32)` and authenticated by HMAC-SHA224 of the
/// ciphertext. Physically, every 64 data pages are preceded by a metadata page of 64 IV tables
/// `{u32 iv1; u8 hmac1[28]; u32 iv2; u8 hmac2[28]}`. Key: bytes 0–31 AES, 32–63 HMAC.
final class WriterCryptor {
    static let pageSize = 4096
    static let pagesPerMetadataPage = 64

    private let cipher: PageCipher

    init(key: [UInt8]) {
        cipher = PageCipher(key: key)
    }

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
        let encrypted = try cipher.encrypt(page, iv: PageCipher.iv(iv1, page: index))
        let mac = encrypted.withUnsafeBytes { cipher.authenticationCode(of: $0) }
        var entry = [UInt8]()
        entry.reserveCapacity(64)
        withUnsafeBytes(of: iv1.littleEndian) { entry.append(contentsOf: $0) }
        entry.append(contentsOf: mac[0..<28])
        entry.append(contentsOf: [UInt8](repeating: 0, count: 32))  // iv2/hmac2: no earlier version
        return (encrypted, entry)
    }
}
