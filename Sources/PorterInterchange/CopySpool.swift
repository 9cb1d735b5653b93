import Foundation
import PorterModel

/// One table's rows as PostgreSQL `COPY` text, written once and read back once: a file unlinked
/// as soon as it is made (so no crash leaves it behind) behind a 64 KiB buffer, or memory alone.
final class CopySpool {
    private let writeFD: Int32
    private let readFD: Int32
    private var buffer: [UInt8] = []
    /// Bytes already in the file.
    private var spilled = 0
    /// Rows written.
    private(set) var rows = 0
    private static let bufferSize = 1 << 16

    private init(writeFD: Int32, readFD: Int32) {
        self.writeFD = writeFD
        self.readFD = readFD
        buffer.reserveCapacity(Self.bufferSize + 256)
    }

    /// A spool of a few rows, kept in memory.
    static func memory() -> CopySpool { CopySpool(writeFD: -1, readFD: -1) }

    /// A spool file in the folder of `path`.
    convenience init(beside path: String) throws {
        let (temporary, fd) = try TemporaryFiles.makeFile(beside: path)
        let reader = open(temporary, O_RDONLY | O_CLOEXEC)
        let why = String(cString: strerror(errno))
        unlink(temporary)
        TemporaryFiles.unregister(temporary)
        guard reader >= 0 else {
            close(fd)
            throw PorterError(.io, "cannot open a spool file: \(why)", location: temporary)
        }
        self.init(writeFD: fd, readFD: reader)
    }

    deinit {
        if writeFD >= 0 { close(writeFD) }
        if readFD >= 0 { close(readFD) }
    }

    // MARK: Writing

    /// `\N`.
    func null() { buffer += [0x5C, 0x4E] }

    /// The field separator.
    func tab() { buffer.append(0x09) }

    /// Ends a row.
    func endRow() {
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= Self.bufferSize && writeFD >= 0 { spill() }
    }

    /// Text, escaped; U+0000 (which PostgreSQL text cannot hold) as `\000`, and then returns true.
    @discardableResult
    func text(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            var nul = false
            for byte in bytes {
                switch byte {
                case 0x5C: buffer += [0x5C, 0x5C]
                case 0x09: buffer += [0x5C, 0x74]
                case 0x0A: buffer += [0x5C, 0x6E]
                case 0x0D: buffer += [0x5C, 0x72]
                case 0x00:
                    buffer += [0x5C, 0x30, 0x30, 0x30]
                    nul = true
                default: buffer.append(byte)
                }
            }
            return nul
        }
    }

    /// `bytea` in hex form: `\x` (its backslash escaped) and two hex digits a byte.
    func bytea(_ data: Data) {
        buffer += [0x5C, 0x5C, 0x78]
        Self.appendHex(data, to: &buffer)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendHex<Bytes: Sequence>(_ bytes: Bytes, to out: inout [UInt8]) where Bytes.Element == UInt8 {
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 15)])
        }
    }

    private func spill() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = pwrite(writeFD, raw.baseAddress! + offset, raw.count - offset, off_t(spilled + offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = PorterError(
                        .io,
                        "cannot write a spool file: \(errno == ENOSPC ? "disk full" : String(cString: strerror(errno)))"
                    )
                    return
                }
                offset += n
            }
        }
        spilled += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// The first write failure (reported when the spool is read).
    private var failure: PorterError?

    // MARK: Reading

    /// Hands the rows to `body` in chunks of at most 1 MiB; with `bytea` field positions, those
    /// fields (written as text) are re-encoded as the hex `bytea` of their UTF-8 bytes.
    func forEachChunk(bytea: Set<Int> = [], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let failure { throw failure }
        let transcoder = bytea.isEmpty ? nil : ByteaTranscoder(fields: bytea)
        func deliver(_ chunk: UnsafeRawBufferPointer) throws {
            guard let transcoder else { return try body(chunk) }
            try transcoder.feed(chunk, body)
        }
        if spilled > 0 {
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            var offset = 0
            while offset < spilled {
                let n = chunk.withUnsafeMutableBytes {
                    pread(readFD, $0.baseAddress, min($0.count, spilled - offset), off_t(offset))
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw PorterError(.io, "cannot read a spool file: \(String(cString: strerror(errno)))")
                }
                if n == 0 { throw PorterError(.io, "a spool file ended early") }
                try chunk.withUnsafeBytes { try deliver(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                offset += n
            }
        }
        try buffer.withUnsafeBytes { try deliver($0) }
    }

    /// Re-encodes some fields of whole rows, fed in chunks, as `bytea` hex.
    private final class ByteaTranscoder {
        let fields: Set<Int>
        var line: [UInt8] = []
        init(fields: Set<Int>) { self.fields = fields }

        func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            var out: [UInt8] = []
            for byte in chunk {
                if byte == 0x0A {
                    out += transcode(line)
                    out.append(0x0A)
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(byte)
                }
            }
            try out.withUnsafeBytes { try body($0) }
        }

        private func transcode(_ row: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            for (index, field) in row.split(separator: 0x09, omittingEmptySubsequences: false).enumerated() {
                if index > 0 { out.append(0x09) }
                guard fields.contains(index), !field.elementsEqual([0x5C, 0x4E]) else {
                    out += field
                    continue
                }
                out += [0x5C, 0x5C, 0x78]
                CopySpool.appendHex(Self.unescape(field), to: &out)
            }
            return out
        }

        /// The bytes of an escaped text field (the escapes ``CopySpool/text(_:)`` writes).
        static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] {
            var bytes: [UInt8] = []
            var i = field.startIndex
            while i < field.endIndex {
                let byte = field[i]
                i += 1
                guard byte == 0x5C, i < field.endIndex else {
                    bytes.append(byte)
                    continue
                }
                let next = field[i]
                i += 1
                switch next {
                case 0x74: bytes.append(0x09)
                case 0x6E: bytes.append(0x0A)
                case 0x72: bytes.append(0x0D)
                case 0x30:
                    // `\000`: two more digits.
                    i = min(i + 2, field.endIndex)
                    bytes.append(0)
                default: bytes.append(next)
                }
            }
            return bytes
        }
    }
}
