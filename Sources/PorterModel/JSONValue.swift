/// A JSON document as a tree that keeps everything a schema or fixture file says: object keys in
/// file order (duplicates included, so callers can report them) and numbers as their literal text
/// (so `1.0`, `1e3` and 19-digit integers are never rounded through `Double`).
///
/// Parsing lives in `JSONValue+Parse.swift`, writing in `JSONValue+Write.swift`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its exact literal text (`-12`, `1.50`, `6.02e23`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: members in file order, duplicates kept.
    case object([JSONMember])

    /// An integer number.
    public static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    /// An integer number.
    public static func number(_ value: Int64) -> JSONValue { .number(String(value)) }

    /// An unsigned integer number.
    public static func number(_ value: UInt64) -> JSONValue { .number(String(value)) }

    /// A number with the shortest text that reads back as the same `Double`; `null` for NaN and
    /// infinities, which JSON cannot express.
    public static func number(_ value: Double) -> JSONValue {
        value.isFinite ? .number(value.description) : .null
    }

    /// A number with the shortest text that reads back as the same `Float`; `null` for NaN and
    /// infinities, which JSON cannot express.
    public static func number(_ value: Float) -> JSONValue {
        value.isFinite ? .number(value.description) : .null
    }

    /// An object with these members, in this order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember($0.key, $0.value) })
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The value of the first member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index`, if this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// The members in file order, if this is an object.
    public var objectMembers: [JSONMember]? { if case .object(let m) = self { return m } else { return nil } }

    /// The literal text, if this is a number.
    public var numberText: String? { if case .number(let n) = self { return n } else { return nil } }

    /// The number as an `Int64` when its exact value is an integer in range (`3`, `3.0`, `3e2`).
    public var int64Value: Int64? { numberText.flatMap(JSONValue.integerDigits).flatMap { Int64($0) } }

    /// The number as a `UInt64` when its exact value is a non-negative integer in range.
    public var uint64Value: UInt64? { numberText.flatMap(JSONValue.integerDigits).flatMap { UInt64($0) } }

    /// The number as the nearest `Double` (infinite when out of range).
    public var doubleValue: Double? { numberText.flatMap { Double($0) } }

    /// Keys that occur more than once in this object, each listed once, in first-occurrence order.
    public var duplicateKeys: [String] {
        guard let members = objectMembers else { return [] }
        var seen = Set<String>()
        var reported = Set<String>()
        var result: [String] = []
        for member in members where !seen.insert(member.key).inserted {
            if reported.insert(member.key).inserted { result.append(member.key) }
        }
        return result
    }

    /// A short name of the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The decimal digits (with `-` when negative) of a JSON number literal whose exact value is
    /// an integer, or nil when it has a non-zero fraction or more than 20 digits.
    ///
    /// Works on the text instead of going through `Double` so `9007199254740993` and
    /// `1.5e1` are judged exactly.
    static func integerDigits(_ literal: String) -> String? {
        var bytes = Array(literal.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        for index in bytes.indices {
            let c = bytes[index]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                digits.append(c)
            } else if c == UInt8(ascii: "."), pointPosition == nil {
                pointPosition = digits.count
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                // Clamped: anything past ±10,000 is far outside every integer type anyway.
                let text = String(decoding: bytes[(index + 1)...], as: UTF8.self)
                guard let e = Int(text) ?? (text.count > 1 ? (text.hasPrefix("-") ? -10_000 : 10_000) : nil) else {
                    return nil
                }
                exponent = max(-10_000, min(10_000, e))
                break
            } else {
                return nil
            }
        }
        guard !digits.isEmpty else { return nil }
        guard let firstNonZero = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else { return "0" }
        // The value is 0.d1d2d3… × 10^point, counting from the first digit.
        let point = (pointPosition ?? digits.count) + exponent
        guard point > firstNonZero else { return nil }
        if point < digits.count, digits[point...].contains(where: { $0 != UInt8(ascii: "0") }) { return nil }
        let integerCount = point - firstNonZero
        guard integerCount <= 20 else { return nil }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        out.append(contentsOf: digits[firstNonZero..<min(point, digits.count)])
        if point > digits.count {
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
