import Foundation
import PorterModel

/// The value rules of Realm Query Language, shared by every evaluator: what `candidate op
/// argument` means for each operator, and the collection aggregates.
package enum QueryValues {
    /// Whether `candidate op argument` holds.
    package static func holds(_ candidate: Value, _ op: QueryOperator, _ argument: Value, _ options: StringOptions)
        -> Bool
    {
        switch op {
        case .equal, .notEqual:
            let equal: Bool
            if case .string(let a) = candidate, case .string(let b) = argument, !options.isEmpty {
                equal = a.compare(b, options: options.foundation) == .orderedSame
            } else if candidate.isNull || argument.isNull {
                equal = candidate.isNull && argument.isNull
            } else {
                equal = candidate == argument || ValueOrder.compare(candidate, argument) == 0
            }
            return op == .equal ? equal : !equal
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = ValueOrder.compare(candidate, argument) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .endsWith, .contains, .like:
            guard case .string(let text) = candidate, case .string(let needle) = argument else {
                if case .data(let bytes) = candidate, case .data(let pattern) = argument, op == .contains {
                    return pattern.isEmpty || bytes.range(of: pattern) != nil
                }
                return false
            }
            let foundation = options.foundation
            switch op {
            case .beginsWith:
                return needle.isEmpty || text.range(of: needle, options: foundation.union(.anchored)) != nil
            case .endsWith:
                return needle.isEmpty
                    || text.range(of: needle, options: foundation.union([.anchored, .backwards])) != nil
            case .contains: return needle.isEmpty || text.range(of: needle, options: foundation) != nil
            default: return WildcardPattern(needle, options: options).matches(text)
            }
        }
    }

    /// Whether `candidate` lies between `low` and `high`, both included.
    package static func between(_ candidate: Value, _ low: Value, _ high: Value) -> Bool {
        guard let a = ValueOrder.compare(candidate, low), let b = ValueOrder.compare(candidate, high) else {
            return false
        }
        return a >= 0 && b <= 0
    }

    /// The value of an aggregate over `values`; `location` names the class for the error. When the
    /// path reaches one value (`isCollection` false), `@count`/`@size` is the length of a string
    /// (UTF-8 bytes, as realm-core), of data, or of a list or dictionary a mixed value holds.
    /// - Throws: ``PorterError/Code/usage`` when `@sum`/`@avg` meet a value that is not a number.
    package static func aggregate(
        _ aggregate: QueryAggregate, _ values: [Value], path: QueryPath, className: String, isCollection: Bool = true
    ) throws -> Value {
        if aggregate == .count, !isCollection {
            switch values.first {
            case .string(let text)?: return .int(Int64(text.utf8.count))
            case .data(let bytes)?: return .int(Int64(bytes.count))
            case .list(let items)?: return .int(Int64(items.count))
            case .map(let entries)?: return .int(Int64(entries.count))
            default: return .null
            }
        }
        let present = values.filter { !$0.isNull }
        switch aggregate {
        case .count: return .int(Int64(values.count))
        case .min: return present.min { ValueOrder.sortCompare($0, $1) < 0 } ?? .null
        case .max: return present.max { ValueOrder.sortCompare($0, $1) < 0 } ?? .null
        case .sum, .avg:
            var total = 0.0
            var allInts = true
            var intTotal: Int64 = 0
            for value in present {
                switch value {
                case .int(let i):
                    total += Double(i)
                    intTotal = intTotal &+ i
                case .float(let f):
                    total += Double(f)
                    allInts = false
                case .double(let d):
                    total += d
                    allInts = false
                case .decimal128(let d):
                    total += d.doubleValue
                    allInts = false
                default:
                    throw PorterError(
                        .usage, "'\(path)': @\(aggregate) needs numbers, not \(value.kindName) values",
                        location: "\(className).\(path)")
                }
            }
            if aggregate == .sum { return allInts ? .int(intTotal) : .double(total) }
            return present.isEmpty ? .null : .double(total / Double(present.count))
        }
    }
}

extension QueryValues {
    /// realm-core's type names for `@type` (lowercase) and the type each stands for.
    private static let typeNames: [String: String] = [
        "null": "null", "int": "int", "integer": "int", "int16": "int", "int32": "int", "int64": "int",
        "short": "int", "long": "int", "byte": "int", "char": "int", "bool": "bool", "boolean": "bool",
        "string": "string", "binary": "binary", "data": "binary", "bytearray": "binary", "byte[]": "binary",
        "bindata": "binary", "date": "timestamp", "datetimeoffset": "timestamp", "timestamp": "timestamp",
        "float": "float", "double": "double", "decimal128": "decimal128", "decimal": "decimal128",
        "object": "link", "link": "link", "objectid": "objectid", "uuid": "uuid", "guid": "uuid",
        "numeric": "numeric", "list": "list", "array": "list", "dictionary": "dictionary",
    ]

    /// The type name `@type` gives a value (one of ``typeNames``' values other than `numeric`).
    package static func typeName(of value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .decimal128: return "decimal128"
        case .string: return "string"
        case .data: return "binary"
        case .date: return "timestamp"
        case .objectId: return "objectid"
        case .uuid: return "uuid"
        case .link: return "link"
        case .list, .set: return "list"
        case .map, .object: return "dictionary"
        }
    }

    /// The canonical type name an `@type` comparison's argument names.
    /// - Throws: ``PorterError/Code/usage`` naming the path for anything but a known type name.
    package static func typeArgument(_ value: Value, path: QueryPath) throws -> Value {
        guard case .string(let name) = value, let canonical = typeNames[name.lowercased()] else {
            let shown: String
            if case .string(let name) = value { shown = "'\(name)'" } else { shown = "a \(value.kindName)" }
            throw PorterError(
                .usage,
                "'\(path)'\(path.at): \(shown) is not a type name (\(typeNames.keys.sorted().joined(separator: ", ")))")
        }
        return .string(canonical)
    }

    /// Whether `value` has the type a canonical type name (``typeArgument(_:path:)``) names.
    package static func hasType(_ value: Value, _ type: Value) -> Bool {
        guard case .string(let name) = type else { return false }
        let actual = typeName(of: value)
        if name == "numeric" { return ["int", "float", "double", "decimal128"].contains(actual) }
        return name == actual
    }
}

/// A `LIKE` pattern: `*` matches any run of characters, `?` exactly one.
package struct WildcardPattern {
    let pattern: [Character]
    let options: StringOptions

    package init(_ pattern: String, options: StringOptions) {
        self.pattern = Array(pattern)
        self.options = options
    }

    /// Whether all of `text` matches.
    package func matches(_ text: String) -> Bool {
        let chars = Array(text)
        // Classic two-pointer wildcard match with backtracking to the last `*`.
        var (p, t) = (0, 0)
        var star: Int?
        var resume = 0
        while t < chars.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && same(pattern[p], chars[t])) {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let s = star {
                p = s + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    private func same(_ a: Character, _ b: Character) -> Bool {
        options.isEmpty ? a == b : String(a).compare(String(b), options: options.foundation) == .orderedSame
    }
}
