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
///
/// Besides property names, `components` holds realm-core's backlink steps: `@links` (followed by
/// nothing: the objects linking here through any property, for `@links.@count`) or `@links`,
/// `Class`, `property` (the objects of `Class` whose `property` links here, as a linking-objects
/// property would). A component may carry a subscript (`dict['key']`, `list[0]`).
package struct QueryPath: CustomStringConvertible {
    package var components: [String]
    package var aggregate: QueryAggregate?
    /// Where the path starts in the query text (1-based), when it comes from one.
    package var position: Int?
    /// `@type`, `@keys` or `@values` at the end of the path.
    package var operation: QueryPathOperation?
    /// The subscripts of a component, by the component's index, applied in order (`tags['a']` is
    /// `tags` with `'a'`; `mixed[*][0]` is `mixed` with `*`, then `0`).
    package var subscripts: [Int: [QuerySubscript]] = [:]
    /// The components followed by `.@values.` in the middle of the path (`pets.@values.age`): the
    /// path goes on through the dictionary's values.
    package var valuesSteps: Set<Int> = []

    package init(_ components: [String], aggregate: QueryAggregate? = nil, position: Int? = nil) {
        self.components = components
        self.aggregate = aggregate
        self.position = position
    }

    package func appending(_ name: String) -> QueryPath {
        var out = self
        out.components.append(name)
        return out
    }

    /// The component of realm-core's backlinks, `@links`.
    package static let links = "@links"

    /// Whether the path needs more than property names and an aggregate (backlinks, subscripts,
    /// `@type`/`@keys`/`@values`): only the object-by-object evaluator ``QueryMatcher`` reads those.
    package var isExtended: Bool {
        operation != nil || !subscripts.isEmpty || !valuesSteps.isEmpty || components.contains(Self.links)
    }

    /// `owner.name`, `dogs.@count`, `tags['a']`, `@links.Person.dogs.@count`.
    package var description: String {
        var parts: [String] = []
        for (index, name) in components.enumerated() {
            parts.append(name + (subscripts[index] ?? []).map { "[\($0)]" }.joined())
            if valuesSteps.contains(index) { parts.append("@values") }
        }
        if let operation { parts.append("@\(operation.rawValue)") }
        if let aggregate { parts.append("@\(aggregate)") }
        return parts.joined(separator: ".")
    }

    /// ` at 5` when the position is known, else empty: the end of an error message.
    package var at: String { position.map { " at \($0)" } ?? "" }
}

/// What a path ending in `@type`, `@keys` or `@values` gives.
package enum QueryPathOperation: String {
    /// The type name of each value (`mixedValue.@type == 'string'`).
    case type
    /// The keys of a dictionary.
    case keys
    /// The values of a dictionary.
    case values
}

/// A subscript of a path component: a dictionary's key, a list's index, realm-core's `[FIRST]`
/// and `[LAST]` of a list, or `[*]`, every element of a list, set or dictionary.
package enum QuerySubscript: CustomStringConvertible {
    case key(String)
    case index(Int)
    case first
    case last
    case all

    package var description: String {
        switch self {
        case .key(let key): return "'\(key)'"
        case .index(let index): return String(index)
        case .first: return "FIRST"
        case .last: return "LAST"
        case .all: return "*"
        }
    }
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
    /// `SUBQUERY(collection, $x, predicate).@count op value`: how many elements of the collection
    /// `predicate` holds for (its paths start at the element: `$x.age` is `age`, `$x` alone is a
    /// primitive element itself), compared with a value.
    case subquery(QueryPath, variable: String, QueryPredicate, QueryOperator, QueryArgument)
    /// Two key paths compared with each other (`age > otherAge`, `name ==[c] owner.name`): any,
    /// all or none of the left side's values against any value of the right side.
    case comparePaths(QueryPath, QueryOperator, QueryPath, StringOptions, QueryQuantifier)
    /// realm-core's arithmetic (`age * 2 > owner.age + 1`): any, all or none of the left side's
    /// values against any value of the right side (== != < <= > >= only).
    case arithmetic(QueryExpression, QueryOperator, QueryExpression, QueryQuantifier)

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
        case .subquery(let path, let variable, let inner, let op, let argument):
            return .subquery(
                path, variable: variable, try inner.resolvingArguments(resolve), op,
                .literal(try resolve(argument, path)))
        case .arithmetic(let lhs, let op, let rhs, let quantifier):
            return .arithmetic(try lhs.resolvingArguments(resolve), op, try rhs.resolvingArguments(resolve), quantifier)
        case .constant, .invalid, .opaque, .comparePaths: return self
        }
    }

    /// Whether this condition (not looking into AND, OR, NOT) needs the object-by-object evaluator
    /// ``QueryMatcher``: a SUBQUERY, or a path with backlinks, subscripts, `@type`, `@keys`, `@values`.
    package var needsObjectMatcher: Bool {
        switch self {
        case .subquery, .comparePaths, .arithmetic: return true
        case .compare(let path, _, _, _, _), .between(let path, _, _), .in(let path, _): return path.isExtended
        default: return false
        }
    }

    /// Every key path the predicate names, in the order written (a SUBQUERY's collection only:
    /// its inner paths start at the collection's elements).
    package var paths: [QueryPath] {
        switch self {
        case .compare(let path, _, _, _, _), .between(let path, _, _), .in(let path, _), .opaque(let path, _),
            .subquery(let path, _, _, _, _):
            return [path]
        case .comparePaths(let lhs, _, let rhs, _, _): return [lhs, rhs]
        case .arithmetic(let lhs, _, let rhs, _): return lhs.paths + rhs.paths
        case .and(let lhs, let rhs), .or(let lhs, let rhs): return lhs.paths + rhs.paths
        case .not(let operand): return operand.paths
        case .constant, .invalid: return []
        }
    }
}
