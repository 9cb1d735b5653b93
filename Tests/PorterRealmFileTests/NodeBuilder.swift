import Foundation
@testable import PorterRealmFile

/// Builds nodes by hand in an in-memory "file" (a 24-byte header, then 8-aligned nodes) to
/// reach code paths no small fixture can: chained blobs, runaway depth.
final class NodeBuilder {
    var bytes: [UInt8] = Array("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0T-DB\u{18}\0\0\0".utf8)

    /// Appends a node; returns its ref. `widthType` 0 bits, 1 multiply, 2 ignore.
    @discardableResult
    func node(
        _ payload: [UInt8], count: Int, widthIndex: UInt8, widthType: UInt8, inner: Bool = false, hasRefs: Bool = false,
        context: Bool = false
    ) -> Int64 {
        let ref = Int64(bytes.count)
        var flags = widthIndex | widthType << 3
        if inner { flags |= 0x80 }
        if hasRefs { flags |= 0x40 }
        if context { flags |= 0x20 }
        bytes += Array("AAAA".utf8) + [flags, UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        bytes += payload
        while bytes.count % 8 != 0 { bytes.append(0) }
        return ref
    }

    /// A 64-bit integer array (refs when `hasRefs`).
    @discardableResult
    func ints(_ values: [Int64], inner: Bool = false, hasRefs: Bool = false, context: Bool = false) -> Int64 {
        node(
            values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }, count: values.count,
            widthIndex: 7, widthType: 0,
            inner: inner, hasRefs: hasRefs, context: context)
    }

    /// A blob (`ArrayBlob`, width type "ignore").
    @discardableResult
    func blob(_ data: [UInt8]) -> Int64 { node(data, count: data.count, widthIndex: 0, widthType: 2) }

    /// Runs `body` with the bytes mapped as a `Mem`.
    func withMem<R>(_ body: (Mem) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(Mem(base: $0.baseAddress!, size: $0.count)) }
    }
}

extension NodeBuilder {
    /// Short strings (`ArrayStringShort`) of width 16.
    @discardableResult
    func shortStrings(_ values: [String?]) -> Int64 {
        var payload: [UInt8] = []
        for v in values {
            guard let v else { payload += Array(repeating: 0, count: 15) + [16]; continue }
            let u = Array(v.utf8)
            payload += u + Array(repeating: 0, count: 15 - u.count) + [UInt8(15 - u.count)]
        }
        return node(payload, count: values.count, widthIndex: 5, widthType: 1)
    }

    /// Points the header's slot 0 at `ref` (select bit 0).
    func setTopRef(_ ref: Int64) {
        withUnsafeBytes(of: ref.littleEndian) { for i in 0..<8 { bytes[i] = $0[i] } }
    }

    /// Tagged integer `v << 1 | 1`.
    static func tag(_ v: Int64) -> Int64 { v << 1 | 1 }
}
