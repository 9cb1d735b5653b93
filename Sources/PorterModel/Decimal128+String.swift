/// Exact text conversion for ``Decimal128`` following the BSON Decimal128 specification: the
/// canonical form is IEEE 754-2008 "to-scientific-string", and parsing never rounds. A string
/// that cannot be stored exactly (more than 34 significant digits, exponent out of range) throws
/// instead of silently losing digits; only exact adjustments are made (dropping trailing zeros,
/// padding the coefficient with zeros, clamping the exponent of zero).
extension Decimal128: CustomStringConvertible {
    /// The canonical string of the BSON/Extended JSON spec: `NaN`, `Infinity`, `-Infinity`, plain
    /// notation such as `-0.00` or `123.45`, or scientific notation such as `1.05E+3` or `0E-611`
    /// when the exponent is positive or the adjusted exponent is below -6.
    public var description: String {
        let parts = decode()
        switch parts.kind {
        case .nan:
            return "NaN"
        case .infinity:
            return parts.negative ? "-Infinity" : "Infinity"
        case .finite:
            return Decimal128.format(negative: parts.negative, coefficient: parts.coefficient, exponent: parts.exponent)
        }
    }

    /// Parses a decimal string exactly: an optional sign, digits with an optional `.`, an optional
    /// exponent (`e`/`E`, optional sign, digits), or `Inf`/`Infinity`/`NaN` in any case.
    /// Leading zeros and trailing zeros beyond 34 digits are accepted, as is an exponent that must
    /// be clamped when that is exact (`1E+6144` becomes `1.000…000E+6144`, `0E+9999` becomes `0E+6111`).
    /// - Throws: ``PorterError/Code/parseError`` quoting the input when the text is not a number or
    ///   its value would need rounding (over 34 significant digits, overflow, underflow).
    public init(string: String) throws {
        var text = string
        // `withUTF8` gives a contiguous byte buffer (no copy for native strings).
        let outcome = text.withUTF8 { Decimal128.parse($0) }
        switch outcome {
        case .success(let value):
            self = value
        case .failure(let why):
            throw PorterError(.parseError, "invalid decimal128 '\(string)': \(why)")
        }
    }

    /// The exact value of an integer (coefficient `|value|`, exponent 0).
    public init(_ value: Int64) {
        let sign: UInt64 = value < 0 ? 1 << 63 : 0
        self.init(high: sign | UInt64(Decimal128.exponentBias) << 49, low: value.magnitude)
    }

    /// Whether the value is a NaN (quiet or signalling, any sign or payload).
    public var isNaN: Bool { (high >> 58) & 0x1F == 0x1F }

    /// Whether the value is positive or negative infinity.
    public var isInfinite: Bool { (high >> 58) & 0x1F == 0x1E }

    /// Whether the sign bit is set and the value is not a NaN (so `-0` and `-Infinity` count;
    /// a NaN's sign carries no meaning and its canonical string has none).
    public var isNegative: Bool { high >> 63 == 1 && !isNaN }

    /// The value as an `Int64` when it is an integer that fits exactly (`1.000`, `12E+2`, `-0`),
    /// otherwise `nil` (fractions, NaN, infinities, out of range).
    public var exactInt64: Int64? {
        let parts = decode()
        guard parts.kind == .finite else { return nil }
        var coefficient = parts.coefficient
        var exponent = parts.exponent
        if coefficient.isZero { return 0 }
        // Exact division by 10 until the exponent reaches 0; a nonzero coefficient below 10^34
        // has at most 33 trailing zeros, so this ends quickly.
        while exponent < 0 {
            let (q, r) = coefficient.quotientAndRemainder(dividingBy: 10)
            guard r == 0 else { return nil }
            coefficient = q
            exponent += 1
        }
        // Anything ≥ 2^64 or with more than 19 zeros to append cannot fit.
        guard coefficient.high == 0, exponent <= 19 else { return nil }
        var magnitude = coefficient.low
        if exponent > 0 {
            let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: Decimal128.powersOf10[exponent])
            guard !overflow else { return nil }
            magnitude = scaled
        }
        if parts.negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The nearest `Double` (NaN, ±infinity, ±0 and subnormals as IEEE 754 binary64 has them).
    public var doubleValue: Double {
        let parts = decode()
        switch parts.kind {
        case .nan:
            return .nan
        case .infinity:
            return parts.negative ? -.infinity : .infinity
        case .finite:
            let c = parts.coefficient
            let e = parts.exponent
            // Clinger's fast path: both operands exact in binary64, so one IEEE operation rounds correctly.
            if c.high == 0, c.low < 1 << 53, e >= -22, e <= 22 {
                var d = Double(c.low)
                if e >= 0 { d *= Decimal128.doublePowersOf10[e] } else { d /= Decimal128.doublePowersOf10[-e] }
                return parts.negative ? -d : d
            }
            // Swift's `Double(String)` is correctly rounded; the canonical string is always valid for it.
            return Double(Decimal128.format(negative: parts.negative, coefficient: c, exponent: e)) ?? .nan
        }
    }
}

// MARK: - Implementation

