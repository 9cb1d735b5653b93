/// ISO 8601 formatting and parsing for ``Timestamp`` without Foundation's formatters (which are
/// slow, locale-laden, and stop at millisecond precision).
extension Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS[.fff|.ffffff|.fffffffff]Z`; years outside 0000–9999 use the expanded
    /// form `±YYYYYY` (more digits when needed).
    public var iso8601: String { iso8601(minimumFractionDigits: 0) }

    /// Like ``iso8601``, but with at least `minimumFractionDigits` (0, 3, 6 or 9) fraction digits.
    public func iso8601(minimumFractionDigits: Int) -> String {
        // Floor to whole seconds without forming `seconds - 1` (which overflows at Int64.min).
        var days = seconds.floorDiv(86_400)
        var secOfDay = seconds.floorMod(86_400)
        var nanos = Int64(nanoseconds)
        if nanos < 0 {
            nanos += 1_000_000_000
            secOfDay -= 1
            if secOfDay < 0 { secOfDay += 86_400; days -= 1 }
        }
        let (y, m, d) = civilFromDays(days)
        var out = ""
        if y >= 0 && y <= 9999 {
            out += pad(y, 4)
        } else {
            out += (y < 0 ? "-" : "+") + pad(abs(y), 6)
        }
        out += "-" + pad(m, 2) + "-" + pad(d, 2)
        out += "T" + pad(secOfDay / 3600, 2) + ":" + pad(secOfDay / 60 % 60, 2) + ":" + pad(secOfDay % 60, 2)
        if nanos != 0 || minimumFractionDigits > 0 {
            if nanos % 1_000_000 == 0 && minimumFractionDigits <= 3 {
                out += "." + pad(nanos / 1_000_000, 3)
            } else if nanos % 1000 == 0 && minimumFractionDigits <= 6 {
                out += "." + pad(nanos / 1000, 6)
            } else {
                out += "." + pad(nanos, 9)
            }
        }
        return out + "Z"
    }

    /// Parses ISO 8601 date-times: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.f…]]` followed by `Z`,
    /// `±HH:MM` or `±HHMM` (a missing zone means UTC), and expanded years `±YYYYYY` (6 or more digits).
    /// Fraction digits past the ninth must be zero: Porter keeps nanoseconds and never drops data silently.
    /// - Throws: ``PorterError/Code/parseError`` quoting the text.
    public init(iso8601 text: String) throws {
        var p = ISOScanner(Array(text.utf8))
        func fail(_ why: String) -> PorterError {
            PorterError(.parseError, "invalid ISO 8601 date '\(text)': \(why)")
        }
        var sign: Int64 = 1
        let year: Int64
        if p.peek == UInt8(ascii: "+") || p.peek == UInt8(ascii: "-") {
            sign = p.peek == UInt8(ascii: "-") ? -1 : 1
            p.advance()
            // Up to 15 digits: beyond that no year fits the int64 seconds Realm stores.
            guard let y = p.number(digits: 6) else { throw fail("expected a 6-digit year") }
            var extended = y, extra = 0
            while extra < 9, let digit = p.digit() { extended = extended * 10 + digit; extra += 1 }
            year = extended
        } else {
            guard let y = p.number(digits: 4) else { throw fail("expected a 4-digit year") }
            year = y
        }
        guard p.eat("-"), let month = p.number(digits: 2), (1...12).contains(month) else {
            throw fail("expected -MM month 01-12")
        }
        guard p.eat("-"), let day = p.number(digits: 2), day >= 1, day <= daysInMonth(sign * year, month) else {
            throw fail("expected -DD, a valid day of the month")
        }
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, nanos: Int64 = 0
        var offsetSeconds: Int64 = 0
        if p.eat("T") || p.eat("t") || p.eat(" ") {
            guard let h = p.number(digits: 2), h < 24 else { throw fail("expected hour 00-23") }
            guard p.eat(":"), let mi = p.number(digits: 2), mi < 60 else { throw fail("expected :MM minutes 00-59") }
            hour = h; minute = mi
            if p.eat(":") {
                guard let s = p.number(digits: 2), s < 60 else { throw fail("expected :SS seconds 00-59") }
                second = s
                if p.eat(".") || p.eat(",") {
                    var count = 0
                    while let digit = p.digit() {
                        if count < 9 {
                            nanos = nanos * 10 + digit
                        } else if digit != 0 {
                            throw fail("more than nanosecond precision (Porter keeps 9 fraction digits)")
                        }
                        count += 1
                    }
                    guard count > 0 else { throw fail("expected fraction digits after '.'") }
                    for _ in count..<max(count, 9) { nanos *= 10 }
                }
            }
            if p.eat("Z") || p.eat("z") {
            } else if p.peek == UInt8(ascii: "+") || p.peek == UInt8(ascii: "-") {
                let offSign: Int64 = p.peek == UInt8(ascii: "-") ? -1 : 1
                p.advance()
                guard let oh = p.number(digits: 2), oh < 24 else { throw fail("expected zone offset hours") }
                _ = p.eat(":")
                guard let om = p.number(digits: 2), om < 60 else { throw fail("expected zone offset minutes") }
                offsetSeconds = offSign * (oh * 3600 + om * 60)
            }
        }
        guard p.atEnd else { throw fail("unexpected text after the date") }
        let days = daysFromCivil(sign * year, month, day)
        // Negative days count from the end of their day, so that the earliest instants (near
        // Int64.min seconds) do not overflow before the time of day is added.
        let dayBase: Int64 = days < 0 ? 1 : 0
        let (daySeconds, o1) = (days + dayBase).multipliedReportingOverflow(by: 86_400)
        let timeOfDay = hour * 3600 + minute * 60 + second - offsetSeconds - dayBase * 86_400
        var (total, o2) = daySeconds.addingReportingOverflow(timeOfDay)
        var nanoseconds = nanos
        if o2 && !o1 && nanos > 0 && total > 0 {
            // A second before Int64.min plus a fraction: count one more second, subtract the rest.
            (total, o2) = daySeconds.addingReportingOverflow(timeOfDay + 1)
            nanoseconds -= 1_000_000_000
        }
        guard !o1, !o2 else { throw fail("outside the supported range") }
        // The normalizing initializer gives realm-core's same-sign form.
        self.init(seconds: total, nanoseconds: Int32(nanoseconds))
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

private func isLeap(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

private func daysInMonth(_ y: Int64, _ m: Int64) -> Int64 {
    switch m {
    case 2: return isLeap(y) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

// Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian calendar).
package func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

package func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

/// A tiny cursor over ASCII bytes.
private struct ISOScanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    mutating func advance() { index += 1 }
    mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: c) else { return false }
        index += 1
        return true
    }
    mutating func digit() -> Int64? {
        guard let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
        index += 1
        return Int64(c - UInt8(ascii: "0"))
    }
    mutating func number(digits: Int) -> Int64? {
        var v: Int64 = 0
        for _ in 0..<digits {
            guard let d = digit() else { return nil }
            v = v * 10 + d
        }
        return v
    }
}

/// Whether `bytes` are well-formed UTF-8 (Swift's decoder: no overlong forms, no surrogates).
package func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}
