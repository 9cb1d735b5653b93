import PorterCCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decrypts a Realm-encrypted file (realm-core `util/encrypted_file_mapping.cpp` 56-160, 370-374,
/// 472-650): blocks of one 4096-byte metadata page (64 × `{u32 iv1; u8 hmac1[28]; u32 iv2; u8 hmac2[28]}`)
/// followed by up to 64 data pages. Page i is HMAC-SHA224(key[32..<64], ciphertext)-checked against
/// hmac1 (or hmac2, then iv2: an interrupted write), then AES-256-CBC decrypted without padding
/// with IV = iv ‖ (i·4096 as u64 LE) ‖ 0. iv1 = 0 marks a page never written (zeros).
enum PageDecryptor {
    static let pageSize = 4096
    static let pagesPerBlock = 64

    /// The plaintext, mapped read-only from an anonymous in-memory file (``PlainPages``).
    struct Plain {
        let pointer: UnsafeMutableRawPointer
        let length: Int
    }

    /// Decrypts every page into an anonymous in-memory file and maps it; nil when a page fails
    /// its HMAC (wrong key or corrupt file) or the layout is impossible.
    static func decryptToTemporaryFile(_ base: UnsafeRawPointer, size: Int, key: [UInt8]) throws -> Plain? {
        guard size % pageSize == 0, size >= 2 * pageSize else { return nil }
        let totalPages = size / pageSize
        let blocks = (totalPages + pagesPerBlock) / (pagesPerBlock + 1)
        let dataPages = totalPages - blocks
        guard dataPages > 0 else { return nil }
        let fd = try PlainPages.anonymousFile()
        defer { close(fd) }
        guard let cipher = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(cipher) }
        let aesKey = Array(key[0..<32]), macKey = Array(key[32..<64])
        var plain = [UInt8](repeating: 0, count: pageSize)
        var mac = [UInt8](repeating: 0, count: 64)
        for page in 0..<dataPages {
            let block = page / pagesPerBlock, slot = page % pagesPerBlock
            let metaOffset = block * (pagesPerBlock + 1) * pageSize + slot * 64
            let dataOffset = block * (pagesPerBlock + 1) * pageSize + pageSize + slot * pageSize
            let iv1 = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: metaOffset, as: UInt32.self))
            if iv1 == 0 {
                _ = plain.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            } else {
                let data = UnsafeRawBufferPointer(start: base + dataOffset, count: pageSize)
                var macLength: UInt32 = 0
                let ok = macKey.withUnsafeBytes { k in
                    mac.withUnsafeMutableBytes { m in
                        HMAC(
                            EVP_sha224(), k.baseAddress, 32, data.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            pageSize,
                            m.baseAddress!.assumingMemoryBound(to: UInt8.self), &macLength) != nil
                    }
                }
                guard ok, macLength == 28 else { return nil }
                let iv: UInt32
                if memcmp(mac, base + metaOffset + 4, 28) == 0 {
                    iv = iv1
                } else if memcmp(mac, base + metaOffset + 36, 28) == 0 {
                    iv = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: metaOffset + 32, as: UInt32.self))
                } else {
                    return nil
                }
                var ivBytes = [UInt8](repeating: 0, count: 16)
                withUnsafeBytes(of: iv.littleEndian) { for i in 0..<4 { ivBytes[i] = $0[i] } }
                withUnsafeBytes(of: UInt64(page * pageSize).littleEndian) { for i in 0..<8 { ivBytes[4 + i] = $0[i] } }
                var outLength: Int32 = 0
                let decrypted = aesKey.withUnsafeBufferPointer { k in
                    ivBytes.withUnsafeBufferPointer { v in
                        plain.withUnsafeMutableBufferPointer { p in
                            EVP_DecryptInit_ex(cipher, EVP_aes_256_cbc(), nil, k.baseAddress, v.baseAddress) == 1
                                && EVP_CIPHER_CTX_set_padding(cipher, 0) == 1
                                && EVP_DecryptUpdate(
                                    cipher, p.baseAddress, &outLength,
                                    data.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(pageSize)) == 1
                        }
                    }
                }
                guard decrypted, outLength == Int32(pageSize) else { return nil }
            }
            let written = plain.withUnsafeBytes { pwrite(fd, $0.baseAddress, pageSize, off_t(page * pageSize)) }
            guard written == pageSize else { throw CocoaError(.fileWriteOutOfSpace) }
        }
        let length = dataPages * pageSize
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw CocoaError(.fileReadUnknown)
        }
        return Plain(pointer: mapped, length: length)
    }
}
