import Foundation
import PorterModel

/// A dictionary of file format 22 (realm-core 11–12 `DictionaryClusterTree`): a cluster tree whose
/// object keys are the keys' hashes (`Mixed::hash` of the string key, masked to 63 bits), column 0
/// the keys (`ArrayString`), column 1 the values (`ArrayMixed`). realm-core 14 reads it only to
/// move it to the 23 layout (`Dictionary::migrate`). Two keys of one dictionary with the same
/// hash need realm-core's collision column: refused (it takes a 63-bit hash collision).
struct WriterLegacyDictionary {
    let leaf: WriterLeafEncoder

    /// Writes the dictionary (0 when empty); returns the root of its cluster tree.
    func write(_ entries: [RealmDictionaryEntry]) throws -> Int64 {
        if entries.isEmpty { return 0 }
        let hashed = entries.map {
            (key: Int64(bitPattern: CityHash64.hash(Array($0.key.utf8)) & (UInt64.max >> 1)), entry: $0)
        }
        .sorted { $0.key < $1.key }
        for (a, b) in zip(hashed, hashed.dropFirst()) where a.key == b.key {
            throw PorterError(
                .invalidValue,
                "file format 22 cannot store the dictionary keys '\(a.entry.key)' and '\(b.entry.key)' (their hashes collide)"
            )
        }
        var leaves: [(ref: Int64, first: Int64, count: Int64)] = []
        var start = 0
        let mixed = WriterMixedEncoder(leaf: leaf)
        while start < hashed.count {
            let chunk = hashed[start..<min(start + WriterTableBuilder.clusterSize, hashed.count)]
            // A root leaf holds the keys themselves (as realm-core writes it); under an inner node
            // they are relative to the leaf's first key.
            let first = hashed.count <= WriterTableBuilder.clusterSize ? 0 : chunk.first!.key
            let slots: [Int64] = [
                try leaf.out.append(WriterNode.integers(chunk.map { $0.key - first })),
                try leaf.writeBlobs(chunk.map { Array($0.entry.key.utf8) }, isString: true),
                try mixed.write(ArraySlice(chunk.map(\.entry.value))),
            ]
            leaves.append(
                (
                    try leaf.out.append(WriterNode.integers(slots, flags: .init(hasRefs: true))), first,
                    Int64(chunk.count)
                ))
            start += WriterTableBuilder.clusterSize
        }
        return try WriterTableBuilder.writeClusterTree(leaves, compact: false, out: leaf.out)
    }
}

/// CityHash64 as libc++ implements it (`__murmur2_or_cityhash<size_t, 64>`), which realm-core
/// uses on 64-bit platforms for `StringData::hash` (`murmur2_or_cityhash`). Words are read little-endian.
enum CityHash64 {
    private static let k0: UInt64 = 0xc3a5_c85c_97cb_3127
    private static let k1: UInt64 = 0xb492_b66f_be98_f273
    private static let k2: UInt64 = 0x9ae1_6a3b_2f90_404f
    private static let k3: UInt64 = 0xc949_d7c7_509e_6557

    static func hash(_ s: [UInt8]) -> UInt64 {
        let len = s.count
        if len <= 16 { return len0to16(s) }
        if len <= 32 { return len17to32(s) }
        if len <= 64 { return len33to64(s) }
        var x = load8(s, len - 40)
        var y = load8(s, len - 16) &+ load8(s, len - 56)
        var z = len16(load8(s, len - 48) &+ UInt64(len), load8(s, len - 24))
        var v = weak32(s, len - 64, UInt64(len), z)
        var w = weak32(s, len - 32, y &+ k1, x)
        x = x &* k1 &+ load8(s, 0)
        var remaining = (len - 1) & ~63
        var p = 0
        repeat {
            x = rotate(x &+ y &+ v.0 &+ load8(s, p + 8), 37) &* k1
            y = rotate(y &+ v.1 &+ load8(s, p + 48), 42) &* k1
            x ^= w.1
            y = y &+ v.0 &+ load8(s, p + 40)
            z = rotate(z &+ w.0, 33) &* k1
            v = weak32(s, p, v.1 &* k1, x &+ w.0)
            w = weak32(s, p + 32, z &+ w.1, y &+ load8(s, p + 16))
            swap(&z, &x)
            p += 64
            remaining -= 64
        } while remaining != 0
        return len16(len16(v.0, w.0) &+ shiftMix(y) &* k1 &+ z, len16(v.1, w.1) &+ x)
    }

