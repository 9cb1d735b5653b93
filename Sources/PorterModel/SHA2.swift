/// SHA-256 and SHA-224 (FIPS 180-4), written once for the two places Porter hashes without a
/// package dependency: plan and schema fingerprints (`sha256:<hex>`, PorterDiff) and the
/// HMAC-SHA224 of encrypted Realm pages (PorterRealmFile, whose closure must hold no system
/// library, and swift-crypto has no SHA-224).
///
/// A state holds the eight working words after whole 64-byte blocks, so a keyed hash can start
/// from a state that has already compressed its key block.
package struct SHA2State: Sendable {
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// SHA-256's initial state (FIPS 180-4 §5.3.3).
    package static let sha256 = SHA2State(
        h: (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19))
    /// SHA-224's initial state (FIPS 180-4 §5.3.2); its digest is the first 7 words.
    package static let sha224 = SHA2State(
        h: (0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4))

    /// The round constants both share (FIPS 180-4 §4.2.2).
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The SHA-256 digest (32 bytes) of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(bytes).withUnsafeBytes { sha256.finish($0, alreadyHashed: 0, words: 8) }
    }

    /// The SHA-224 digest (28 bytes) of `bytes`.
    package static func sha224(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(bytes).withUnsafeBytes { sha224.finish($0, alreadyHashed: 0, words: 7) }
    }

    /// Compresses one whole 64-byte block.
    package mutating func compress(_ block: [UInt8]) {
        precondition(block.count == 64)
        block.withUnsafeBytes { compress($0.baseAddress!) }
    }

    /// One compression of the 64 bytes at `block`.
    package mutating func compress(_ block: UnsafeRawPointer) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }
        Self.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                }
                for t in 16..<64 {
                    let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                    let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                    w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, hh) = h
                for t in 0..<64 {
                    let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
                h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
            }
        }
    }

    /// The digest (`words` 32-bit words, big-endian) of everything hashed so far (`alreadyHashed`
    /// bytes, whole blocks) followed by `message`: its whole blocks, then its last bytes with the
    /// padding and the bit length.
    package func finish(_ message: UnsafeRawBufferPointer, alreadyHashed: Int, words: Int) -> [UInt8] {
        var state = self
        let whole = message.count / 64 * 64
        var offset = 0
        while offset < whole {
            state.compress(message.baseAddress! + offset)
            offset += 64
        }
        let rest = message.count - whole
        var tail = [UInt8](repeating: 0, count: rest < 56 ? 64 : 128)
        for i in 0..<rest { tail[i] = message[whole + i] }
        tail[rest] = 0x80
        let bits = UInt64(alreadyHashed + message.count) * 8
        for i in 0..<8 { tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i))) }
        tail.withUnsafeBytes { t in
            var position = 0
            while position < t.count {
                state.compress(t.baseAddress! + position)
                position += 64
            }
        }
        let all = [state.h.0, state.h.1, state.h.2, state.h.3, state.h.4, state.h.5, state.h.6, state.h.7]
        return all.prefix(words).flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
        }
    }
}
