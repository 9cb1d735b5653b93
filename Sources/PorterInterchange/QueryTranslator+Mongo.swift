import Foundation
import PorterModel
import PorterQuery

/// A Realm query as a MongoDB filter document over the documents of Porter's BSON and Extended
/// JSON exports: embedded objects are nested documents, lists and sets arrays, dictionaries
/// documents, links the target's `_id` (so a filter cannot follow them: find() has no join).
struct MongoQueryTranslator {
    /// A filter document or operator value, written as relaxed Extended JSON.
    indirect enum JSON {
        case document([(String, JSON)])
        case array([JSON])
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
        case null
        case regex(String, options: String)

        var text: String {
            switch self {
            case .document(let members):
                return "{" + members.map { "\(JSON.string($0.0).text): \($0.1.text)" }.joined(separator: ", ") + "}"
            case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
            case .string(let s): return JSONValue.string(s).serialized(pretty: false)
            case .int(let i): return String(i)
            case .double(let d):
                if d.isNaN { return "{\"$numberDouble\": \"NaN\"}" }
                let text = "\(d)"
                return text.contains(".") || text.contains("e") ? text : text + ".0"
            case .bool(let b): return b ? "true" : "false"
            case .null: return "null"
            case .regex(let pattern, let options):
                return JSON.document([
                    ("$regularExpression", .document([("pattern", .string(pattern)), ("options", .string(options))]))
                ]).text
            }
        }
    }

    /// A step of a path through the document.
    enum Step {
        /// A to-one embedded object: a nested document (or null).
        case embedded(String)
        /// A list of embedded objects: an array of documents.
        case embeddedList(String)
        /// The field the path ends in; `array`: a list or set of values.
        case field(String, Property, array: Bool)
    }

    let schema: Schema
    let className: String

    /// Matches no document (every document has an `_id`).
    static let none = JSON.document([("_id", .document([("$exists", .bool(false))]))])

    func translate(_ predicate: QueryPredicate) throws -> String {
        try filter(predicate).text
    }

