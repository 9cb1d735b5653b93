import Foundation

/// Realm's `Decimal128` API: construction from numbers and strings, arithmetic and ordering.
///
/// Arithmetic goes through Foundation's `Decimal` (38 significant digits), and a result is
/// rounded to Decimal128's 34 digits; operands or results outside `Decimal`'s exponent range
/// (beyond about ±1E127) are computed in `Double`. Equality (`==`) stays exact on the encoding
/// (`1.0 != 1.00`, as their canonical strings differ); ordering (`<`) is by value.
extension Decimal128: Comparable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    /// NaN, the value for input that is not a number.
    public static var nan: Decimal128 { Decimal128(high: 0x7C00_0000_0000_0000, low: 0) }

    /// Zero.
    public init() { self.init(0 as Int64) }

    /// The value of a string, a number or a `Decimal128`, as Realm's `Decimal128(value:)`;
    /// anything else (or a string that is not a number) gives NaN.
    public init(value: Any) {
        switch value {
        case let d as Decimal128: self = d
        case let s as String: self = (try? Decimal128(string: s)) ?? .nan
        case let i as Int: self.init(Int64(i))
        case let i as Int64: self.init(i)
        case let i as Int32: self.init(Int64(i))
        case let d as Double: self.init(d)
        case let f as Float: self.init(Double(f))
        case let d as Decimal: self.init(decimal: d)
        case let n as NSNumber: self.init(number: n)
        default: self = .nan
        }
    }

    /// The value of a number, as Realm's `Decimal128(number:)`.
    public init(number: NSNumber) {
        if let exact = Int64(exactly: number) { self.init(exact) } else { self.init(number.doubleValue) }
    }

    /// The shortest decimal that reads back as `value` (`0.1` is `0.1`, not its binary expansion).
    public init(_ value: Double) {
        if value.isNaN { self = .nan; return }
        if value.isInfinite { self = (try? Decimal128(string: value < 0 ? "-Infinity" : "Infinity")) ?? .nan; return }
        self = (try? Decimal128(string: "\(value)")) ?? .nan
    }

    /// The exact value of an integer.
    public init(_ value: Int) { self.init(Int64(value)) }

    /// An integer literal.
    public init(integerLiteral value: Int64) { self.init(value) }

    /// A floating-point literal (its shortest decimal form).
    public init(floatLiteral value: Double) { self.init(value) }

    /// A string literal; NaN when it is not a number.
    public init(stringLiteral value: String) { self = (try? Decimal128(string: value)) ?? .nan }

    /// A Foundation `Decimal`, rounded to 34 significant digits.
    init(decimal: Decimal) {
        if decimal.isNaN { self = .nan; return }
        if let exact = try? Decimal128(string: decimal.description) { self = exact; return }
        var input = decimal
        var rounded = Decimal()
        let integerDigits = decimal.magnitude < 1 ? 0 : String(describing: decimal.magnitude).prefix { $0 != "." }.count
        NSDecimalRound(&rounded, &input, Decimal128.maxDigits - integerDigits, .plain)
        self =
            (try? Decimal128(string: rounded.description)) ?? Decimal128(NSDecimalNumber(decimal: decimal).doubleValue)
    }

    /// The canonical string (Realm's name for ``description``).
    public var stringValue: String { description }

    /// The value as a Foundation `Decimal`, when it is finite and within `Decimal`'s range.
    var foundationDecimal: Decimal? {
        guard !isNaN, !isInfinite else { return nil }
        return Decimal(string: description, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The absolute value.
    public var magnitude: Decimal128 { isNaN ? self : Decimal128(high: high & ~(1 << 63), low: low) }

    /// Whether the value is a signaling NaN.
    public var isSignalingNaN: Bool { isNaN && (high >> 57) & 1 == 1 }

    /// One operation through `Decimal`, or `Double` when a value is outside its range.
    private static func apply(
        _ lhs: Decimal128, _ rhs: Decimal128, _ decimal: (Decimal, Decimal) -> Decimal,
        _ double: (Double, Double) -> Double
    ) -> Decimal128 {
        if lhs.isNaN || rhs.isNaN { return .nan }
        if let a = lhs.foundationDecimal, let b = rhs.foundationDecimal {
            let result = decimal(a, b)
            if !result.isNaN { return Decimal128(decimal: result) }
        }
        return Decimal128(double(lhs.doubleValue, rhs.doubleValue))
    }

    /// The sum.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { apply(lhs, rhs, +, +) }
    /// The difference.
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { apply(lhs, rhs, -, -) }
    /// The product.
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 { apply(lhs, rhs, *, *) }
    /// The quotient (division by zero gives an infinity, or NaN for 0/0, as in IEEE 754).
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        if rhs.foundationDecimal == 0 { return Decimal128(lhs.doubleValue / 0) }
        return apply(lhs, rhs, /, /)
    }
    /// Adds in place.
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }
    /// Multiplies in place.
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }
    /// Divides in place.
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }
    /// The negated value.
    public static prefix func - (operand: Decimal128) -> Decimal128 {
        operand.isNaN ? operand : Decimal128(high: operand.high ^ (1 << 63), low: operand.low)
    }

    /// Orders by value; NaN is unordered (never less, never greater).
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        if lhs.isNaN || rhs.isNaN { return false }
        if let a = lhs.foundationDecimal, let b = rhs.foundationDecimal { return a < b }
        return lhs.doubleValue < rhs.doubleValue
    }
}

extension Decimal128: Codable {
    /// A Decimal128 from a string (as Realm encodes one), an integer or a floating-point
    /// number, as Realm decodes one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            do {
                try self.init(string: text)
            } catch {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not a Decimal128")
            }
        } else if let integer = try? container.decode(Int64.self) {
            self.init(integer)
        } else if let number = try? container.decode(Double.self) {
            self.init(number)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Cannot convert value to Decimal128")
        }
    }

    /// The decimal string, as Realm encodes a Decimal128.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
