import PorterCZlib
import Foundation
import PorterModel

/// Deflates a byte stream into gzip (RFC 1952 header and CRC-32, via zlib's `windowBits` 31),
/// chunk by chunk, so memory stays bounded whatever the size.
final class GzipDeflater {
    /// Where the compressed bytes go.
    let destination: ByteOutput
    private let stream: UnsafeMutablePointer<z_stream>
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var finished = false

    init(destination: ByteOutput) throws {
        self.destination = destination
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw PorterError(.io, "cannot start gzip compression (zlib error \(status))", location: destination.name)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes` and writes whatever output zlib produces.
    func compress(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        try run(Z_NO_FLUSH)
    }

    /// Ends the gzip stream (trailer with CRC and size) and closes the destination.
    func finish() throws {
        guard !finished else { return }
        finished = true
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try run(Z_FINISH)
        try destination.close()
    }

    private func run(_ flush: Int32) throws {
        let capacity = chunk.count
        while true {
            let (status, produced) = chunk.withUnsafeMutableBytes { out -> (Int32, Int) in
                stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(capacity)
                let status = deflate(stream, flush)
                return (status, capacity - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw PorterError(.io, "gzip compression failed (zlib error \(status))", location: destination.name)
            }
            if produced > 0 {
                try chunk.withUnsafeBytes { try destination.write(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && produced < capacity) {
                return
            }
        }
    }
}

/// Inflates a gzip stream read from another input, chunk by chunk. Concatenated gzip members
/// (what `cat a.gz b.gz` makes) are read as one stream, as gzip(1) does.
final class GzipInflater {
    private let source: ByteInput
    private let stream: UnsafeMutablePointer<z_stream>
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var inputEnd = false
    private var memberEnded = false

    init(source: ByteInput) throws {
        self.source = source
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 31: gzip only (16 + the 15-bit window); a zlib or raw stream is a format error.
        let status = inflateInit2_(stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw PorterError(.io, "cannot start gzip decompression (zlib error \(status))", location: source.name)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Reads up to `count` decompressed bytes; 0 at the end of the stream.
    func read(into base: UnsafeMutableRawPointer, count: Int) throws -> Int {
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(count)
        while stream.pointee.avail_out == uInt(count) {
            if stream.pointee.avail_in == 0 {
                guard !inputEnd else { break }
                let n = try input.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { inputEnd = true; break }
                if memberEnded {
                    // Another gzip member follows the one that ended.
                    inflateReset(stream)
                    memberEnded = false
                }
                input.withUnsafeMutableBufferPointer { stream.pointee.next_in = $0.baseAddress }
                stream.pointee.avail_in = uInt(n)
            } else if memberEnded {
                inflateReset(stream)
                memberEnded = false
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: memberEnded = true
            case Z_DATA_ERROR:
                throw PorterError(
                    .invalidInput, "corrupt gzip data: \(message(default: "invalid compressed data"))",
                    location: source.name)
            case Z_MEM_ERROR: throw PorterError(.io, "out of memory while decompressing gzip", location: source.name)
            default: throw PorterError(.invalidInput, "corrupt gzip data (zlib error \(status))", location: source.name)
            }
        }
        let produced = count - Int(stream.pointee.avail_out)
        if produced == 0, inputEnd, !memberEnded {
            throw PorterError(
                .invalidInput, "truncated gzip file: the compressed stream ends before its end marker",
                location: source.name)
        }
        return produced
    }

    private func message(default text: String) -> String {
        stream.pointee.msg.map { String(cString: $0) } ?? text
    }
}

/// Gzip's magic bytes, `1f 8b`: compressed input is recognized by content, not by name.
package enum GzipDetection {
    /// Whether `prefix` starts a gzip stream.
    package static func isGzip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B
    }

    /// The name of a compressed or packed format Porter does not read, from its magic bytes.
    package static func unsupportedContainer(_ prefix: [UInt8]) -> String? {
        let magics: [([UInt8], String)] = [
            ([0x50, 0x4B, 0x03, 0x04], "a zip archive"), ([0x42, 0x5A, 0x68], "a bzip2 file"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz file"), ([0x28, 0xB5, 0x2F, 0xFD], "a zstd file"),
            ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
        ]
        return magics.first { prefix.starts(with: $0.0) }?.1
    }
}
