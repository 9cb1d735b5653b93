import Foundation

/// How a conversion treats values that the target type cannot hold exactly.
public enum ConversionRule: String, Sendable, Hashable, CaseIterable {
    /// Keep every value exactly or fail naming the objects whose values do not fit (the default,
    /// except for double → float).
    case exact
    /// Round to the nearest value of the target type (double → float, int → double, …); still
    /// fails on values out of the target's range.
    case nearest
    /// Drop the fraction (double or float → int, toward zero); fails on values out of range.
    case truncate
}

/// Conversions of stored values between property types: the pure part of `convert` operations.
///
/// A conversion maps each non-null element; nulls stay null (a required target needs a fill). The
/// shapes are: single value → single value, list → list, set → set, map → map (element-wise), and a
/// single value → a list or set holding it (null gives an empty collection).
public enum ValueConversion {
    /// The base-type pairs with an element conversion (besides identity and anything → mixed).
    public static let supportedPairs: Set<String> = [
        "int->string", "int->double", "int->float", "int->decimal128", "int->bool",
        "string->int", "string->double", "string->float", "string->bool", "string->date", "string->objectId",
        "string->uuid", "string->decimal128", "string->data",
        "double->int", "double->float", "double->string", "double->decimal128",
        "float->double", "float->int", "float->string",
        "bool->int", "bool->string",
        "date->string", "objectId->string", "uuid->string", "data->string",
        "decimal128->string", "decimal128->int",
    ]

    /// Whether values of `from` can be converted to `to` (shape and element types).
    public static func isSupported(from: Property, to: Property) -> Bool {
        guard from.type != .linkingObjects, to.type != .linkingObjects else { return false }
        switch (from.collection, to.collection) {
        case (.none, .none), (.list, .list), (.set, .set), (.map, .map), (.none, .list), (.none, .set): break
        default: return false
        }
        if from.type == .object || to.type == .object {
            // Links keep their target; only the shape may change (a link → a list of links).
            return from.type == to.type && from.objectType == to.objectType
        }
        return elementSupported(from.type, to.type)
    }

    /// Whether single values of `from` convert to `to`.
    public static func elementSupported(_ from: PropertyType, _ to: PropertyType) -> Bool {
        from == to || to == .mixed || from == .mixed || supportedPairs.contains("\(from.rawValue)->\(to.rawValue)")
    }

    /// Base-type pairs whose conversion never fails (so no value needs checking).
    public static let totalPairs: Set<String> = [
        "int->string", "int->decimal128", "bool->int", "bool->string", "float->double", "float->string",
        "double->string",
        "date->string", "objectId->string", "uuid->string", "decimal128->string",
    ]

    /// Whether every non-null value of `from` converts to `to` (nulls aside).
    public static func isTotal(_ from: PropertyType, _ to: PropertyType) -> Bool {
        from == to || to == .mixed || totalPairs.contains("\(from.rawValue)->\(to.rawValue)")
    }

    /// The rule used when a plan names none: `nearest` for double → float (every double with a
    /// fraction would fail `exact`), `exact` for everything else.
    public static func defaultRule(from: PropertyType, to: PropertyType) -> ConversionRule {
        from == .double && to == .float ? .nearest : .exact
    }

