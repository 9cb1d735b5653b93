import Foundation
import PorterModel
#if canImport(Glibc)
import Glibc
#endif

/// A file copy that keeps holes: only the data ranges (`SEEK_DATA`/`SEEK_HOLE`) are read and
/// written, and the copy is given the source's size, so a sparse Realm file's backup stays sparse.
enum SparseCopy {
    /// Linux's `SEEK_DATA` and `SEEK_HOLE` (Swift's Glibc module lacks them: they need _GNU_SOURCE).
    private static let seekData: Int32 = 3, seekHole: Int32 = 4
    /// Copies `from` into the empty file open for writing as `target` (at `to`, for messages);
    /// fsyncs it. The caller closes `target`, and removes it when this throws.
    /// - Throws: ``PorterError/Code/io`` naming the file that failed.
    static func copy(_ from: String, into target: Int32, at to: String) throws {
        let source = open(from, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw failure("cannot read", from) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0 else { throw failure("cannot read", from) }
        fchmod(target, info.st_mode & 0o7777)
        let size = info.st_size
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while offset < size {
            var dataStart = lseek(source, offset, seekData)
            if dataStart < 0 {
                // ENXIO: only a hole is left; EINVAL: no SEEK_DATA here, so copy everything.
                if errno == ENXIO { break }
                dataStart = offset
            }
            var dataEnd = lseek(source, dataStart, seekHole)
            if dataEnd < 0 { dataEnd = size }
            var position = dataStart
            while position < dataEnd {
                let count = Int(Swift.min(off_t(buffer.count), dataEnd - position))
                let read = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, count, position) }
                guard read > 0 else { throw failure("cannot read", from) }
                let written = buffer.withUnsafeBytes { pwrite(target, $0.baseAddress, read, position) }
                guard written == read else { throw failure("cannot write", to) }
                position += off_t(read)
            }
            offset = dataEnd
        }
        guard ftruncate(target, size) == 0, fsync(target) == 0 else { throw failure("cannot write", to) }
    }

    private static func failure(_ what: String, _ path: String) -> PorterError {
        PorterError(.io, "\(what) the backup: \(String(cString: strerror(errno)))", location: path)
    }
}