    func filter(_ predicate: QueryPredicate) throws -> JSON {
        switch predicate {
        case .and(let lhs, let rhs): return .document([("$and", .array([try filter(lhs), try filter(rhs)]))])
        case .or(let lhs, let rhs): return .document([("$or", .array([try filter(lhs), try filter(rhs)]))])
        case .not(let operand): return .document([("$nor", .array([try filter(operand)]))])
        case .constant(let value): return value ? .document([]) : Self.none
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)")
        case .compare(let path, let op, let argument, let options, let quantifier):
            let value = try argument.plainValue()
            let part = QueryTranslator.describe(path, op, value, options, quantifier)
            if let aggregate = path.aggregate {
                guard quantifier != .noneOf else {
                    return .document([("$nor", .array([try filter(.compare(path, op, argument, options, .any))]))])
                }
                return try count(path, aggregate, op, value, part: part)
            }
            return try quantified(path, quantifier, part: part) { property in
                try operators(property, op, value, options, part: part)
            }
        case .between(let path, let low, let high):
            let (a, b) = (try low.plainValue(), try high.plainValue())
            let part = "\(path) BETWEEN {\(QueryTranslator.literal(a)), \(QueryTranslator.literal(b))}"
            return try quantified(path, .any, part: part) { property in
                let lower = try operators(property, .greaterOrEqual, a, [], part: part)
                let upper = try operators(property, .lessOrEqual, b, [], part: part)
                guard case .document(let x) = lower, case .document(let y) = upper else { return lower }
                // Both on the one value: one operator document (NaN's exclusion once).
                var members = x
                for member in y where !members.contains(where: { $0.0 == member.0 }) { members.append(member) }
                return .document(members)
            }
        case .in(let path, let arguments):
            let values = try arguments.map { try $0.plainValue() }
            let part = "\(path) IN {\(values.map(QueryTranslator.literal).joined(separator: ", "))}"
            return try quantified(path, .any, part: part) { property in
                var items: [JSON] = []
                for value in values {
                    guard case .document(let members) = try operators(property, .equal, value, [], part: part),
                        members.count == 1, members[0].0 == "$eq"
                    else { throw QueryTranslator.refuse(part, "the values are not translated") }
                    items.append(members[0].1)
                }
                return .document([("$in", .array(items))])
            }
        case .subquery(let path, let variable, _, _, _):
            throw QueryTranslator.refuse(
                "SUBQUERY(\(path), \(variable), …).@count",
                "counting the elements that match needs $expr, not a find() filter")
        case .opaque, .comparePaths, .arithmetic: throw QueryTranslator.untranslated(predicate)
        }
    }

    /// The steps of a path, refusing what a find() filter cannot follow.
    func steps(_ path: QueryPath, part: String, counting: Bool = false) throws -> [Step] {
        // One key of a dictionary of values ending the path is a field of its document.
        let keyed = path.subscripts.count == 1 ? path.subscripts[path.components.count - 1] : nil
        guard !path.components.contains(QueryPath.links), path.operation == nil, path.valuesSteps.isEmpty,
            path.subscripts.isEmpty || keyed != nil
        else {
            throw QueryTranslator.refuse(
                part, "backlinks (@links), @type, @keys, @values and subscripts inside a path are not translated")
        }
        var cls = schema[className]
        var out: [Step] = []
        for (index, name) in path.components.enumerated() {
            let last = index == path.components.count - 1
            guard let property = cls?.property(named: name) else {
                throw PorterError(.usage, "unknown property '\(cls?.name ?? "?").\(name)'\(path.at)")
            }
            if last, let keyed {
                guard keyed.count == 1, case .key(let key) = keyed[0], property.collection == .map,
                    property.type != .object, property.type != .mixed, !key.isEmpty,
                    !key.contains("."), !key.hasPrefix("$"), path.aggregate == nil
                else {
                    throw QueryTranslator.refuse(
                        part,
                        "a subscript is translated for one key (without . or a leading $) of a dictionary of typed values"
                    )
                }
                // Null when the key is absent, as Porter reads it (a missing field is null to MongoDB).
                var element = property
                element.collection = .none
                element.isOptional = true
                out.append(.field(name + "." + key, element, array: false))
                continue
            }
            if property.isComputed {
                throw QueryTranslator.refuse(
                    part, "'\(name)' is linking objects: the documents do not hold them, and find() cannot join")
            }
            if property.collection == .map {
                throw QueryTranslator.refuse(
                    part, "'\(name)' is a dictionary, stored as a document: find() cannot test each of its values")
            }
            if property.type == .object {
                let target = property.objectType.flatMap { schema[$0] }
                if target?.isEmbedded == true {
                    if last {
                        out.append(.field(name, property, array: property.collection != .none))
                    } else {
                        out.append(property.collection == .none ? .embedded(name) : .embeddedList(name))
                    }
                    cls = target
                    continue
                }
                guard last else {
                    throw QueryTranslator.refuse(
                        part,
                        "'\(name)' links to \(property.objectType ?? "?"), stored as its _id: a find() filter cannot follow a link (that needs $lookup)"
                    )
                }
                out.append(.field(name, property, array: property.collection != .none))
                continue
            }
            out.append(.field(name, property, array: property.collection != .none))
        }
        return out
    }

    /// Any, all or none of the values the path reaches hold the operator document `test` makes.
    func quantified(_ path: QueryPath, _ quantifier: QueryQuantifier, part: String, _ test: (Property) throws -> JSON)
        throws -> JSON
    {
        let steps = try steps(path, part: part)
        guard case .field(_, let property, let array)? = steps.last else {
            throw QueryTranslator.refuse(part, "the path does not end in a value")
        }
        if property.type == .object && array {
            throw QueryTranslator.refuse(part, "objects are compared only through their properties or @count")
        }
        let operators = try test(property)
        if property.type == .mixed {
            // A mixed value may hold a list, whose elements a filter on the field would match:
            // the condition holds of a value that is not an array.
            guard steps.count == 1, case .field(let name, _, _) = steps[0] else {
                throw QueryTranslator.refuse(part, "mixed values inside embedded objects are not translated")
            }
            var equal = operators
            var negated = quantifier == .noneOf
            if case .document(let members) = operators, members.count == 1, members[0].0 == "$ne" {
                // != is "not ==": a list held by the mixed value is not equal to the argument.
                equal = .document([("$eq", members[0].1)])
                negated.toggle()
            }
            let notArray = JSON.document([(name + ".0", .document([("$exists", .bool(false))]))])
            let holds = JSON.document([("$and", .array([.document([(name, equal)]), notArray]))])
            return negated ? .document([("$nor", .array([holds]))]) : holds
        }
        switch quantifier {
        case .any: return any(steps[...], prefix: "", operators)
        case .noneOf: return .document([("$nor", .array([any(steps[...], prefix: "", operators)]))])
        case .all:
            return .document([("$nor", .array([any(steps[...], prefix: "", Self.negated(operators))]))])
        }
    }

    /// The filter (at the level of `prefix`) for "some value the steps reach holds `operators`".
    private func any(_ steps: ArraySlice<Step>, prefix: String, _ operators: JSON) -> JSON {
        guard let step = steps.first else { return .document([]) }
        let rest = steps.dropFirst()
        switch step {
        case .embedded(let name):
            // A null embedded object gives no value (Porter's path ends there).
            return .document([
                (
                    "$and",
                    .array([
                        .document([(prefix + name, .document([("$ne", .null)]))]),
                        any(rest, prefix: prefix + name + ".", operators),
                    ])
                )
            ])
        case .embeddedList(let name):
            return .document([(prefix + name, .document([("$elemMatch", any(rest, prefix: "", operators))]))])
        case .field(let name, _, let array):
            return .document([(prefix + name, array ? .document([("$elemMatch", operators)]) : operators)])
        }
    }

    /// `@count`/`@size` of an array field of the document itself.
    func count(_ path: QueryPath, _ aggregate: QueryAggregate, _ op: QueryOperator, _ value: Value, part: String)
        throws -> JSON
    {
        guard aggregate == .count else {
            throw QueryTranslator.refuse(
                part, "@\(aggregate) needs $expr or an aggregation, not a find() filter")
        }
        let steps = try steps(path, part: part, counting: true)
        guard steps.count == 1, case .field(let name, _, true) = steps[0] else {
            throw QueryTranslator.refuse(part, "@count is translated for a list or set of the queried class itself")
        }
        guard let n = QueryTranslator.integer(value) else {
            throw QueryTranslator.refuse(part, "@count is compared with integers")
        }
        // At least `k` elements: the element at k-1 exists.
        func atLeast(_ k: Int64) -> JSON {
            k <= 0 ? .document([]) : .document([(name + ".\(k - 1)", .document([("$exists", .bool(true))]))])
        }
        func fewerThan(_ k: Int64) -> JSON {
            k <= 0 ? Self.none : .document([(name + ".\(k - 1)", .document([("$exists", .bool(false))]))])
        }
        switch op {
        case .equal: return n < 0 ? Self.none : .document([(name, .document([("$size", .int(n))]))])
        case .notEqual:
            return n < 0 ? .document([]) : .document([(name, .document([("$not", .document([("$size", .int(n))]))]))])
        case .greaterOrEqual: return atLeast(n)
        case .greater: return atLeast(n + 1)
        case .less: return fewerThan(n)
        case .lessOrEqual: return fewerThan(n + 1)
        default: throw QueryTranslator.refuse(part, "@count is a number")
        }
    }

    /// The operator document testing one value of `property` (`{"$eq": …}`, `{"$gt": …}`, a regex).
    func operators(_ property: Property, _ op: QueryOperator, _ value: Value, _ options: StringOptions, part: String)
        throws -> JSON
    {
        let (ordering, equality) = try QueryTranslator.kind(op, options, part: part)
        func compare(_ v: JSON) -> JSON { .document([(Self.operatorNames[op] ?? "$eq", v)]) }
        if case .null = value {
            // Only == and != hold for nil (a missing field is null to MongoDB too).
            return equality ? compare(.null) : .document([("$in", .array([]))])
        }
        if property.type == .object {
            throw QueryTranslator.refuse(part, "a link or embedded object is compared with nil only")
        }
        if property.type == .mixed {
            guard equality, options.isEmpty else {
                throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(.mixed))
            }
            switch value {
            case .string(let s):
                try QueryTranslator.checkString(s, caseless: false, part: part)
                return compare(.string(s))
            case .bool(let b): return compare(.bool(b))
            default: throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(.mixed))
            }
        }
        switch property.type {
        case .string:
            let (s, caseless) = try QueryTranslator.stringArgument(value, options, ordering: ordering, part: part)
            if ordering { return compare(.string(s)) }
            if equality && !caseless { return compare(.string(s)) }
            // The end of the text: `$` would also match before a final newline.
            let end = "(?![\\s\\S])"
            let escaped = Self.escape(s)
            let pattern: String
            switch op {
            case .equal, .notEqual: pattern = "^" + escaped + end
            case .beginsWith: pattern = "^" + escaped
            case .endsWith: pattern = escaped + end
            case .contains: pattern = escaped
            default:
                if s.contains("?") {
                    throw QueryTranslator.refuse(
                        part, "LIKE's ? is one character (a grapheme cluster) in Porter, one code point in a regex")
                }
                pattern =
                    "^"
                    + s.split(separator: "*", omittingEmptySubsequences: false).map { Self.escape(String($0)) }
                    .joined(separator: "[\\s\\S]*") + end
            }
            let regex = JSON.document([("$in", .array([.regex(pattern, options: caseless ? "i" : "")]))])
            return op == .notEqual ? Self.negated(regex) : regex
        case .int, .bool, .float, .double:
            switch try QueryTranslator.scalarArgument(
                property, value, ordering: ordering, equality: equality, part: part)
            {
            case .bool(let b): return compare(.bool(b))
            case .int(let n): return compare(.int(n))
            case .double(let d):
                guard ordering, case .document(let members) = compare(.double(d)) else { return compare(.double(d)) }
                // MongoDB orders NaN below every number; Porter's ordering never holds for NaN.
                return .document(members + [("$ne", .double(.nan))])
            }
        default:
            throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(property.type))
        }
    }

    /// The operator document holding where `operators` does not. A regex is negated as a regex
    /// (a lookahead), with null beside it (no string operator holds for null): `$not` around a
    /// regex inside `$elemMatch` is where evaluators disagree.
    static func negated(_ operators: JSON) -> JSON {
        guard case .document(let members) = operators, members.count == 1, members[0].0 == "$in",
            case .array(let items) = members[0].1, items.count == 1, case .regex(let pattern, let options) = items[0]
        else { return .document([("$not", operators)]) }
        return .document([("$in", .array([.null, .regex("^(?![\\s\\S]*?(?:\(pattern)))", options: options)]))])
    }

    /// MongoDB's comparison operators.
    static let operatorNames: [QueryOperator: String] = [
        .equal: "$eq", .notEqual: "$ne", .less: "$lt", .lessOrEqual: "$lte", .greater: "$gt", .greaterOrEqual: "$gte",
    ]

    /// ASCII text as a regex matching it literally (a backslash before each punctuation mark,
    /// read alike by PCRE and Python's `re`).
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if c.isLetter || c.isNumber { out.append(c) } else { out += "\\" + String(c) }
        }
        return out
    }
}
