import Foundation

/// Reads whole files with POSIX calls. Foundation's `Data(contentsOf:)` is reported by
/// LeakSanitizer in this toolchain (swift-foundation's `readBytesFromFile` buffers are never
/// freed), which would drown Porter's own leaks, so the harness does not use it.
enum FuzzFiles {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}
