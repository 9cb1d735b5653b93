import Foundation
import PorterModel

/// The file being written: nodes are appended (8-aligned), each one's offset is its ref.
/// Owns the file descriptor; buffered so that many small nodes cost few system calls.
final class WriterOutput {
    private let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    /// Bytes written so far (flushed or buffered) = the ref of the next node.
    private(set) var position: Int64 = 0
    private static let flushThreshold = 1 << 20

    /// Creates (exclusively) the file at `path`.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw PorterError(.io, "cannot create file: \(String(cString: strerror(errno)))", location: path)
        }
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

    /// Writes the buffer out.
    func flush() throws {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw PorterError(.io, "cannot write: \(String(cString: strerror(errno)))", location: path)
            }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Overwrites bytes already flushed (the file header).
    func overwrite(at offset: Int64, _ bytes: [UInt8]) throws {
        try flush()
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(offset)) }
        guard n == bytes.count else {
            throw PorterError(.io, "cannot write: \(String(cString: strerror(errno)))", location: path)
        }
    }

    /// Flushes and forces the data to disk.
    func sync() throws {
        try flush()
        guard fsync(fd) == 0 else {
            throw PorterError(.io, "cannot sync: \(String(cString: strerror(errno)))", location: path)
        }
    }
}