    private static func load8(_ s: [UInt8], _ at: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(s[at + i]) << (8 * UInt64(i)) }
        return v
    }

    private static func load4(_ s: [UInt8], _ at: Int) -> UInt32 {
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(s[at + i]) << (8 * UInt32(i)) }
        return v
    }

    private static func rotate(_ v: UInt64, _ shift: Int) -> UInt64 {
        shift == 0 ? v : (v >> UInt64(shift)) | (v << UInt64(64 - shift))
    }

    private static func shiftMix(_ v: UInt64) -> UInt64 { v ^ (v >> 47) }

    private static func len16(_ u: UInt64, _ v: UInt64) -> UInt64 {
        let mul: UInt64 = 0x9ddf_ea08_eb38_2d69
        var a = (u ^ v) &* mul
        a ^= a >> 47
        var b = (v ^ a) &* mul
        b ^= b >> 47
        return b &* mul
    }

    private static func len0to16(_ s: [UInt8]) -> UInt64 {
        let len = s.count
        if len > 8 {
            let a = load8(s, 0), b = load8(s, len - 8)
            return len16(a, rotate(b &+ UInt64(len), len)) ^ b
        }
        if len >= 4 {
            // `a << 3` is a 32-bit shift in C++ (the high bits are lost).
            let a = load4(s, 0) << 3, b = load4(s, len - 4)
            return len16(UInt64(len) &+ UInt64(a), UInt64(b))
        }
        if len > 0 {
            let y = UInt32(s[0]) &+ (UInt32(s[len >> 1]) << 8)
            let z = UInt32(len) &+ (UInt32(s[len - 1]) << 2)
            return shiftMix(UInt64(y) &* k2 ^ UInt64(z) &* k3) &* k2
        }
        return k2
    }

    private static func len17to32(_ s: [UInt8]) -> UInt64 {
        let len = s.count
        let a = load8(s, 0) &* k1, b = load8(s, 8)
        let c = load8(s, len - 8) &* k2, d = load8(s, len - 16) &* k0
        return len16(
            rotate(a &- b, 43) &+ rotate(c, 30) &+ d, a &+ rotate(b ^ k3, 20) &- c &+ UInt64(len))
    }

    private static func len33to64(_ s: [UInt8]) -> UInt64 {
        let len = s.count
        var z = load8(s, 24)
        var a = load8(s, 0) &+ (UInt64(len) &+ load8(s, len - 16)) &* k0
        var b = rotate(a &+ z, 52)
        var c = rotate(a, 37)
        a = a &+ load8(s, 8)
        c = c &+ rotate(a, 7)
        a = a &+ load8(s, 16)
        let vf = a &+ z
        let vs = b &+ rotate(a, 31) &+ c
        a = load8(s, 16) &+ load8(s, len - 32)
        z = z &+ load8(s, len - 8)
        b = rotate(a &+ z, 52)
        c = rotate(a, 37)
        a = a &+ load8(s, len - 24)
        c = c &+ rotate(a, 7)
        a = a &+ load8(s, len - 16)
        let wf = a &+ z
        let ws = b &+ rotate(a, 31) &+ c
        let r = shiftMix((vf &+ ws) &* k2 &+ (wf &+ vs) &* k0)
        return shiftMix(r &* k0 &+ vs) &* k2
    }

    /// `weak_hash_len_32_with_seeds` over the four words at `at`.
    private static func weak32(_ s: [UInt8], _ at: Int, _ a0: UInt64, _ b0: UInt64) -> (UInt64, UInt64) {
        let w = load8(s, at), x = load8(s, at + 8), y = load8(s, at + 16), z = load8(s, at + 24)
        var a = a0 &+ w
        var b = rotate(b0 &+ a &+ z, 21)
        let c = a
        a = a &+ x
        a = a &+ y
        b = b &+ rotate(a, 44)
        return (a &+ z, b &+ c)
    }
}
