import Foundation
import PorterModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decrypts a Realm-encrypted file (realm-core `util/encrypted_file_mapping.cpp` 56-160, 370-374,
/// 472-650): blocks of one 4096-byte metadata page (64 × `{u32 iv1; u8 hmac1[28]; u32 iv2; u8 hmac2[28]}`)
/// followed by up to 64 data pages. Page i is HMAC-SHA224(key[32..<64], ciphertext)-checked against
/// hmac1 (or hmac2, then iv2: an interrupted write), then AES-256-CBC decrypted without padding
/// with IV = iv ‖ (i·4096 as u64 LE) ‖ 0 (``PageCipher``). iv1 = 0 marks a page never written (zeros).
enum PageDecryptor {
    static let pageSize = 4096
    static let pagesPerBlock = 64

    /// The plaintext, in anonymous memory made read-only once written.
    struct Plain {
        let pointer: UnsafeMutableRawPointer
        let length: Int
    }

    /// Decrypts every page into anonymous memory (`mmap` of no file: nothing decrypted reaches a
    /// disk or a folder, and it works alike on Linux, Android and Apple platforms); nil when a
    /// page fails its HMAC (wrong key or corrupt file) or the layout is impossible.
    static func decrypt(_ base: UnsafeRawPointer, size: Int, key: [UInt8]) throws -> Plain? {
        guard size % pageSize == 0, size >= 2 * pageSize else { return nil }
        let totalPages = size / pageSize
        let blocks = (totalPages + pagesPerBlock) / (pagesPerBlock + 1)
        let dataPages = totalPages - blocks
        guard dataPages > 0 else { return nil }
        let length = dataPages * pageSize
        #if canImport(Darwin)
        let anonymous = MAP_ANON | MAP_PRIVATE
        #else
        let anonymous = MAP_ANONYMOUS | MAP_PRIVATE
        #endif
        guard let region = mmap(nil, length, PROT_READ | PROT_WRITE, anonymous, -1, 0), region != MAP_FAILED else {
            throw PorterError(
                .io,
                "cannot reserve \(length) bytes of memory for the decrypted pages: \(String(cString: strerror(errno)))")
        }
        var complete = false
        defer { if !complete { munmap(region, length) } }
        let cipher = PageCipher(key: key)
        for page in 0..<dataPages {
            let block = page / pagesPerBlock, slot = page % pagesPerBlock
            let metaOffset = block * (pagesPerBlock + 1) * pageSize + slot * 64
            let dataOffset = block * (pagesPerBlock + 1) * pageSize + pageSize + slot * pageSize
            let iv1 = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: metaOffset, as: UInt32.self))
            // iv1 = 0: a page never written, left as the zeros anonymous memory starts with.
            guard iv1 != 0 else { continue }
            let data = UnsafeRawBufferPointer(start: base + dataOffset, count: pageSize)
            let mac = cipher.authenticationCode(of: data)
            let iv: UInt32
            if memcmp(mac, base + metaOffset + 4, 28) == 0 {
                iv = iv1
            } else if memcmp(mac, base + metaOffset + 36, 28) == 0 {
                iv = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: metaOffset + 32, as: UInt32.self))
            } else {
                return nil
            }
            let plain = UnsafeMutableRawBufferPointer(start: region + page * pageSize, count: pageSize)
            do {
                try cipher.decrypt(data, iv: PageCipher.iv(iv, page: page), into: plain)
            } catch {
                return nil
            }
        }
        guard mprotect(region, length, PROT_READ) == 0 else {
            throw PorterError(.io, "cannot protect the decrypted pages: \(String(cString: strerror(errno)))")
        }
        complete = true
        return Plain(pointer: region, length: length)
    }
}
