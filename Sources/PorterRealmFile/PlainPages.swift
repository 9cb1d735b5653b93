import Foundation
import PorterModel
#if canImport(Glibc)
import Glibc
#endif

/// Where the decrypted pages of an encrypted Realm file live while it is read: an anonymous
/// memory file (`memfd_create`), never a file in a folder, so nothing decrypted is written to
/// disk (its pages can only reach swap, as any process memory can).
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
                .io, "this system has no memfd_create: Porter will not write decrypted pages to a temporary file")
        }
        let fd = memfdCreate("porter-realm-pages", 1)  // 1: MFD_CLOEXEC
        guard fd >= 0 else {
            throw PorterError(
                .io, "cannot create an in-memory file for the decrypted pages: \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
