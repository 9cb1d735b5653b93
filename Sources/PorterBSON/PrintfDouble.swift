import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// C's `printf("%.20g")` of a double, which is how libbson writes doubles in Extended JSON.
///
/// glibc prints the exact binary value rounded (half to even) to 20 significant digits, which
/// takes it about 3,000 instructions. Most doubles (|x| between 1e-4 and 2^64, not subnormal)
/// are computed here exactly with 256-bit integer arithmetic instead; everything else goes to
/// `vsnprintf` itself, so the text is always glibc's.
enum PrintfDouble {
    /// Significant digits of `%.20g`.
    static let precision = 20

    /// Appends `%.20g` of a finite `value`.
    static func append(_ value: Double, to out: TextBuffer) {
        out.reserve(40)
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { scratch in
            fastFormat(value, scratch.baseAddress!, out.base + out.count)
        }
        if let written {
            out.count += written
        } else {
            out.count += viaLibc(value, out.base + out.count)
        }
    }

    /// `vsnprintf("%.20g")` into `dest` (at least 40 bytes); returns the length.
    static func viaLibc(_ value: Double, _ dest: UnsafeMutablePointer<UInt8>) -> Int {
        let n = withVaList([value]) { args in
            dest.withMemoryRebound(to: CChar.self, capacity: 40) { vsnprintf($0, 40, "%.20g", args) }
        }
        return Int(n)
    }

    /// The exact path; nil when `value` is outside its range (the caller asks libc).
    /// `scratch` holds the decimal digits of the scaled value (96 bytes).
    static func fastFormat(_ value: Double, _ scratch: UnsafeMutablePointer<UInt8>, _ dest: UnsafeMutablePointer<UInt8>)
        -> Int?
    {
        var out = 0
        if value.sign == .minus {
            dest[0] = UInt8(ascii: "-")
            out = 1
        }
        if value == 0 {
            dest[out] = UInt8(ascii: "0")
            return out + 1
        }
        let bits = value.bitPattern
        let biased = Int((bits >> 52) & 0x7FF)
        guard biased != 0 else { return nil }  // subnormal: tiny, rare
        var mantissa = bits & ((1 << 52) - 1) | (1 << 52)
        var exponent = biased - 1075  // value = mantissa × 2^exponent
        if exponent < 0 {
            let shift = min(mantissa.trailingZeroBitCount, -exponent)
            mantissa >>= UInt64(shift)
            exponent += shift
        }
        // value = N / 10^k with N = mantissa × 5^k (k = -exponent), or an integer.
        var n = UInt256(mantissa)
        var k = 0
        if exponent > 0 {
            guard exponent <= 11 else { return nil }  // above 2^64: more than 20 digits
            n = UInt256(mantissa << UInt64(exponent))
        } else if exponent < 0 {
            k = -exponent
            guard k <= 87, n.multiply(byPowerOfFive: k) else { return nil }
        }
        // The first 21 digits, and whether any later digit is nonzero: all rounding needs.
        let (digitCount, sticky) = n.writeDecimal(to: scratch, maxDigits: precision + 1)
        // Decimal exponent of the first significant digit, as `%e` would print it.
        var decimalExponent = digitCount - 1 - k
        guard decimalExponent >= -4 else { return nil }  // `%e` style: left to libc
        var significant = min(digitCount, precision)
        if digitCount > precision, roundsUp(scratch, sticky) {
            var i = precision - 1
            while i >= 0 && scratch[i] == UInt8(ascii: "9") {
                scratch[i] = UInt8(ascii: "0")
                i -= 1
            }
            if i >= 0 {
                scratch[i] += 1
            } else {
                scratch[0] = UInt8(ascii: "1")
                decimalExponent += 1
            }
        }
        // `%g` drops trailing zeros of the fraction.
        while significant > 1 && scratch[significant - 1] == UInt8(ascii: "0") { significant -= 1 }
        guard decimalExponent < precision else { return nil }
        if decimalExponent >= 0 {
            let integerDigits = decimalExponent + 1
            for i in 0..<integerDigits {
                dest[out] = i < significant ? scratch[i] : UInt8(ascii: "0")
                out += 1
            }
            if significant > integerDigits {
                dest[out] = UInt8(ascii: ".")
                out += 1
                for i in integerDigits..<significant {
                    dest[out] = scratch[i]
                    out += 1
                }
            }
        } else {
            dest[out] = UInt8(ascii: "0")
            dest[out + 1] = UInt8(ascii: ".")
            out += 2
            for _ in 0..<(-decimalExponent - 1) {
                dest[out] = UInt8(ascii: "0")
                out += 1
            }
            for i in 0..<significant {
                dest[out] = scratch[i]
                out += 1
            }
        }
        return out
    }

