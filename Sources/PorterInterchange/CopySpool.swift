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

    /// Ends a row; a full buffer goes to the stream (``stream(to:_:)``) or the spool file.
    func endRow() throws {
        buffer.append(0x0A)
        rows += 1
        guard buffer.count >= Self.bufferSize else { return }
        if let sink {
            try buffer.withUnsafeBytes { try sink($0) }
            buffer.removeAll(keepingCapacity: true)
        } else if writeFD >= 0 {
            spill()
        }
    }

    /// Where rows go as they are written while ``stream(to:_:)`` runs.
    private var sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// Whether the rows went to a stream rather than this spool.
    private(set) var streamed = false

    /// Runs `body` with every row it writes handed to `send` in chunks as the buffer fills (and
    /// the rest at the end), instead of being kept: a table sent while its objects are read.
    func stream(to send: @escaping (UnsafeRawBufferPointer) throws -> Void, _ body: () throws -> Void) throws {
        precondition(spilled == 0 && buffer.isEmpty, "a spool streams from its first row")
        sink = send
        streamed = true
        defer { sink = nil }
        try body()
        try buffer.withUnsafeBytes { try send($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Text, escaped; U+0000 (which PostgreSQL text cannot hold) as `\000`, and then returns true.
    @discardableResult
    func text(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            // Most text holds nothing to escape: one append (a byte-by-byte append to the
            // buffer, an exclusive access each, was a fifth of a load's time).
            guard bytes.contains(where: Self.needsEscape) else {
                buffer.append(contentsOf: bytes)
                return false
            }
            return Self.appendEscaped(bytes, to: &buffer)
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == 0x5C || byte <= 0x0D && (byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x00)
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        var nul = false
        for byte in bytes {
            switch byte {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, 0x74]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x00:
                out += [0x5C, 0x30, 0x30, 0x30]
                nul = true
            default: out.append(byte)
            }
        }
        return nul
    }

    /// ASCII text that needs no escape (digits, `t`/`f`, a timestamp's punctuation).
    func ascii(_ bytes: StaticString) {
        bytes.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// An integer in decimal, at least `width` digits (zero-padded after any sign).
    func int(_ value: Int64, width: Int = 1) {
        Self.appendDecimal(value, width: width, to: &buffer)
    }

    private static func appendDecimal(_ value: Int64, width: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            for _ in 0..<max(0, width - (20 - start)) { out.append(0x30) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// A date as `timestamptz` text (`2020-09-13 12:26:40.000000+00`, ` BC` for years before 1):
    /// UTC, to the microsecond.
    func timestamp(_ parts: PostgresText.TimestampParts) {
        // PostgreSQL has no year 0: astronomical year 0 is 1 BC.
        int(parts.year <= 0 ? 1 - parts.year : parts.year, width: 4)
        ascii("-")
        int(parts.month, width: 2)
        ascii("-")
        int(parts.day, width: 2)
        ascii(" ")
        int(parts.hour, width: 2)
        ascii(":")
        int(parts.minute, width: 2)
        ascii(":")
        int(parts.second, width: 2)
        ascii(".")
        int(parts.microseconds, width: 6)
        ascii("+00")
        if parts.year <= 0 { ascii(" BC") }
    }

    /// An ObjectId as 24 lowercase hexadecimal digits.
    func objectId(_ id: ObjectId) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { raw in
            id.copyBytes(to: UnsafeMutableRawPointer(raw.baseAddress!))
            Self.appendHex(raw, to: &buffer)
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
