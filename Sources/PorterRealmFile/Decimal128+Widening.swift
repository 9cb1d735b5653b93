import PorterModel

/// Realm 24 stores a decimal column in the narrowest of BID32, BID64 or BID128 that holds every
/// value exactly (realm-core `array_decimal128.cpp` 26-50); readers widen to BID128 as
/// `bid32_to_bid128`/`bid64_to_bid128` do: same sign, coefficient and value of the exponent.
extension Decimal128 {
    /// BID128 zero with exponent 0 (what a zero-width, context-flagged decimal leaf holds).
    static let realmZero = Decimal128(high: 0x3040_0000_0000_0000, low: 0)

    /// Widens a BID32 value.
    static func widening(bid32 v: UInt32) -> Decimal128 {
        let sign = UInt64(v >> 31) << 63
        if (v >> 26) & 0x1F == 0x1F {
            return Decimal128(high: sign | ((v >> 25) & 1 == 1 ? 0x7E00_0000_0000_0000 : 0x7C00_0000_0000_0000), low: 0)
        }
        if (v >> 26) & 0x1F == 0x1E { return Decimal128(high: sign | 0x7800_0000_0000_0000, low: 0) }
        let exponent: UInt32, coefficient: UInt32
        if (v >> 29) & 3 == 3 {
            exponent = (v >> 21) & 0xFF
            coefficient = (v & 0x1F_FFFF) | 0x80_0000
        } else {
            exponent = (v >> 23) & 0xFF
            coefficient = v & 0x7F_FFFF
        }
        // Non-canonical coefficients (beyond 7 digits) read as zero, as the IEEE standard says.
        return finite(
            sign: sign, exponent: Int(exponent) - 101, coefficient: coefficient > 9_999_999 ? 0 : UInt64(coefficient))
    }

    /// Widens a BID64 value.
    static func widening(bid64 v: UInt64) -> Decimal128 {
        let sign = v & (1 << 63)
        if (v >> 58) & 0x1F == 0x1F {
            return Decimal128(high: sign | ((v >> 57) & 1 == 1 ? 0x7E00_0000_0000_0000 : 0x7C00_0000_0000_0000), low: 0)
        }
        if (v >> 58) & 0x1F == 0x1E { return Decimal128(high: sign | 0x7800_0000_0000_0000, low: 0) }
        let exponent: UInt64, coefficient: UInt64
        if (v >> 61) & 3 == 3 {
            exponent = (v >> 51) & 0x3FF
            coefficient = (v & 0x7_FFFF_FFFF_FFFF) | 0x20_0000_0000_0000
        } else {
            exponent = (v >> 53) & 0x3FF
            coefficient = v & 0x1F_FFFF_FFFF_FFFF
        }
        return finite(
            sign: sign, exponent: Int(exponent) - 398,
            coefficient: coefficient > 9_999_999_999_999_999 ? 0 : coefficient)
    }

    private static func finite(sign: UInt64, exponent: Int, coefficient: UInt64) -> Decimal128 {
        // BID128: sign, 14-bit exponent biased by 6176 at bits 113…126, coefficient below.
        Decimal128(high: sign | UInt64(exponent + 6176) << 49, low: coefficient)
    }
}
