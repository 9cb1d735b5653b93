import Foundation
import PorterModel

/// realm-core's literal forms that NSPredicate has not: `uuid(…)`, `T<seconds>:<nanoseconds>`,
/// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]` (or `T` instead of `@`, UTC), `B64"…"`, `inf`/`infinity`
/// and `nan` (with an optional sign, any case).
enum QueryLiterals {
    enum Kind { case uuid, timestamp, date, base64, special }

    /// A literal that is malformed: what was expected.
    struct Invalid: Error { let text: String }

    /// The literal form starting at `at`, if any (it may still be malformed).
    static func kind(of text: [Character], at start: Int) -> Kind? {
        func word(from i: Int) -> String {
            var end = i
            while end < text.count, text[end].isLetter { end += 1 }
            return String(text[i..<end])
        }
        guard start < text.count else { return nil }
        let c = text[start]
        if c == "u" || c == "U", word(from: start).lowercased() == "uuid", start + 4 < text.count,
            text[start + 4] == "("
        {
            return .uuid
        }
        if c == "B", start + 3 < text.count, String(text[start..<start + 4]) == "B64\"" { return .base64 }
        if c == "T", start + 1 < text.count, text[start + 1].isNumber || "+-".contains(text[start + 1]) {
            var i = start + 1
            if "+-".contains(text[i]) { i += 1 }
            while i < text.count, text[i].isNumber { i += 1 }
            if i < text.count, text[i] == ":" { return .timestamp }
        }
        if c.isNumber {
            // YYYY-MM-DD followed by @ or T.
            var i = start
            for part in 0..<3 {
                let digitsStart = i
                while i < text.count, text[i].isNumber { i += 1 }
                guard i > digitsStart, i < text.count else { return nil }
                if part < 2 {
                    guard text[i] == "-" else { return nil }
                    i += 1
                }
            }
            return text[i] == "@" || text[i] == "T" ? .date : nil
        }
        var i = start
        if c == "+" || c == "-" { i += 1 }
        guard i < text.count, text[i].isLetter else { return nil }
        let name = word(from: i).lowercased()
        return ["inf", "infinity", "nan"].contains(name) ? .special : nil
    }

    /// The value of the literal at `start` and where it ends.
    static func read(_ kind: Kind, _ text: [Character], at start: Int) throws -> (Value, Int) {
        var i = start
        func digits(signed: Bool = false) -> Int64? {
            let begin = i
            if signed, i < text.count, "+-".contains(text[i]) { i += 1 }
            while i < text.count, text[i].isNumber { i += 1 }
            return Int64(String(text[begin..<i]))
        }
        switch kind {
        case .uuid:
            guard let close = text[start...].firstIndex(of: ")"),
                let uuid = UUID(uuidString: String(text[start + 5..<close]).trimmingCharacters(in: .whitespaces))
            else { throw Invalid(text: "expected uuid(8-4-4-4-12 hexadecimal digits)") }
            return (.uuid(uuid), close + 1)
        case .base64:
            guard let close = text[(start + 4)...].firstIndex(of: "\""),
                let data = Data(base64Encoded: String(text[start + 4..<close]))
            else { throw Invalid(text: "expected B64\"base64 text\"") }
            return (.data(data), close + 1)
        case .timestamp:
            i = start + 1
            guard let seconds = digits(signed: true), i < text.count, text[i] == ":" else {
                throw Invalid(text: "expected T<seconds>:<nanoseconds>")
            }
            i += 1
            guard let nanos = digits(signed: true), abs(nanos) < 1_000_000_000,
                seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0)
            else {
                throw Invalid(text: "expected T<seconds>:<nanoseconds> (nanoseconds of the seconds' sign, under 10^9)")
            }
            return (.date(Timestamp(seconds: seconds, nanoseconds: Int32(nanos))), i)
        case .date:
            var parts: [Int64] = []
            for separator in ["-", "-", "@T", ":", ":"] as [String] {
                guard let part = digits(), i < text.count, separator.contains(text[i]) else {
                    throw Invalid(text: "expected YYYY-MM-DD@HH:MM:SS[:nanoseconds]")
                }
                parts.append(part)
                i += 1
            }
            guard let secondsPart = digits() else { throw Invalid(text: "expected YYYY-MM-DD@HH:MM:SS[:nanoseconds]") }
            parts.append(secondsPart)
            var nanos: Int64 = 0
            if i < text.count, text[i] == ":" {
                i += 1
                guard let n = digits(), n < 1_000_000_000 else {
                    throw Invalid(text: "expected nanoseconds (0 to 999999999) after the seconds")
                }
                nanos = n
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let components = DateComponents(
                year: Int(parts[0]), month: Int(parts[1]), day: Int(parts[2]), hour: Int(parts[3]),
                minute: Int(parts[4]), second: Int(parts[5]))
            guard (1...12).contains(parts[1]), (1...31).contains(parts[2]), parts[3] < 24, parts[4] < 60,
                parts[5] < 60, let date = calendar.date(from: components)
            else { throw Invalid(text: "expected a valid date and time (YYYY-MM-DD@HH:MM:SS, UTC)") }
            let seconds = Int64(date.timeIntervalSince1970.rounded())
            // realm-core gives the nanoseconds the sign of the seconds (before 1970, further back).
            return (.date(Timestamp(seconds: seconds, nanoseconds: Int32(seconds < 0 ? -nanos : nanos))), i)
        case .special:
            var sign = 1.0
            if text[i] == "-" || text[i] == "+" {
                sign = text[i] == "-" ? -1 : 1
                i += 1
            }
            let begin = i
            while i < text.count, text[i].isLetter { i += 1 }
            let name = String(text[begin..<i]).lowercased()
            return (.double(name == "nan" ? .nan : sign * .infinity), i)
        }
    }
}
