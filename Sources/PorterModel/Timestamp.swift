import Foundation

/// A point in time with nanosecond precision, exactly as realm-core's `Timestamp`: whole seconds
/// since 1970-01-01T00:00:00Z plus nanoseconds of the same sign (|nanoseconds| < 1,000,000,000),
/// so -1.5 s is `(seconds: -1, nanoseconds: -500_000_000)`.
///
/// Why not `Foundation.Date`: a `Double` of seconds cannot hold nanoseconds (nor even microseconds
/// for years far from 2001), and Porter keeps every value a Realm file holds, for any int64 seconds.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since the Unix epoch, truncated toward zero.
    public private(set) var seconds: Int64
    /// Nanoseconds beyond `seconds`, with the sign of the instant (0 when `seconds` is 0 and the
    /// instant is exact): always in -999,999,999...999,999,999.
    public private(set) var nanoseconds: Int32

    /// An instant from seconds and nanoseconds since the epoch. Nanoseconds of ±1 s or more carry
    /// into the seconds and a sign that disagrees with the seconds is normalized (so
    /// `(1, -1)` is 0.999999999 s); at the ends of the int64 range the carry saturates.
    public init(seconds: Int64, nanoseconds: Int32) {
        var s = seconds
        var ns = Int64(nanoseconds)
        let (carry, overflow) = s.addingReportingOverflow(ns / 1_000_000_000)
        s = overflow ? (ns < 0 ? .min : .max) : carry
        ns %= 1_000_000_000
        if s > 0 && ns < 0 {
            s -= 1; ns += 1_000_000_000
        } else if s < 0 && ns > 0 {
            s += 1; ns -= 1_000_000_000
        }
        self.seconds = s
        self.nanoseconds = Int32(ns)
    }

    /// From microseconds since the epoch (exact).
    public init(microseconds: Int64) {
        self.init(seconds: microseconds / 1_000_000, nanoseconds: Int32(microseconds % 1_000_000) * 1000)
    }

    /// From milliseconds since the epoch (the BSON datetime unit); every int64 is representable.
    public init(milliseconds: Int64) {
        self.init(seconds: milliseconds / 1000, nanoseconds: Int32(milliseconds % 1000) * 1_000_000)
    }

    /// From a Foundation date, rounded to the nearest nanosecond. A `Date` is a `Double` of
    /// seconds since 2001-01-01 (read here without a detour through 1970, which would round): it is
    /// finer than a nanosecond only within about 97 days of 2001. Dates beyond the int64 range of
    /// seconds saturate and a NaN date becomes the epoch, so a conversion never traps.
    public init(_ date: Date) {
        let t = date.timeIntervalSinceReferenceDate
        if t.isNaN {
            self.init(seconds: 0, nanoseconds: 0)
        } else if t >= 9.2e18 {
            self.init(seconds: .max, nanoseconds: 999_999_999)
        } else if t <= -9.2e18 {
            self.init(seconds: .min, nanoseconds: -999_999_999)
        } else {
            // Both parts are exact: the fraction of a Double is a Double.
            let whole = t.rounded(.towardZero)
            let nanos = ((t - whole) * 1_000_000_000).rounded()
            let (seconds, overflow) = Int64(whole).addingReportingOverflow(Timestamp.referenceDateSeconds)
            self.init(seconds: overflow ? (t < 0 ? .min : .max) : seconds, nanoseconds: Int32(nanos))
        }
    }

    /// 2001-01-01T00:00:00Z, Foundation's reference date, in seconds since 1970.
    static let referenceDateSeconds: Int64 = 978_307_200

    /// Milliseconds since the epoch, rounded toward negative infinity (finer digits dropped), or
    /// nil when the instant is beyond what an int64 of milliseconds holds (about ±292 million years).
    public var milliseconds: Int64? {
        // Truncate first (seconds and nanoseconds share a sign), then floor: no step overflows
        // unless the result does.
        let (scaled, o1) = seconds.multipliedReportingOverflow(by: 1000)
        let (truncated, o2) = scaled.addingReportingOverflow(Int64(nanoseconds / 1_000_000))
        let (value, o3) = truncated.subtractingReportingOverflow(nanoseconds % 1_000_000 < 0 ? 1 : 0)
        return o1 || o2 || o3 ? nil : value
    }

    /// Whether the value has digits below the millisecond.
    public var hasSubMillisecondPrecision: Bool { nanoseconds % 1_000_000 != 0 }

    /// The nearest Foundation date: a `Date` is a `Double` of seconds since 2001-01-01, so it keeps
    /// nanoseconds only within about 97 days of 2001 and microseconds within about 270 years;
    /// farther dates round to the nearest `Double` (``init(_:)`` gives every such `Date` back exactly).
    public var date: Date {
        let (relative, overflow) = seconds.subtractingReportingOverflow(Timestamp.referenceDateSeconds)
        let whole = overflow ? Double(seconds) - Double(Timestamp.referenceDateSeconds) : Double(relative)
        return Date(timeIntervalSinceReferenceDate: whole + Double(nanoseconds) / 1_000_000_000)
    }

    /// The ISO 8601 form, UTC, with 0, 3, 6 or 9 fraction digits: as many as needed to be exact.
    public var description: String { iso8601 }

    /// Orders by time (seconds, then nanoseconds: both carry the instant's sign).
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.seconds != rhs.seconds ? lhs.seconds < rhs.seconds : lhs.nanoseconds < rhs.nanoseconds
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inlinable package func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
    /// Remainder with the sign of the divisor.
    @inlinable package func floorMod(_ d: Int64) -> Int64 {
        // Adjusting `%` directly: `self - floorDiv(d) * d` overflows near Int64.min.
        let r = self % d
        return (r != 0 && (r < 0) != (d < 0)) ? r + d : r
    }
}
