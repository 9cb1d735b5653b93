import Foundation
import PorterModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file's bytes, mapped read-only (`MAP_PRIVATE`, `PROT_READ`): nothing is ever written, locked
/// or created beside the file. An encrypted file is decrypted into anonymous memory
/// (``PageDecryptor``) that is read instead: nothing decrypted reaches a disk, and nothing is left
/// behind.
final class FileMapping: @unchecked Sendable {
    let mem: Mem
    /// The size of the file on disk (the encrypted size for encrypted files).
    let fileSize: Int
    let isEncrypted: Bool
    private let mapped: UnsafeMutableRawPointer?
    private let mappedLength: Int

    init(path: String, encryptionKey: [UInt8]?) throws {
        func refuse(_ message: String) -> PorterError { PorterError(.notADatabase, message, location: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PorterError(.io, "cannot open the file: \(String(cString: strerror(errno)))", location: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw PorterError(.io, "cannot read the file's size: \(String(cString: strerror(errno)))", location: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse("not a regular file") }
        let size = Int(info.st_size)
        fileSize = size
        guard size > 0 else { throw refuse("file is empty") }
        guard size >= 24 else {
            throw refuse("file is truncated: \(size) bytes, a Realm file has at least a 24-byte header")
        }
        let raw = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let raw, raw != MAP_FAILED else {
            throw PorterError(.io, "cannot map the file: \(String(cString: strerror(errno)))", location: path)
        }
        let plainHeader = FileHeader.hasMnemonic(UnsafeRawPointer(raw))
        if let key = encryptionKey {
            defer { munmap(raw, size) }
            guard key.count == 64 else {
                throw PorterError(
                    .usage, "the encryption key must be 64 bytes (128 hexadecimal digits), got \(key.count) bytes",
                    location: path)
            }
            if plainHeader && FileHeader.looksPlain(UnsafeRawPointer(raw), size: size) {
                throw refuse("the file is not encrypted: open it without an encryption key")
            }
            let plain: PageDecryptor.Plain?
            do {
                plain = try PageDecryptor.decrypt(UnsafeRawPointer(raw), size: size, key: key)
            } catch let error as PorterError {
                throw PorterError(error.code, error.message, location: path)
            }
            guard let plain else { throw refuse("decryption failed: wrong key, or the file is corrupt") }
            mapped = plain.pointer
            mappedLength = plain.length
            mem = Mem(base: UnsafeRawPointer(plain.pointer), size: plain.length)
            isEncrypted = true
            // Fully initialized from here on: a throw runs deinit, which unmaps the plaintext.
            guard FileHeader.hasMnemonic(mem.base) else {
                throw refuse("decryption failed: wrong key, or the file is corrupt")
            }
            return
        }
        mapped = raw
        mappedLength = size
        mem = Mem(base: UnsafeRawPointer(raw), size: size)
        isEncrypted = false
        guard size % 8 == 0 else {
            throw refuse("file size \(size) is not a multiple of 8: not a Realm file, or truncated")
        }
        if !plainHeader {
            if FileHeader.looksPlain(mem.base, size: size) {
                let got = (16..<20).map { String(format: "%02x", mem.base.load(fromByteOffset: $0, as: UInt8.self)) }
                    .joined(separator: " ")
                throw refuse("bad mnemonic: bytes 16-19 are \(got), expected \"T-DB\"; the file is damaged")
            }
            throw refuse("not a Porter or Realm file; if it is an encrypted Realm file, pass --encryption-key")
        }
    }

    /// Takes over `image`, a read-only mapping of an in-memory file standing for the file at
    /// `fileSize` bytes on disk (an old file's content in the current layout, `LegacyFile`).
    init(image: (pointer: UnsafeMutableRawPointer, length: Int), fileSize: Int, isEncrypted: Bool) {
        mapped = image.pointer
        mappedLength = image.length
        mem = Mem(base: UnsafeRawPointer(image.pointer), size: image.length)
        self.fileSize = fileSize
        self.isEncrypted = isEncrypted
    }

    /// Drops the mapping's resident pages (they are clean: re-reading faults them in from the
    /// page cache again), so a full scan of a large file does not stay resident. Not for the
    /// decrypted pages: they live in anonymous memory, where dropping a page loses it.
    func releaseResidentPages() {
        if let mapped, !isEncrypted { madvise(mapped, mappedLength, MADV_DONTNEED) }
    }

    deinit {
        if let mapped { munmap(mapped, mappedLength) }
    }
}
