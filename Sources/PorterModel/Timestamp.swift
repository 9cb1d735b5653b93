import Foundation

/// A point in time with microsecond precision, stored as microseconds since 1970-01-01T00:00:00Z.
///
/// Why not `Foundation.Date`: a `Double` of seconds cannot hold microseconds exactly for years far
/// from 2001, and Porter promises exact values for years 0001–9999 (and beyond: the int64 range
/// covers about ±292,000 years).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since the Unix epoch (negative before 1970).
    public var microseconds: Int64

    /// Wraps a count of microseconds since the epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// From milliseconds since the epoch (the BSON datetime unit).
    /// - Throws: ``PorterError/Code/invalidValue`` when the value is outside what microseconds can hold.
    public init(milliseconds: Int64) throws {
        let (value, overflow) = milliseconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else {
            throw PorterError(.invalidValue, "date \(milliseconds) ms since 1970 is outside the supported range (about ±292,000 years)")
        }
        microseconds = value
    }

    /// From a Foundation date, rounded to the nearest microsecond. Dates beyond the int64 range
    /// saturate and a NaN date becomes the epoch, so a conversion never traps.
    public init(_ date: Date) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        if micros.isNaN {
            microseconds = 0
        } else if micros >= 9.223372036854775e18 {
            microseconds = .max
        } else if micros <= -9.223372036854775e18 {
            microseconds = .min
        } else {
            microseconds = Int64(micros)
        }
    }

    /// Milliseconds since the epoch, rounded toward negative infinity (finer digits dropped).
    public var milliseconds: Int64 { microseconds.floorDiv(1000) }

    /// Whether the value has digits below the millisecond.
    public var hasSubMillisecondPrecision: Bool { microseconds.floorMod(1000) != 0 }

    /// A Foundation date (may round for years far from 2001).
    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    /// The ISO 8601 form, UTC, with 0, 3 or 6 fraction digits: as many as needed to be exact.
    public var description: String { iso8601 }

    /// Orders by time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    @inlinable func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
    /// Remainder with the sign of the divisor.
    @inlinable func floorMod(_ d: Int64) -> Int64 {
        // Adjusting `%` directly: `self - floorDiv(d) * d` overflows near Int64.min.
        let r = self % d
        return (r != 0 && (r < 0) != (d < 0)) ? r + d : r
    }
}