extension Decimal128 {
    /// Exponent bias of the BID encoding: stored exponent = exponent + 6176.
    static let exponentBias = 6176
    /// Smallest exponent (of the integer coefficient).
    static let minExponent = -6176
    /// Largest exponent (of the integer coefficient).
    static let maxExponent = 6111
    /// Decimal digits a coefficient can hold.
    static let maxDigits = 34

    /// 10^0 … 10^19 (all that fit in `UInt64`).
    static let powersOf10: [UInt64] = {
        var out: [UInt64] = [1]
        for _ in 1...19 { out.append(out[out.count - 1] * 10) }
        return out
    }()

    /// 10^0 … 10^22, each exact in binary64.
    static let doublePowersOf10: [Double] = {
        var out: [Double] = [1]
        for _ in 1...22 { out.append(out[out.count - 1] * 10) }
        return out
    }()

    enum Kind { case finite, infinity, nan }

    /// Sign, kind, integer coefficient and exponent of the encoding. Coefficients above
    /// 10^34 − 1 and the `11` combination form of finite numbers are non-canonical and read as
    /// zero, as the spec requires.
    func decode() -> (kind: Kind, negative: Bool, coefficient: CoefficientBits, exponent: Int) {
        let negative = high >> 63 == 1
        let combination = (high >> 58) & 0x1F
        if combination == 0x1F { return (.nan, negative, CoefficientBits(high: 0, low: 0), 0) }
        if combination == 0x1E { return (.infinity, negative, CoefficientBits(high: 0, low: 0), 0) }
        if (high >> 61) & 0b11 == 0b11 {
            // The implied coefficient 0b100… ≥ 2^113 exceeds the 34-digit maximum: it is zero.
            let biased = Int((high >> 47) & 0x3FFF)
            return (.finite, negative, CoefficientBits(high: 0, low: 0), biased - Decimal128.exponentBias)
        }
        let biased = Int((high >> 49) & 0x3FFF)
        var coefficient = CoefficientBits(high: high & 0x1_FFFF_FFFF_FFFF, low: low)
        if !coefficient.isBelowTenToThe34 { coefficient = CoefficientBits(high: 0, low: 0) }
        return (.finite, negative, coefficient, biased - Decimal128.exponentBias)
    }

    /// IEEE 754 to-scientific-string of a finite value.
    static func format(negative: Bool, coefficient: CoefficientBits, exponent: Int) -> String {
        // Longest output: "-0.00000" + 34 digits (plain) or "-d." + 33 digits + "E-6176" (scientific).
        String(unsafeUninitializedCapacity: 64) { out in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { scratch in
                // Digits of the coefficient, written right to left into `scratch`.
                var start = scratch.count
                func writeDigits(_ value: UInt64, minimumCount: Int) {
                    var v = value
                    var written = 0
                    repeat {
                        start -= 1
                        scratch[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                        v /= 10
                        written += 1
                    } while v != 0 || written < minimumCount
                }
                if coefficient.high == 0 {
                    writeDigits(coefficient.low, minimumCount: 1)
                } else {
                    // high < 2^49 < 10^19, so the quotient fits in UInt64 and is at least 1.
                    let (q, r) = Decimal128.powersOf10[19].dividingFullWidth((coefficient.high, coefficient.low))
                    writeDigits(r, minimumCount: 19)
                    writeDigits(q, minimumCount: 1)
                }
                let digits = UnsafeBufferPointer(rebasing: scratch[start...])
                let count = digits.count
                let adjusted = exponent + count - 1

                var n = 0
                func put(_ c: UInt8) { out[n] = c; n += 1 }
                if negative { put(UInt8(ascii: "-")) }
                if exponent > 0 || adjusted < -6 {
                    put(digits[0])
                    if count > 1 {
                        put(UInt8(ascii: "."))
                        for d in digits[1...] { put(d) }
                    }
                    put(UInt8(ascii: "E"))
                    put(adjusted < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                    // At most 4 digits: |adjusted| ≤ 6176 + 33.
                    var e = adjusted.magnitude
                    var divisor: UInt = 1
                    while divisor * 10 <= e { divisor *= 10 }
                    while divisor > 0 {
                        put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: e / divisor))
                        e %= divisor
                        divisor /= 10
                    }
                } else if exponent == 0 {
                    for d in digits { put(d) }
                } else {
                    let fraction = -exponent
                    if count > fraction {
                        for d in digits[..<(count - fraction)] { put(d) }
                        put(UInt8(ascii: "."))
                        for d in digits[(count - fraction)...] { put(d) }
                    } else {
                        // adjusted ≥ -6 keeps this to at most 5 leading zeros.
                        put(UInt8(ascii: "0"))
                        put(UInt8(ascii: "."))
                        for _ in 0..<(fraction - count) { put(UInt8(ascii: "0")) }
                        for d in digits { put(d) }
                    }
                }
                return n
            }
        }
    }

    /// Outcome of parsing: a value or the reason it was rejected (the caller adds the input).
    enum ParseOutcome {
        case success(Decimal128)
        case failure(String)
    }

