import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PorterModel

/// A buffered byte writer over a file descriptor or memory; every failure is a ``PorterError``
/// naming the destination (disk full, closed pipe, …), never a crash.
package final class ByteOutput {
    /// Where the bytes go, for messages (`Person.bson`, `-` for stdout).
    package let name: String
    private let fd: Int32
    private let closeWhenDone: Bool
    // Unchecked: appended to for every document, never accessed reentrantly.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private var memory: [UInt8]?
    /// Compresses the bytes into another output instead of writing them to `fd` (`--gzip`).
    private var deflater: GzipDeflater?
    private static let flushThreshold = 1 << 20
    /// When set, every byte written afterwards is added to it (the archive's per-collection CRC).
    package var checksum: CRC64?

    /// Writes to `fd`; closes it in ``close()`` when `closeWhenDone`.
    package init(fileDescriptor fd: Int32, name: String, closeWhenDone: Bool) {
        self.fd = fd
        self.name = name
        self.closeWhenDone = closeWhenDone
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Collects the bytes in memory (read them with ``collected``).
    package init(memoryNamed name: String) {
        fd = -1
        self.name = name
        closeWhenDone = false
        memory = []
    }

    /// Creates (or truncates) the file at `path` with mode 0644.
    package static func creatingFile(at path: String, name: String? = nil) throws -> ByteOutput {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw PorterError(.io, "cannot create file: \(String(cString: strerror(errno)))", location: name ?? path)
        }
        return ByteOutput(fileDescriptor: fd, name: name ?? path, closeWhenDone: true)
    }

    /// A new file beside `path` under a temporary name that a caught signal removes (see
    /// ``TemporaryFiles/makeFile(beside:sideFiles:)``), for output renamed into place once complete:
    /// unregister the path once renamed, or remove it with ``TemporaryFiles/remove(_:sideFiles:)``.
    package static func creatingTemporaryFile(beside path: String, name: String? = nil) throws
        -> (path: String, output: ByteOutput)
    {
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: path)
        return (temporary, ByteOutput(fileDescriptor: fd, name: name ?? path, closeWhenDone: true))
    }

    /// The process's standard output.
    package static func standardOutput() -> ByteOutput {
        ByteOutput(fileDescriptor: STDOUT_FILENO, name: "-", closeWhenDone: false)
    }

    /// Everything written so far, for a memory output (flushes first).
    package var collected: Data { Data(memory ?? []) + Data(buffer) }

    /// Gzip-compresses everything written into `destination`; ``close()`` finishes the gzip
    /// stream and closes `destination`.
    package init(gzipInto destination: ByteOutput) throws {
        fd = -1
        name = destination.name
        closeWhenDone = false
        deflater = try GzipDeflater(destination: destination)
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Appends bytes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        checksum?.update(bytes)
        if memory != nil {
            memory?.append(contentsOf: bytes)
            return
        }
        if buffer.count + bytes.count > Self.flushThreshold {
            try flush()
            if bytes.count > Self.flushThreshold { return try writeAll(bytes) }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends the UTF-8 of a string.
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the buffered bytes to the descriptor.
    package func flush() throws {
        guard memory == nil, !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs a file to disk and closes it when this output owns the descriptor.
    package func close() throws {
        try flush()
        if let deflater { return try deflater.finish() }
        guard closeWhenDone else { return }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
            let message = String(cString: strerror(errno))
            _ = posixClose(fd)
            throw PorterError(.io, "cannot write: \(message)", location: name)
        }
        if posixClose(fd) != 0 {
            throw PorterError(.io, "cannot write: \(String(cString: strerror(errno)))", location: name)
        }
    }

    /// Closes without reporting errors (after a failure elsewhere).
    package func abandon() {
        buffer.removeAll()
        deflater?.destination.abandon()
        if closeWhenDone { _ = posixClose(fd) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        if let deflater { return try deflater.compress(bytes) }
        guard var p = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let n = posixWrite(fd, p, remaining)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == ENOSPC ? "disk full" : String(cString: strerror(errno))
                throw PorterError(.io, "cannot write: \(reason)", location: name)
            }
            remaining -= n
            p += n
        }
    }
}

