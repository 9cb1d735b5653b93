import Foundation
import PorterModel
#if canImport(Glibc)
import Glibc
#endif

/// Where the format-24 image of an old file (formats 2–9, ``LegacyFile``) lives while it is read:
/// an anonymous memory file (`memfd_create`), never a file in a folder, so nothing (decrypted or
/// not) is written to disk. Linux and Android have it; Apple platforms do not, and there the old
/// formats are refused.
enum PlainPages {
    /// `memfd_create`, looked up at run time (Swift's Glibc module lacks it: it needs _GNU_SOURCE).
    private static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// A new anonymous file in memory (close-on-exec).
    /// - Throws: ``PorterError/Code/io`` when the system has no `memfd_create` or refuses one.
    static func anonymousFile() throws -> Int32 {
        guard let memfdCreate else {
            throw PorterError(
                .io,
                "this system has no memfd_create, which reading a file of format 2–9 needs: Porter does not write "
                    + "its image to a temporary file")
        }
        let fd = memfdCreate("porter-realm-pages", 1)  // 1: MFD_CLOEXEC
        guard fd >= 0 else {
            throw PorterError(
                .io, "cannot create an in-memory file for the decrypted pages: \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