    /// Converts one non-null scalar `value` (of base type `from`) to base type `to`.
    /// - Throws: ``PorterError/Code/invalidValue`` with the reason (`'abc' is not an integer`).
    public static func convertElement(_ value: Value, to: PropertyType, rule: ConversionRule = .exact) throws -> Value {
        if value.isNull { return .null }
        if to == .mixed {
            switch value {
            case .list, .map: return value  // A list or dictionary nested in a mixed stays one.
            default: break
            }
            guard value.scalarType != nil || isLink(value) else {
                throw failure("a mixed value cannot hold a \(value.kindName)")
            }
            return value
        }
        if value.scalarType == to { return value }
        if case .link = value { if to == .object { return value } }
        switch (value, to) {
        case (.int(let i), .string): return .string(String(i))
        case (.int(let i), .double):
            let d = Double(i)
            guard rule != .exact || (Double(exactly: i) != nil) else {
                throw failure("\(i) cannot be stored exactly as a double")
            }
            return .double(d)
        case (.int(let i), .float):
            guard rule != .exact || Float(exactly: i) != nil else {
                throw failure("\(i) cannot be stored exactly as a float")
            }
            return .float(Float(i))
        case (.int(let i), .decimal128): return .decimal128(Decimal128(i))
        case (.int(let i), .bool):
            guard i == 0 || i == 1 else { throw failure("\(i) is not 0 or 1") }
            return .bool(i == 1)
        case (.string(let s), _): return try fromString(s, to: to, rule: rule)
        case (.double(let d), .int): return try integer(d, rule: rule)
        case (.double(let d), .float):
            let f = Float(d)
            if d.isFinite && !f.isFinite { throw failure("\(d) is out of the range of a float") }
            guard rule != .exact || Double(f) == d || d.isNaN else {
                throw failure("\(d) cannot be stored exactly as a float")
            }
            return .float(f)
        case (.double(let d), .string): return .string(d.description)
        case (.double(let d), .decimal128):
            guard d.isFinite else {
                return .decimal128(try Decimal128(string: d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity")))
            }
            return .decimal128(try decimal(d.description))
        case (.float(let f), .double): return .double(Double(f))
        case (.float(let f), .int): return try integer(Double(f), rule: rule)
        case (.float(let f), .string): return .string(f.description)
        case (.bool(let b), .int): return .int(b ? 1 : 0)
        case (.bool(let b), .string): return .string(b ? "true" : "false")
        case (.date(let t), .string): return .string(t.iso8601)
        case (.objectId(let o), .string): return .string(o.stringValue)
        case (.uuid(let u), .string): return .string(u.uuidString.lowercased())
        case (.data(let d), .string):
            guard let s = String(data: d, encoding: .utf8) else {
                throw failure("data of \(d.count) bytes is not valid UTF-8 text")
            }
            return .string(s)
        case (.decimal128(let d), .string): return .string(d.description)
        case (.decimal128(let d), .int):
            guard let i = d.exactInt64 else { throw failure("\(d) is not an integer that fits in 64 bits") }
            return .int(i)
        case (.list, _), (.map, _):
            throw failure(
                "a mixed value holding a nested \(value.kindName == "map" ? "dictionary" : "list") cannot be converted to \(to.rawValue)"
            )
        default:
            throw failure("cannot convert a \(value.kindName) value to \(to.rawValue)")
        }
    }

    private static func fromString(_ s: String, to: PropertyType, rule: ConversionRule) throws -> Value {
        let shown = s.count > 40 ? "'\(s.prefix(40))…'" : "'\(s)'"
        switch to {
        case .int:
            guard let i = Int64(s) else { throw failure("\(shown) is not an integer") }
            return .int(i)
        case .double:
            guard let d = Double(s) else { throw failure("\(shown) is not a number") }
            return .double(d)
        case .float:
            guard let d = Double(s) else { throw failure("\(shown) is not a number") }
            return try convertElement(.double(d), to: .float, rule: rule == .exact ? .nearest : rule)
        case .bool:
            switch s.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw failure("\(shown) is not true or false")
            }
        case .date:
            do { return .date(try Timestamp(iso8601: s)) } catch { throw failure("\(shown) is not an ISO 8601 date") }
        case .objectId:
            do { return .objectId(try ObjectId(string: s)) } catch {
                throw failure("\(shown) is not an ObjectId (24 hex digits)")
            }
        case .uuid:
            guard let u = UUID(uuidString: s) else { throw failure("\(shown) is not a UUID") }
            return .uuid(u)
        case .decimal128: return .decimal128(try decimal(s))
        case .data: return .data(Data(s.utf8))
        default: throw failure("cannot convert a string value to \(to.rawValue)")
        }
    }

    private static func integer(_ d: Double, rule: ConversionRule) throws -> Value {
        let value: Double
        switch rule {
        case .exact: value = d
        case .nearest: value = d.rounded(.toNearestOrEven)
        case .truncate: value = d.rounded(.towardZero)
        }
        guard let i = Int64(exactly: value) else {
            throw failure(
                value.isFinite && value.rounded() == value
                    ? "\(d) is out of the range of an int" : "\(d) is not an integral value")
        }
        return .int(i)
    }

    private static func decimal(_ text: String) throws -> Decimal128 {
        do { return try Decimal128(string: text) } catch {
            throw failure("'\(text)' is not a decimal128 that can be stored exactly")
        }
    }

    private static func isLink(_ value: Value) -> Bool { if case .link = value { return true } else { return false } }

    private static func failure(_ reason: String) -> PorterError { PorterError(.invalidValue, reason) }
}