/// A byte reader over a file, standard input or memory, with look-ahead for format detection.
package final class ByteInput {
    /// The source as the user named it, for messages.
    package let name: String
    /// The total size when known (regular files and memory).
    package let size: Int64?
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var data: Data?
    private var dataOffset = 0
    private var pending: [UInt8] = []
    /// Decompresses another input instead of reading `fd` (a gzip file).
    private var inflater: GzipInflater?
    /// Bytes read from the file, memory or descriptor so far (for a gzip input: 0; its
    /// source counts the compressed bytes), for progress.
    package private(set) var bytesRead: Int64 = 0

    /// Opens a file for reading.
    package init(path: String, name: String? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PorterError(.io, "cannot open: \(String(cString: strerror(errno)))", location: name ?? path)
        }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            _ = posixClose(fd)
            throw PorterError(.io, "is a directory, not a file", location: name ?? path)
        }
        self.fd = fd
        self.name = name ?? path
        ownsDescriptor = true
        size = (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
    }

    /// Reads from memory.
    package init(data: Data, name: String) {
        fd = -1
        self.name = name
        ownsDescriptor = false
        self.data = data
        size = Int64(data.count)
    }

    /// The decompressed bytes of a gzip stream read from `source` (named like `source`).
    package init(gunzipping source: ByteInput) throws {
        fd = -1
        name = source.name
        ownsDescriptor = false
        size = nil
        inflater = try GzipInflater(source: source)
    }

    /// The process's standard input.
    package static func standardInput() -> ByteInput { ByteInput(fileDescriptor: STDIN_FILENO, name: "-") }

    /// Reads from an open descriptor (a pipe, a socket, stdin); the caller keeps ownership.
    package init(fileDescriptor: Int32, name: String) {
        fd = fileDescriptor
        self.name = name
        ownsDescriptor = false
        size = nil
    }

    deinit {
        if ownsDescriptor { _ = posixClose(fd) }
    }

    /// Reads up to `buffer.count` bytes; 0 means the end of the input.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if !pending.isEmpty {
            let n = min(pending.count, buffer.count)
            pending.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: n) }
            pending.removeFirst(n)
            return n
        }
        return try rawRead(base, buffer.count)
    }

    /// Reads from the underlying source, bypassing the look-ahead bytes.
    private func rawRead(_ base: UnsafeMutableRawPointer, _ count: Int) throws -> Int {
        if let inflater { return try inflater.read(into: base, count: count) }
        if let data {
            let n = min(data.count - dataOffset, count)
            guard n > 0 else { return 0 }
            data.withUnsafeBytes { src in
                base.copyMemory(from: src.baseAddress! + dataOffset, byteCount: n)
            }
            dataOffset += n
            bytesRead += Int64(n)
            return n
        }
        while true {
            let n = posixRead(fd, base, count)
            if n >= 0 {
                bytesRead += Int64(n)
                return n
            }
            if errno == EINTR { continue }
            throw PorterError(.io, "cannot read: \(String(cString: strerror(errno)))", location: name)
        }
    }

    /// The first bytes of the remaining input (up to `count`), without consuming them.
    package func peek(_ count: Int) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while pending.count < count {
            let want = min(4096, count - pending.count)
            let n = try chunk.withUnsafeMutableBytes { try rawRead($0.baseAddress!, want) }
            if n == 0 { break }
            pending.append(contentsOf: chunk[0..<n])
        }
        return Array(pending.prefix(count))
    }
}

// The system calls under their own names: inside the classes, `close`, `read` and `write`
// would resolve to the methods of the same names.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }
private func posixRead(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, p, n) }