    /// Parses UTF-8 bytes; see ``init(string:)`` for the accepted grammar.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParseOutcome {
        let n = bytes.count
        guard n > 0 else { return .failure("empty string") }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        let sign: UInt64 = negative ? 1 << 63 : 0

        // Specials: the whole rest must be inf, infinity or nan, in any case.
        if i < n, isASCIILetter(bytes[i]) {
            let rest = UnsafeBufferPointer(rebasing: bytes[i...])
            if equalsIgnoringCase(rest, "inf") || equalsIgnoringCase(rest, "infinity") {
                return .success(Decimal128(high: sign | 0x7800_0000_0000_0000, low: 0))
            }
            if equalsIgnoringCase(rest, "nan") {
                return .success(Decimal128(high: sign | 0x7C00_0000_0000_0000, low: 0))
            }
            return .failure("not a number (expected digits, Infinity or NaN)")
        }

        // Significand. Up to 34 significant digits go into the coefficient; later zeros are
        // dropped (raising the exponent, which is exact); a later nonzero digit would need rounding.
        var coefficient = CoefficientBits(high: 0, low: 0)
        var digitCount = 0  // digits in `coefficient`, the first of them nonzero
        var droppedZeros = 0
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        var needsRounding = false
        while i < n {
            let c = bytes[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                sawDigit = true
                if sawPoint { fractionDigits += 1 }
                let d = UInt64(c - UInt8(ascii: "0"))
                if digitCount == 0 && d == 0 {
                    // Leading zero: no effect on the coefficient.
                } else if digitCount < maxDigits {
                    coefficient.multiplyAdd(10, d)
                    digitCount += 1
                } else if d == 0 {
                    droppedZeros += 1
                } else {
                    needsRounding = true
                }
            } else if c == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return .failure("expected digits") }

        // Exponent, saturated far beyond any usable value so huge inputs cannot overflow `Int`.
        var exponentValue = 0
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var exponentNegative = false
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var exponentDigits = 0
            while i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                if exponentValue < 1_000_000_000_000 {
                    exponentValue = exponentValue * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return .failure("expected exponent digits after 'E'") }
            if exponentNegative { exponentValue = -exponentValue }
        }
        guard i == n else {
            return .failure("unexpected character at offset \(i)")
        }
        guard !needsRounding else {
            return .failure("more than 34 significant digits (the value would be rounded)")
        }

        var exponent = exponentValue - fractionDigits + droppedZeros
        if digitCount == 0 {
            // Zero keeps its sign; clamping the exponent of zero is exact.
            exponent = Swift.min(Swift.max(exponent, minExponent), maxExponent)
        } else {
            // Too large: pad the coefficient with zeros while it has room (exact clamping).
            while exponent > maxExponent && digitCount < maxDigits {
                coefficient.multiplyAdd(10, 0)
                digitCount += 1
                exponent -= 1
            }
            guard exponent <= maxExponent else {
                return .failure("overflow (the exponent is too large for decimal128)")
            }
            // Too small: drop trailing zeros of the coefficient, which is exact.
            while exponent < minExponent {
                let (q, r) = coefficient.quotientAndRemainder(dividingBy: 10)
                guard r == 0 else {
                    return .failure("underflow (the value is too small to store without rounding)")
                }
                coefficient = q
                exponent += 1
            }
        }
        let biased = UInt64(exponent + exponentBias)
        return .success(Decimal128(high: sign | biased << 49 | coefficient.high, low: coefficient.low))
    }

    private static func isASCIILetter(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for (a, b) in zip(bytes, expected) where a | 0x20 != b {
            return false
        }
        return true
    }
}

/// A minimal unsigned 128-bit integer for coefficients (below 10^34 < 2^113). Swift's own
/// `UInt128` would need macOS 15, and only multiply-add and division by small numbers are needed.
struct CoefficientBits: Sendable, Equatable {
    var high: UInt64
    var low: UInt64

    var isZero: Bool { high == 0 && low == 0 }

    /// Whether the value is at most 10^34 − 1, the largest canonical coefficient.
    var isBelowTenToThe34: Bool {
        // 10^34 = 0x0001_ED09_BEAD_87C0 : 0x378D_8E64_0000_0000
        high < 0x0001_ED09_BEAD_87C0 || (high == 0x0001_ED09_BEAD_87C0 && low < 0x378D_8E64_0000_0000)
    }

    /// `self = self * multiplier + addend`; callers keep the result below 2^128.
    mutating func multiplyAdd(_ multiplier: UInt64, _ addend: UInt64) {
        let product = low.multipliedFullWidth(by: multiplier)
        let (newLow, carry) = product.low.addingReportingOverflow(addend)
        high = high &* multiplier &+ product.high &+ (carry ? 1 : 0)
        low = newLow
    }

    /// Quotient and remainder of division by a nonzero `divisor`.
    func quotientAndRemainder(dividingBy divisor: UInt64) -> (CoefficientBits, UInt64) {
        let (qHigh, rHigh) = high.quotientAndRemainder(dividingBy: divisor)
        // rHigh < divisor, so the full-width division cannot overflow.
        let (qLow, r) = divisor.dividingFullWidth((rHigh, low))
        return (CoefficientBits(high: qHigh, low: qLow), r)
    }
}
