import Foundation
import PorterModel

/// An arithmetic operator of realm-core's query language.
package enum QueryArithmeticOperator: Character {
    case plus = "+"
    case minus = "-"
    case times = "*"
    case divide = "/"
}

/// One side of a comparison with arithmetic (`age * 2 + 1 > owner.age`): key paths, values and
/// `+ - * /` between them (`*` and `/` before `+` and `-`, parentheses first).
package indirect enum QueryExpression: CustomStringConvertible {
    case path(QueryPath)
    case value(QueryArgument)
    case operation(QueryExpression, QueryArithmeticOperator, QueryExpression)

    /// The key paths of the expression, in the order written.
    package var paths: [QueryPath] {
        switch self {
        case .path(let path): return [path]
        case .value: return []
        case .operation(let lhs, _, let rhs): return lhs.paths + rhs.paths
        }
    }

    /// `(age * 2)`, for messages.
    package var description: String {
        switch self {
        case .path(let path): return path.description
        case .value(.literal(let value)): return "\(value)"
        case .value(.given): return "%@"
        case .operation(let lhs, let op, let rhs): return "(\(lhs) \(op.rawValue) \(rhs))"
        }
    }

    /// The same expression with every value replaced by the one `resolve` gives it.
    package func resolvingArguments(_ resolve: (QueryArgument, QueryPath) throws -> Value) rethrows
        -> QueryExpression
    {
        switch self {
        case .path: return self
        case .value(let argument): return .value(.literal(try resolve(argument, QueryPath([]))))
        case .operation(let lhs, let op, let rhs):
            return .operation(try lhs.resolvingArguments(resolve), op, try rhs.resolvingArguments(resolve))
        }
    }
}

/// realm-core's arithmetic on values: the common type of the two operands (int, then float,
/// double, decimal128: the wider wins), null when either is null or not a number; an int divided
/// by zero gives the largest int (the smallest for a negative dividend), never an error, so the
/// comparison just does not match; ints wrap on overflow.
package enum QueryArithmetic {
    package static func apply(_ lhs: Value, _ op: QueryArithmeticOperator, _ rhs: Value) -> Value {
        guard let a = rank(lhs), let b = rank(rhs) else { return .null }
        switch max(a, b) {
        case 0:
            guard case .int(let x) = lhs, case .int(let y) = rhs else { return .null }
            switch op {
            case .plus: return .int(x &+ y)
            case .minus: return .int(x &- y)
            case .times: return .int(x &* y)
            case .divide:
                if y == 0 { return .int(x < 0 ? .min : .max) }
                return .int(x.dividedReportingOverflow(by: y).partialValue)
            }
        case 1:
            let (x, y) = (Float(double(lhs)), Float(double(rhs)))
            return .float(apply(x, op, y))
        case 2:
            return .double(apply(double(lhs), op, double(rhs)))
        default:
            let (x, y) = (decimal(lhs), decimal(rhs))
            switch op {
            case .plus: return .decimal128(x + y)
            case .minus: return .decimal128(x - y)
            case .times: return .decimal128(x * y)
            case .divide: return .decimal128(x / y)
            }
        }
    }

    private static func apply<F: FloatingPoint>(_ x: F, _ op: QueryArithmeticOperator, _ y: F) -> F {
        switch op {
        case .plus: return x + y
        case .minus: return x - y
        case .times: return x * y
        case .divide: return x / y
        }
    }

    /// 0 int, 1 float, 2 double, 3 decimal128; nil for anything else.
    private static func rank(_ value: Value) -> Int? {
        switch value {
        case .int: return 0
        case .float: return 1
        case .double: return 2
        case .decimal128: return 3
        default: return nil
        }
    }

    private static func double(_ value: Value) -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .float(let f): return Double(f)
        case .double(let d): return d
        case .decimal128(let d): return d.doubleValue
        default: return .nan
        }
    }

    private static func decimal(_ value: Value) -> Decimal128 {
        switch value {
        case .int(let i): return Decimal128(i)
        case .decimal128(let d): return d
        default: return Decimal128(double(value))
        }
    }

    /// Checks that `path` (from `cls`) gives numbers: a numeric or mixed property, or `@count`/`@size`.
    /// - Throws: ``PorterError/Code/usage`` naming the path and its position.
    package static func checkNumeric(
        _ path: QueryPath, _ op: QueryArithmeticOperator, from cls: ObjectSchema?, schema: Schema
    )
        throws
    {
        if path.aggregate == .count || path.components.contains(QueryPath.links) { return }
        guard var current = cls else { return }
        for (index, name) in path.components.enumerated() {
            guard let property = current.property(named: name) else { return }
            if property.type == .mixed { return }
            if index == path.components.count - 1 {
                guard [.int, .float, .double, .decimal128].contains(property.type) else {
                    throw PorterError(
                        .usage,
                        "'\(path)'\(path.at): cannot perform '\(op.rawValue)' on \(current.name).\(name), a \(property.type.rawValue)"
                    )
                }
                return
            }
            guard let target = property.objectType, let next = schema[target] else { return }
            current = next
        }
    }
}
