import Foundation
import PorterModel

/// Options of string comparisons, as Realm's `StringOptions` (`[c]`, `[d]`, `[cd]` in a predicate string).
public struct StringOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int8
    /// Creates options from raw bits.
    public init(rawValue: Int8) { self.rawValue = rawValue }
    /// `a` matches `A`.
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// `e` matches `é`.
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    /// The Foundation comparison options.
    package var foundation: String.CompareOptions {
        var out: String.CompareOptions = []
        if contains(.caseInsensitive) { out.insert(.caseInsensitive) }
        if contains(.diacriticInsensitive) { out.insert(.diacriticInsensitive) }
        return out
    }
}

/// Property names from the queried class, through links and collections, and an optional
/// aggregate over the collection the path ends in or goes through.
package struct QueryPath: CustomStringConvertible {
    package var components: [String]
    package var aggregate: QueryAggregate?
    /// Where the path starts in the query text (1-based), when it comes from one.
    package var position: Int?

    package init(_ components: [String], aggregate: QueryAggregate? = nil, position: Int? = nil) {
        self.components = components
        self.aggregate = aggregate
        self.position = position
    }

    package func appending(_ name: String) -> QueryPath {
        QueryPath(components + [name], aggregate: aggregate, position: position)
    }

    /// `owner.name`, `dogs.@count`.
    package var description: String {
        (components + (aggregate.map { ["@\($0)"] } ?? [])).joined(separator: ".")
    }

    /// ` at 5` when the position is known, else empty: the end of an error message.
    package var at: String { position.map { " at \($0)" } ?? "" }
}

/// Collection aggregates.
package enum QueryAggregate: String {
    case count, min, max, sum, avg
}

/// How a condition on a path through a collection treats its elements.
package enum QueryQuantifier {
    case any, all, noneOf
}

/// Comparison and string operators.
package enum QueryOperator {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case beginsWith, endsWith, contains, like
}

/// A value a query compares with: a literal of the query text, or a value the caller gave (`%@`,
/// or a typed query's Swift value), which the face running the query encodes (the typed API
/// encodes its objects as links).
package enum QueryArgument {
    case literal(Value)
    case given(Any?)

    /// The value of a literal, or of a given value of a plain Swift type (String, integers,
    /// floating point, Bool, nil); what runs queries without the typed API uses this.
    /// - Throws: ``PorterError/Code/invalidValue`` for any other given value.
    package func plainValue() throws -> Value {
        switch self {
        case .literal(let value): return value
        case .given(let given):
            guard let given else { return .null }
            switch given {
            case let v as String: return .string(v)
            case let v as Bool: return .bool(v)
            case let v as Int: return .int(Int64(v))
            case let v as Int64: return .int(v)
            case let v as Int32: return .int(Int64(v))
            case let v as Double: return .double(v)
            case let v as Float: return .float(v)
            case let v as Value: return v
            default: throw PorterError(.invalidValue, "a \(type(of: given)) cannot be a query argument here")
            }
        }
    }
}

/// A condition a face evaluates itself (the typed API's `geoWithin`): the shared evaluator
/// refuses it with ``description``.
package protocol QueryOpaqueCondition {
    /// What the condition is, for messages.
    var description: String { get }
}

/// A condition on stored properties.
package indirect enum QueryPredicate {
    case compare(QueryPath, QueryOperator, QueryArgument, StringOptions, QueryQuantifier = .any)
    case between(QueryPath, QueryArgument, QueryArgument)
    case `in`(QueryPath, [QueryArgument])
    case and(QueryPredicate, QueryPredicate)
    case or(QueryPredicate, QueryPredicate)
    case not(QueryPredicate)
    case constant(Bool)
    case invalid(String)
    /// A condition only one face can evaluate (the typed API's `geoWithin`).
    case opaque(QueryPath, any QueryOpaqueCondition)

    /// The same predicate with every argument replaced by the value `resolve` gives it.
    package func resolvingArguments(_ resolve: (QueryArgument, QueryPath) throws -> Value) rethrows -> QueryPredicate {
        switch self {
        case .compare(let path, let op, let argument, let options, let quantifier):
            return .compare(path, op, .literal(try resolve(argument, path)), options, quantifier)
        case .between(let path, let low, let high):
            return .between(path, .literal(try resolve(low, path)), .literal(try resolve(high, path)))
        case .in(let path, let arguments):
            return .in(path, try arguments.map { .literal(try resolve($0, path)) })
        case .and(let lhs, let rhs):
            return .and(try lhs.resolvingArguments(resolve), try rhs.resolvingArguments(resolve))
        case .or(let lhs, let rhs):
            return .or(try lhs.resolvingArguments(resolve), try rhs.resolvingArguments(resolve))
        case .not(let operand): return .not(try operand.resolvingArguments(resolve))
        case .constant, .invalid, .opaque: return self
        }
    }

    /// Every key path the predicate names, in the order written.
    package var paths: [QueryPath] {
        switch self {
        case .compare(let path, _, _, _, _), .between(let path, _, _), .in(let path, _), .opaque(let path, _):
            return [path]
        case .and(let lhs, let rhs), .or(let lhs, let rhs): return lhs.paths + rhs.paths
        case .not(let operand): return operand.paths
        case .constant, .invalid: return []
        }
    }
}
