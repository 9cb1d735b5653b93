/// Encodes realm-core "arrays" (nodes): an 8-byte header (`AAAA` checksum, flags, big-endian
/// 24-bit size) and a payload padded to 8 bytes (core `node_header.hpp`, `array.cpp` format comment).
enum WriterNode {
    /// How the header's width applies to the payload (`Node::WidthType`).
    enum WidthType: UInt8 {
        /// Bit-packed integers.
        case bits = 0
        /// `size * width` bytes (fixed-size records).
        case multiply = 1
        /// `size` bytes (blobs); the width is ignored.
        case ignore = 2
    }

    /// Header flags of one node.
    struct Flags {
        var isInner = false
        var hasRefs = false
        var context = false
    }

    /// Encoded width index (`(1 << ndx) >> 1` is the width in bits).
    static func widthIndex(_ width: Int) -> UInt8 {
        switch width {
        case 0: return 0
        case 1: return 1
        case 2: return 2
        case 4: return 3
        case 8: return 4
        case 16: return 5
        case 32: return 6
        default: return 7
        }
    }

    /// Appends a node header to `out`.
    static func appendHeader(_ out: inout [UInt8], flags: Flags, widthType: WidthType, width: Int, size: Int) {
        out.append(contentsOf: [0x41, 0x41, 0x41, 0x41])
        var b: UInt8 = widthIndex(width) | widthType.rawValue << 3
        if flags.isInner { b |= 0x80 }
        if flags.hasRefs { b |= 0x40 }
        if flags.context { b |= 0x20 }
        out.append(b)
        out.append(UInt8(truncatingIfNeeded: size >> 16))
        out.append(UInt8(truncatingIfNeeded: size >> 8))
        out.append(UInt8(truncatingIfNeeded: size))
    }

    /// Pads `out` with zeros to a multiple of 8.
    static func pad(_ out: inout [UInt8]) {
        while out.count & 7 != 0 { out.append(0) }
    }

    /// The smallest width holding every value of `min...max` the way `Array` reads it
    /// (1, 2 and 4 bits unsigned; 8 to 64 bits signed).
    static func width(min: Int64, max: Int64) -> Int {
        if min >= 0 {
            if max == 0 { return 0 }
            if max <= 1 { return 1 }
            if max <= 3 { return 2 }
            if max <= 15 { return 4 }
        }
        if min >= -0x80 && max <= 0x7F { return 8 }
        if min >= -0x8000 && max <= 0x7FFF { return 16 }
        if min >= -0x8000_0000 && max <= 0x7FFF_FFFF { return 32 }
        return 64
    }

    /// An integer array (`wtype_Bits`) with the smallest width for its values, or at least `minWidth`.
    static func integers(_ values: [Int64], flags: Flags = Flags(), minWidth: Int = 0) -> [UInt8] {
        var lo: Int64 = 0, hi: Int64 = 0
        for v in values {
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        let w = Swift.max(width(min: lo, max: hi), minWidth)
        return integers(values, width: w, flags: flags)
    }

    /// An integer array of exactly `width` bits per element.
    static func integers(_ values: [Int64], width w: Int, flags: Flags = Flags()) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(8 + (values.count * w + 7) / 8 + 8)
        appendHeader(&out, flags: flags, widthType: .bits, width: w, size: values.count)
        if w >= 8 {
            let bytes = w / 8
            for v in values {
                var x = UInt64(bitPattern: v)
                for _ in 0..<bytes {
                    out.append(UInt8(truncatingIfNeeded: x))
                    x >>= 8
                }
            }
        } else if w > 0 {
            var acc: UInt8 = 0
            var used = 0
            for v in values {
                acc |= UInt8(truncatingIfNeeded: v) << UInt8(used)
                used += w
                if used == 8 {
                    out.append(acc)
                    acc = 0
                    used = 0
                }
            }
            if used > 0 { out.append(acc) }
        }
        pad(&out)
        return out
    }

    /// A node of raw bytes: `multiply` records of `width` bytes, or `ignore` (a blob of `size` bytes).
    static func bytes(_ payload: [UInt8], widthType: WidthType, width: Int, size: Int, flags: Flags = Flags())
        -> [UInt8]
    {
        var out = [UInt8]()
        out.reserveCapacity(16 + payload.count)
        // For `multiply` the header's width is in bytes per record; blobs conventionally say 1.
        appendHeader(&out, flags: flags, widthType: widthType, width: width, size: size)
        out.append(contentsOf: payload)
        pad(&out)
        return out
    }

    /// Tags an integer for a has-refs array (`value << 1 | 1`).
    @inline(__always)
    static func tagged(_ value: Int64) -> Int64 { value << 1 | 1 }
}
