import Foundation
import PorterModel

/// The file being written: nodes are appended (8-aligned), each one's offset is its ref.
/// Owns the file descriptor; buffered so that many small nodes cost few system calls. With a
/// cryptor, full 4096-byte pages are encrypted as they fill (page 0, which gets the header last,
/// is kept until `finish`), and the IV tables are written at the end: no plaintext reaches the disk.
final class WriterOutput {
    private let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    /// Bytes written so far (flushed or buffered) = the ref of the next node.
    private(set) var position: Int64 = 0
    private static let flushThreshold = 1 << 20

    private let cryptor: WriterCryptor?
    private var firstPage: [UInt8]?
    private var pagesWritten = 0
    private var ivTables: [UInt8] = []

    /// Creates (exclusively) the file at `path`; `encryptionKey` (64 bytes) encrypts it as realm-core does.
    convenience init(path: String, encryptionKey: [UInt8]? = nil) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw PorterError(.io, "cannot create file: \(String(cString: strerror(errno)))", location: path)
        }
        try self.init(path: path, fd: fd, encryptionKey: encryptionKey)
    }

    /// Writes through `fd`, a new empty file at `path` open for writing, which it then owns (and closes).
    init(path: String, fd: Int32, encryptionKey: [UInt8]? = nil) throws {
        self.path = path
        self.fd = fd
        cryptor = encryptionKey.map { WriterCryptor(key: $0) }
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    deinit { close(fd) }

    /// Appends raw bytes (callers keep 8-byte alignment) and returns their offset.
    @discardableResult
    func append(_ bytes: [UInt8]) throws -> Int64 {
        let ref = position
        buffer.append(contentsOf: bytes)
        position += Int64(bytes.count)
        if buffer.count >= Self.flushThreshold { try flush() }
        return ref
    }

    /// Appends bytes from memory (a node copied from another file) and returns their offset.
    @discardableResult
    func append(raw bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let ref = position
        buffer.append(contentsOf: bytes)
        position += Int64(bytes.count)
        if buffer.count >= Self.flushThreshold { try flush() }
        return ref
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64?) throws {
        var done = 0
        while done < bytes.count {
            let n =
                offset.map { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t($0) + off_t(done)) }
                ?? Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw PorterError(.io, "cannot write: \(String(cString: strerror(errno)))", location: path)
            }
            done += n
        }
    }

    /// Writes the buffer out (with encryption: the full pages in it).
    private func flush() throws {
        guard let cryptor else {
            try buffer.withUnsafeBytes { try writeAll($0, at: nil) }
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let size = WriterCryptor.pageSize
        var start = 0
        while buffer.count - start >= size {
            let page = buffer[start..<start + size]
            if pagesWritten == 0 {
                firstPage = Array(page)
                ivTables.append(contentsOf: [UInt8](repeating: 0, count: 64))
            } else {
                let (cipher, entry) = try page.withUnsafeBytes { try cryptor.encrypt(page: $0, index: pagesWritten) }
                try cipher.withUnsafeBytes { try writeAll($0, at: WriterCryptor.physicalOffset(ofPage: pagesWritten)) }
                ivTables.append(contentsOf: entry)
            }
            pagesWritten += 1
            start += size
        }
        buffer.removeFirst(start)
    }

    /// Overwrites bytes at the start of the file (the header).
    func overwrite(at offset: Int64, _ bytes: [UInt8]) throws {
        if cryptor != nil {
            let range = Int(offset)..<Int(offset) + bytes.count
            if firstPage != nil {
                firstPage!.replaceSubrange(range, with: bytes)
            } else {
                buffer.replaceSubrange(range, with: bytes)
            }
            return
        }
        try flush()
        try bytes.withUnsafeBytes { try writeAll($0, at: offset) }
    }

    /// Writes everything out (encrypted: pads to whole pages, writes page 0 and the IV tables)
    /// and forces the data to disk.
    func sync() throws {
        if let cryptor {
            let size = WriterCryptor.pageSize
            if buffer.count % size != 0 {
                buffer.append(contentsOf: [UInt8](repeating: 0, count: size - buffer.count % size))
            }
            try flush()
            let (cipher, entry) = try firstPage!.withUnsafeBytes { try cryptor.encrypt(page: $0, index: 0) }
            try cipher.withUnsafeBytes { try writeAll($0, at: WriterCryptor.physicalOffset(ofPage: 0)) }
            ivTables.replaceSubrange(0..<64, with: entry)
            var block = 0
            while block * WriterCryptor.pagesPerMetadataPage < pagesWritten {
                let perPage = WriterCryptor.pagesPerMetadataPage * 64
                var page = Array(ivTables[block * perPage..<min((block + 1) * perPage, ivTables.count)])
                page.append(contentsOf: [UInt8](repeating: 0, count: size - page.count))
                try page.withUnsafeBytes { try writeAll($0, at: WriterCryptor.physicalOffset(ofMetadataPage: block)) }
                block += 1
            }
        } else {
            try flush()
        }
        guard fsync(fd) == 0 else {
            throw PorterError(.io, "cannot sync: \(String(cString: strerror(errno)))", location: path)
        }
    }
}