    /// Whether the digits beyond the 20th round the 20th up: above half, or exactly half with
    /// an odd 20th digit (glibc rounds to nearest, ties to even).
    private static func roundsUp(_ digits: UnsafeMutablePointer<UInt8>, _ sticky: Bool) -> Bool {
        let next = digits[precision]
        if next > UInt8(ascii: "5") { return true }
        if next < UInt8(ascii: "5") { return false }
        if sticky { return true }
        return (digits[precision - 1] - UInt8(ascii: "0")) & 1 == 1
    }
}

/// A 256-bit unsigned integer: just enough arithmetic for ``PrintfDouble``.
struct UInt256 {
    // Little-endian 64-bit words.
    var w0: UInt64, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    init(_ value: UInt64) { w0 = value }

    var isZero: Bool { w0 | w1 | w2 | w3 == 0 }

    /// Multiplies by a 64-bit factor; false on overflow.
    mutating func multiply(by factor: UInt64) -> Bool {
        var carry: UInt64 = 0
        func step(_ word: inout UInt64) {
            let (high, low) = word.multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            word = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        step(&w0)
        step(&w1)
        step(&w2)
        step(&w3)
        return carry == 0
    }

    /// Multiplies by 5^k; false on overflow.
    mutating func multiply(byPowerOfFive k: Int) -> Bool {
        var k = k
        // 5^27 is the largest power of five below 2^64.
        while k >= 27 {
            guard multiply(by: 7_450_580_596_923_828_125) else { return false }
            k -= 27
        }
        var factor: UInt64 = 1
        for _ in 0..<k { factor &*= 5 }
        return multiply(by: factor)
    }

    /// Divides by a 64-bit divisor; returns the remainder.
    mutating func divide(by divisor: UInt64) -> UInt64 {
        var remainder: UInt64 = 0
        func step(_ word: inout UInt64) {
            // Leading zero words (most of them, for doubles) need no 128-bit division.
            if remainder == 0 && word < divisor {
                remainder = word
                word = 0
                return
            }
            let (q, r) = divisor.dividingFullWidth((high: remainder, low: word))
            word = q
            remainder = r
        }
        step(&w3)
        step(&w2)
        step(&w1)
        step(&w0)
        return remainder
    }

    /// Writes the leading decimal digits (no leading zeros; at most `maxDigits`) to `dest`;
    /// returns how many digits the number has, and whether any digit not written is nonzero.
    func writeDecimal(to dest: UnsafeMutablePointer<UInt8>, maxDigits: Int) -> (count: Int, sticky: Bool) {
        // Groups of 19 digits, least significant first.
        var groups: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        var groupCount = 0
        var n = self
        withUnsafeMutableBytes(of: &groups) { raw in
            let g = raw.bindMemory(to: UInt64.self)
            repeat {
                g[groupCount] = n.divide(by: 10_000_000_000_000_000_000)
                groupCount += 1
            } while !n.isZero
        }
        var total = 0
        var written = 0
        var sticky = false
        withUnsafeBytes(of: &groups) { raw in
            let g = raw.bindMemory(to: UInt64.self)
            for index in stride(from: groupCount - 1, through: 0, by: -1) {
                var value = g[index]
                // The leading group has no leading zeros; the others have exactly 19 digits.
                var width = 19
                if index == groupCount - 1 {
                    width = 1
                    var probe = value / 10
                    while probe > 0 { width += 1; probe /= 10 }
                }
                total += width
                let room = maxDigits - written
                if room <= 0 {
                    sticky = sticky || value != 0
                    continue
                }
                // Digits beyond the room only count as nonzero or not.
                var skip = width - room
                while skip > 0 {
                    if value % 10 != 0 { sticky = true }
                    value /= 10
                    skip -= 1
                }
                let take = min(width, room)
                for i in stride(from: take - 1, through: 0, by: -1) {
                    dest[written + i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                written += take
            }
        }
        return (total, sticky)
    }
}
