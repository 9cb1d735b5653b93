import PorterModel

/// `ArrayDecimal128` of format 24: every value of a leaf stored at the narrowest width that holds
/// all of them exactly: 0 (all null, or all zero in a required column: context flag), 4 (BID32),
/// 8 (BID64) or 16 bytes (BID128) (core `array_decimal128.cpp`, `decimal128.cpp` `to_bid32/64`).
enum WriterDecimal {
    /// The canonical zero (`0`, exponent 0).
    static let zero = Decimal128(high: 0x3040_0000_0000_0000, low: 0)

    /// Sign, unbiased exponent and coefficient of a finite BID128 in its usual form; nil for
    /// infinities, NaNs and the non-canonical large-coefficient form.
    static func unpack(_ d: Decimal128) -> (
        negative: Bool, exponent: Int, coefficientHigh: UInt64, coefficientLow: UInt64
    )? {
        if (d.high >> 61) & 3 == 3 { return nil }
        let exponent = Int((d.high >> 49) & 0x3FFF) - 6176
        return (d.high >> 63 == 1, exponent, d.high & 0x1_FFFF_FFFF_FFFF, d.low)
    }

    /// Numeric order of two decimals, exact (`1.5` and `1.50` are equal); NaN first, then
    /// -Infinity … +Infinity.
    static func compare(_ a: Decimal128, _ b: Decimal128) -> Int {
        // NaN first, then -Infinity, finite values, +Infinity.
        func rank(_ d: Decimal128) -> Int {
            switch (d.high >> 58) & 0x1F {
            case 0x1F: return -3
            case 0x1E: return d.high >> 63 == 1 ? -2 : 2
            default: return 0
            }
        }
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        if ra != 0 { return 0 }
        let ua = unpack(a) ?? (a.high >> 63 == 1, 0, 0, 0), ub = unpack(b) ?? (b.high >> 63 == 1, 0, 0, 0)
        let za = ua.coefficientHigh == 0 && ua.coefficientLow == 0,
            zb = ub.coefficientHigh == 0 && ub.coefficientLow == 0
        if za && zb { return 0 }
        let signA = za ? 0 : (ua.negative ? -1 : 1), signB = zb ? 0 : (ub.negative ? -1 : 1)
        if signA != signB { return signA < signB ? -1 : 1 }
        // Same sign: compare magnitudes by scaling the one with the larger exponent down to the other.
        var (hiA, loA, eA) = (ua.coefficientHigh, ua.coefficientLow, ua.exponent)
        var (hiB, loB, eB) = (ub.coefficientHigh, ub.coefficientLow, ub.exponent)
        var magnitude = 0
        func times10(_ hi: inout UInt64, _ lo: inout UInt64) -> Bool {
            let (l, lc) = lo.multipliedFullWidth(by: 10)
            let (h, ho) = hi.multipliedReportingOverflow(by: 10)
            let (h2, ao) = h.addingReportingOverflow(l)
            guard !ho, !ao, hi <= UInt64.max / 10 else { return false }
            hi = h2
            lo = lc
            return true
        }
        while eA > eB {
            if !times10(&hiA, &loA) { magnitude = 1; break }
            eA -= 1
        }
        while magnitude == 0 && eB > eA {
            if !times10(&hiB, &loB) { magnitude = -1; break }
            eB -= 1
        }
        if magnitude == 0 { magnitude = (hiA, loA) == (hiB, loB) ? 0 : ((hiA, loA) < (hiB, loB) ? -1 : 1) }
        return signA * magnitude
    }

    /// The value truncated to an Int64 when in range (`Decimal128::to_int`, used by the search index).
    static func truncatedInt(_ d: Decimal128) -> Int64? {
        guard let u = unpack(d), u.coefficientHigh == 0 else { return nil }
        var c = u.coefficientLow
        if u.exponent < 0 {
            for _ in 0..<min(-u.exponent, 20) { c /= 10 }
        } else {
            for _ in 0..<u.exponent where c != 0 {
                let (m, overflow) = c.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                c = m
            }
        }
        guard c <= UInt64(Int64.max) else { return nil }
        return u.negative ? -Int64(c) : Int64(c)
    }

    /// The BID32 encoding when `d` converts exactly.
    static func bid32(_ d: Decimal128) -> UInt32? {
        guard let u = unpack(d), u.coefficientHigh == 0, u.coefficientLow < (1 << 23),
            u.exponent >= -101, u.exponent <= 90
        else { return nil }
        return (u.negative ? 0x8000_0000 : 0) | UInt32(u.exponent + 101) << 23 | UInt32(u.coefficientLow)
    }

    /// The BID64 encoding when `d` converts exactly.
    static func bid64(_ d: Decimal128) -> UInt64? {
        guard let u = unpack(d), u.coefficientHigh == 0, u.coefficientLow < (1 << 53),
            u.exponent >= -398, u.exponent <= 369
        else { return nil }
        return (u.negative ? 1 << 63 : 0) | UInt64(u.exponent + 398) << 53 | u.coefficientLow
    }

    /// The leaf node for `values` (`.decimal128` or `.null`).
    /// `fullWidth`: formats 20–23, where every leaf is 16 bytes wide (core 13 `ArrayDecimal128`).
    static func leaf(_ values: ArraySlice<RealmValue>, nullable: Bool, fullWidth: Bool = false) -> [UInt8] {
        var decimals = [Decimal128?]()
        decimals.reserveCapacity(values.count)
        for v in values {
            if case .decimal128(let d) = v { decimals.append(d) } else { decimals.append(nullable ? nil : zero) }
        }
        let flags = WriterNode.Flags(context: !nullable && !fullWidth)
        let allDefault = decimals.allSatisfy { nullable ? $0 == nil : $0 == zero }
        if allDefault && !fullWidth {
            return WriterNode.bytes([], widthType: .multiply, width: 0, size: decimals.count, flags: flags)
        }
        var width = fullWidth ? 16 : 4
        for case let d? in decimals where width < 16 {
            if width == 4, bid32(d) == nil { width = 8 }
            if width == 8, bid64(d) == nil { width = 16; break }
        }
        var payload = [UInt8]()
        payload.reserveCapacity(decimals.count * width)
        func append<T: FixedWidthInteger>(_ x: T) {
            withUnsafeBytes(of: x.littleEndian) { payload.append(contentsOf: $0) }
        }
        for d in decimals {
            switch width {
            case 4: append(d.map { bid32($0)! } ?? 0x7C00_00AA)
            case 8: append(d.map { bid64($0)! } ?? 0x7C00_0000_0000_00AA)
            default:
                let v = d ?? Decimal128(high: 0x7C00_0000_0000_0000, low: 0xAA)
                append(v.low)
                append(v.high)
            }
        }
        return WriterNode.bytes(payload, widthType: .multiply, width: width, size: decimals.count, flags: flags)
    }
}
