import Foundation
import PorterModel
import PorterQuery

/// A Realm query as a SQLite or PostgreSQL WHERE clause over the tables of the relational export
/// (``RelationalLayout``): the queried class's table is named by its own name, links and
/// collections become correlated subqueries (`EXISTS`, `NOT EXISTS`, `count(*)`).
struct SQLQueryTranslator {
    /// Rows of objects: a table and how the clause names it.
    struct Scope {
        let table: RelationalTable
        let ref: String
    }

    /// Where a path ends.
    enum Endpoint {
        /// A stored value: its SQL expression, the `_type` column of a mixed value, the property.
        case value(String, type: String?, Property)
        /// A to-one link's column (compared with nil only).
        case link(String)
        /// Whether a to-one embedded object is there.
        case embedded(String)
        /// Objects reached through a collection (counted, or a SUBQUERY's elements).
        case objects(Scope)
        /// The rows of a collection of links (counted), and whether it is a dictionary of
        /// embedded objects (whose null entries have no row).
        case rows(nullEntriesElsewhere: Bool)
    }

    /// A path resolved: the tables to join (`FROM` items with their join conditions), the end.
    struct Resolved {
        var from: [String] = []
        var conditions: [String] = []
        var endpoint: Endpoint
        var isCollection = false
    }

    let schema: Schema
    let layout: RelationalLayout
    let postgres: Bool
    /// Whether the clause selects what Porter's evaluator selects in every text, for running on
    /// the database itself (``QueryTranslator/storageSelection(_:className:schema:)``): substring
    /// operators, which match on code points where Porter matches whole characters, are refused.
    let exact: Bool
    let root: Scope
    private var aliases = 0

    init(schema: Schema, className: String, postgres: Bool, exact: Bool = false) throws {
        self.schema = schema
        self.postgres = postgres
        self.exact = exact
        layout = try RelationalLayout(
            schema: schema, classes: schema.classes.filter { !$0.isEmbedded }, dialect: postgres ? .postgres : .sqlite)
        guard let table = layout.topLevel.first(where: { $0.name == className }) else {
            throw PorterError(.usage, "--class \(className): no such top-level class in the schema")
        }
        root = Scope(table: table, ref: quote(className))
    }

    var trueSQL: String { postgres ? "TRUE" : "1" }
    var falseSQL: String { postgres ? "FALSE" : "0" }

    mutating func translate(_ predicate: QueryPredicate) throws -> String {
        try clause(predicate, root: .init(scope: root, element: nil))
    }

    /// Where the paths of a predicate start: an object, or a SUBQUERY's primitive element.
    struct Start {
        let scope: Scope?
        let element: Endpoint?
    }

    private mutating func alias() -> String {
        aliases += 1
        return "t\(aliases)"
    }

    mutating func clause(_ predicate: QueryPredicate, root start: Start) throws -> String {
        switch predicate {
        case .and(let lhs, let rhs):
            return "(\(try clause(lhs, root: start)) AND \(try clause(rhs, root: start)))"
        case .or(let lhs, let rhs):
            return "(\(try clause(lhs, root: start)) OR \(try clause(rhs, root: start)))"
        case .not(let operand): return "NOT (\(try clause(operand, root: start)))"
        case .constant(let value): return value ? trueSQL : falseSQL
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)")
        case .compare(let path, let op, let argument, let options, let quantifier):
            let value = try argument.plainValue()
            let part = QueryTranslator.describe(path, op, value, options, quantifier)
            if path.operation == .type {
                let type = try QueryValues.typeArgument(value, path: path)
                return try quantified(path, quantifier, start: start, part: part) { endpoint, this in
                    guard op == .equal || op == .notEqual else {
                        throw QueryTranslator.refuse(part, "@type is compared by == and != only")
                    }
                    let holds = try this.typeCondition(endpoint, [type], part: part)
                    return op == .equal ? holds : "NOT (\(holds))"
                }
            }
            return try quantified(path, quantifier, start: start, part: part) { endpoint, this in
                try this.condition(endpoint, op, value, options, part: part)
            }
        case .between(let path, let low, let high):
            let (lowValue, highValue) = (try low.plainValue(), try high.plainValue())
            let part = "\(path) BETWEEN {\(QueryTranslator.literal(lowValue)), \(QueryTranslator.literal(highValue))}"
            return try quantified(path, .any, start: start, part: part) { endpoint, this in
                let a = try this.condition(endpoint, .greaterOrEqual, lowValue, [], part: part)
                let b = try this.condition(endpoint, .lessOrEqual, highValue, [], part: part)
                return "(\(a) AND \(b))"
            }
        case .in(let path, let arguments):
            let values = try arguments.map { try $0.plainValue() }
            let part = "\(path) IN {\(values.map(QueryTranslator.literal).joined(separator: ", "))}"
            if path.operation == .type {
                let types = try values.map { try QueryValues.typeArgument($0, path: path) }
                return try quantified(path, .any, start: start, part: part) { endpoint, this in
                    try this.typeCondition(endpoint, types, part: part)
                }
            }
            return try quantified(path, .any, start: start, part: part) { endpoint, this in
                guard !values.isEmpty else { return this.falseSQL }
                return "("
                    + (try values.map { try this.condition(endpoint, .equal, $0, [], part: part) })
                    .joined(separator: " OR ") + ")"
            }
        case .subquery(let path, let variable, let inner, let op, let argument):
            let part = "SUBQUERY(\(path), \(variable), …).@count"
            guard path.aggregate == nil, !path.isExtended else {
                throw QueryTranslator.refuse(part, "the collection's path is not translated")
            }
            var resolved = try resolve(path, start: start, part: part, forElements: true)
            guard resolved.isCollection else { throw QueryTranslator.refuse(part, "'\(path)' is not a collection") }
            let elementStart: Start
            switch resolved.endpoint {
            case .objects(let scope): elementStart = Start(scope: scope, element: nil)
            case .value: elementStart = Start(scope: nil, element: resolved.endpoint)
            default: throw QueryTranslator.refuse(part, "its elements are not translated")
            }
            resolved.conditions.append(try clause(inner, root: elementStart))
            let count =
                "(SELECT count(*) FROM \(resolved.from.joined(separator: ", ")) WHERE \(resolved.conditions.joined(separator: " AND ")))"
            let value = try argument.plainValue()
            return try numberCondition(count, op, value, part: "\(part) \(QueryTranslator.literal(value))")
        case .comparePaths(let lhs, let op, let rhs, let options, let quantifier):
            return try comparePaths(lhs, op, rhs, options, quantifier, start: start)
        case .opaque, .arithmetic: throw QueryTranslator.untranslated(predicate)
        }
    }

    /// A condition on the values `path` reaches: any, all or none of them hold `test`.
    private mutating func quantified(
        _ path: QueryPath, _ quantifier: QueryQuantifier, start: Start, part: String,
        _ test: (Endpoint, inout SQLQueryTranslator) throws -> String
    ) throws -> String {
        let resolved = try values(path, start: start, part: part)
        return quantify(resolved, quantifier, try test(resolved.endpoint, &self))
    }

    /// The values `path` reaches (its aggregate's value, with nothing to join, when it has one).
    private mutating func values(_ path: QueryPath, start: Start, part: String) throws -> Resolved {
        if path.components.contains(QueryPath.links) {
            throw QueryTranslator.refuse(
                part, "backlinks (@links) are not translated (a linking-objects property of the schema is)")
        }
        guard path.valuesSteps.isEmpty, path.operation == nil || path.aggregate == nil else {
            throw QueryTranslator.refuse(part, "@values inside a path, and aggregates of @type, @keys or @values")
        }
        var resolved = try resolve(path, start: start, part: part, forElements: false)
        if let aggregate = path.aggregate {
            return Resolved(endpoint: try aggregateExpression(aggregate, &resolved, path: path, part: part))
        }
        if case .rows = resolved.endpoint {
            throw QueryTranslator.refuse(
                part, "a collection of links is compared only through its objects' properties or @count")
        }
        if case .objects = resolved.endpoint {
            throw QueryTranslator.refuse(
                part, "a collection of objects is compared only through its objects' properties or @count")
        }
        return resolved
    }

    /// Any, all or none of the values of `resolved` hold `holds`.
    private func quantify(_ resolved: Resolved, _ quantifier: QueryQuantifier, _ holds: String) -> String {
        guard !resolved.from.isEmpty else { return quantifier == .noneOf ? "NOT (\(holds))" : holds }
        let from = resolved.from.joined(separator: ", ")
        let joins = resolved.conditions.joined(separator: " AND ")
        switch quantifier {
        case .any: return "EXISTS (SELECT 1 FROM \(from) WHERE \(joins) AND \(holds))"
        case .all: return "NOT EXISTS (SELECT 1 FROM \(from) WHERE \(joins) AND NOT (\(holds)))"
        case .noneOf: return "NOT EXISTS (SELECT 1 FROM \(from) WHERE \(joins) AND \(holds))"
        }
    }

    /// Two key paths compared: any, all or none of the left side's values against any value of
    /// the right side. Translated for integers (and counts) only: strings compare by canonical
    /// equivalence in Porter, floating-point values meet NaN, mixed values decimals.
    private mutating func comparePaths(
        _ lhs: QueryPath, _ op: QueryOperator, _ rhs: QueryPath, _ options: StringOptions,
        _ quantifier: QueryQuantifier, start: Start
    ) throws -> String {
        let prefix = quantifier == .all ? "ALL " : quantifier == .noneOf ? "NONE " : ""
        let part = "\(prefix)\(lhs) \(QueryTranslator.operatorNames[op] ?? "?") \(rhs)"
        let left = try values(lhs, start: start, part: part)
        let right = try values(rhs, start: start, part: part)
        guard options.isEmpty, case .value(let l, nil, let a) = left.endpoint,
            case .value(let r, nil, let b) = right.endpoint,
            a.type == .int, b.type == .int
        else {
            throw QueryTranslator.refuse(part, "two key paths are compared when both are integers (or counts) only")
        }
        let holds: String
        switch op {
        case .equal: holds = same(l, r)
        case .notEqual: holds = "NOT (\(same(l, r)))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            holds = "(\(l) IS NOT NULL AND \(r) IS NOT NULL AND \(l) \(Self.sign(op)) \(r))"
        default: throw QueryTranslator.refuse(part, "string operators on integers")
        }
        return quantify(left, quantifier, quantify(right, .any, holds))
    }

    /// `@count`, `@size`, `@min`, `@max`, `@sum` as a value (`@avg` is refused).
    private func aggregateExpression(
        _ aggregate: QueryAggregate, _ resolved: inout Resolved, path: QueryPath, part: String
    ) throws -> Endpoint {
        let from = resolved.from.joined(separator: ", ")
        let joins = resolved.conditions.joined(separator: " AND ")
        guard resolved.isCollection else {
            // `@count`/`@size` of one string or data value: its length in bytes (UTF-8 for
            // strings, as realm-core), null when the value (or a link on the way) is null.
            guard aggregate == .count, case .value(let column, nil, let property) = resolved.endpoint,
                property.type == .string || property.type == .data
            else {
                throw QueryTranslator.refuse(part, "@\(aggregate) of a single value is not translated")
            }
            let length = postgres ? "octet_length(\(column))" : "length(CAST(\(column) AS BLOB))"
            let value = from.isEmpty ? length : "(SELECT \(length) FROM \(from) WHERE \(joins))"
            return .value(value, type: nil, Property(name: "@size", type: .int, optional: true))
        }
        let count = Property(name: "@count", type: .int)
        switch aggregate {
        case .count:
            if case .rows(let elsewhere) = resolved.endpoint, elsewhere {
                throw QueryTranslator.refuse(
                    part,
                    "a dictionary of embedded objects keeps its null entries in \(RelationalLayout.nullEntriesTable), a table made only when one is null"
                )
            }
            return .value("(SELECT count(*) FROM \(from) WHERE \(joins))", type: nil, count)
        case .avg:
            throw QueryTranslator.refuse(
                part, "Porter averages in doubles summed in order; SQL's avg rounds differently")
        case .min, .max, .sum:
            guard case .value(let expression, let typeColumn, let property) = resolved.endpoint, typeColumn == nil,
                property.type == .int || (property.type == .string && aggregate != .sum)
            else {
                throw QueryTranslator.refuse(
                    part,
                    "@\(aggregate) is translated for integers (and @min/@max for strings) only: floating-point values sum and order differently (NaN), other types are not translated"
                )
            }
            if aggregate == .sum {
                // Porter's sum of no values is 0; SQL's is null. An overflow is an error in SQL.
                let sum = postgres ? "coalesce(sum(\(expression)), 0)::bigint" : "coalesce(sum(\(expression)), 0)"
                return .value("(SELECT \(sum) FROM \(from) WHERE \(joins))", type: nil, count)
            }
            let operand = postgres && property.type == .string ? "\(expression) COLLATE \"C\"" : expression
            var result = property
            result.isOptional = true
            result.collection = .none
            return .value("(SELECT \(aggregate)(\(operand)) FROM \(from) WHERE \(joins))", type: nil, result)
        }
    }

    /// The tables a path goes through and where it ends. `forElements`: a SUBQUERY's collection,
    /// whose elements are objects when they are links.
    mutating func resolve(_ path: QueryPath, start: Start, part: String, forElements: Bool) throws -> Resolved {
        guard var scope = start.scope else {
            guard path.components.isEmpty, let element = start.element else {
                throw QueryTranslator.refuse(part, "a primitive element has no properties")
            }
            return Resolved(endpoint: element)
        }
        // The endpoint is set by the path's last component.
        var out = Resolved(endpoint: .embedded(trueSQL))
        let names = path.components
        guard !names.isEmpty else {
            throw QueryTranslator.refuse(part, "the object itself is compared only through its properties")
        }
        for (index, name) in names.enumerated() {
            let last = index == names.count - 1
            guard let cls = scope.table.objectClass, let property = cls.property(named: name) else {
                throw PorterError(
                    .usage, "unknown property '\(scope.table.objectClass?.name ?? "?").\(name)'\(path.at)")
            }
            let key = "\(scope.ref).\(quote(scope.table.keyColumn ?? "_row"))"
            let subscripts = path.subscripts[index]
            let operation = last ? path.operation : nil
            if subscripts != nil || operation == .keys || operation == .values {
                // A dictionary of values at the end of the path: one entry's value, its keys or values.
                guard last, property.collection == .map, property.type != .object,
                    let child = scope.table.children[name], child.kind == .values
                else {
                    throw QueryTranslator.refuse(
                        part, "subscripts, @keys and @values are translated for a dictionary of values ending the path")
                }
                var element = property
                element.collection = .none
                if let subscripts {
                    guard subscripts.count == 1, case .key(let entry) = subscripts[0], property.type != .mixed,
                        operation == nil
                    else {
                        throw QueryTranslator.refuse(part, "only one key of a dictionary of typed values is translated")
                    }
                    // The entry's value, null when there is no such key (as Porter reads it).
                    let a = alias()
                    element.isOptional = true
                    out.endpoint = .value(
                        "(SELECT \(a).\"value\" FROM \(quote(child.name)) AS \(a) WHERE \(a).\"owner\" = \(key) AND \(a).\"key\" = \(text(entry)))",
                        type: nil, element)
                    continue
                }
                let a = alias()
                out.isCollection = true
                out.from.append("\(quote(child.name)) AS \(a)")
                out.conditions.append("\(a).\"owner\" = \(key)")
                out.endpoint =
                    operation == .keys
                    ? .value("\(a).\"key\"", type: nil, Property(name: "@keys", type: .string))
                    : .value("\(a).\"value\"", type: property.type == .mixed ? "\(a).\"value_type\"" : nil, element)
                continue
            }
            if property.isComputed {
                guard let origin = property.objectType.flatMap({ schema[$0] }),
                    let originProperty = property.linkOriginProperty.flatMap({ origin.property(named: $0) }),
                    originProperty.collection == .none,
                    let table = layout.topLevel.first(where: { $0.name == origin.name }), scope.table.kind == .topLevel
                else {
                    throw QueryTranslator.refuse(
                        part, "'\(name)' is linking objects through a collection, which is not translated")
                }
                let a = alias()
                out.from.append("\(quote(table.name)) AS \(a)")
                out.conditions.append("\(a).\(quote(originProperty.name)) = \(key)")
                scope = Scope(table: table, ref: a)
                out.isCollection = true
                if last { out.endpoint = .objects(scope) }
                continue
            }
            if property.collection == .none {
                if property.type == .object {
                    if let child = scope.table.children[name] {
                        let a = alias()
                        let exists = "\(quote(child.name)) AS \(a) WHERE \(a).\"_owner\" = \(key)"
                        if last {
                            out.endpoint = .embedded("EXISTS (SELECT 1 FROM \(exists))")
                        } else {
                            out.from.append("\(quote(child.name)) AS \(a)")
                            out.conditions.append("\(a).\"_owner\" = \(key)")
                            scope = Scope(table: child, ref: a)
                        }
                    } else if last {
                        out.endpoint = .link("\(scope.ref).\(quote(name))")
                    } else {
                        let target = try topLevel(property, part: part)
                        let a = alias()
                        out.from.append("\(quote(target.name)) AS \(a)")
                        out.conditions.append(
                            "\(a).\(quote(target.keyColumn ?? "_key")) = \(scope.ref).\(quote(name))")
                        scope = Scope(table: target, ref: a)
                    }
                    continue
                }
                guard last else { throw QueryTranslator.refuse(part, "'\(name)' is not a link") }
                let column = "\(scope.ref).\(quote(name))"
                out.endpoint = .value(
                    column, type: property.type == .mixed ? "\(scope.ref).\(quote(name + "_type"))" : nil, property)
                continue
            }
            out.isCollection = true
            guard let child = scope.table.children[name] else {
                throw QueryTranslator.refuse(part, "'\(name)' has no table in the export")
            }
            let a = alias()
            if child.kind == .embedded {
                if forElements && last && property.collection == .map {
                    throw QueryTranslator.refuse(
                        part,
                        "a dictionary's null entries are elements too, and a dictionary of embedded objects has no rows for them"
                    )
                }
                out.from.append("\(quote(child.name)) AS \(a)")
                out.conditions.append("\(a).\"_owner\" = \(key)")
                scope = Scope(table: child, ref: a)
                if last {
                    out.endpoint =
                        forElements ? .objects(scope) : .rows(nullEntriesElsewhere: property.collection == .map)
                }
                continue
            }
            out.from.append("\(quote(child.name)) AS \(a)")
            out.conditions.append("\(a).\"owner\" = \(key)")
            if property.type == .object {
                if last && !forElements {
                    out.endpoint = .rows(nullEntriesElsewhere: false)
                    continue
                }
                if property.collection == .map {
                    throw QueryTranslator.refuse(part, "the objects of a dictionary of links are not translated")
                }
                let target = try topLevel(property, part: part)
                let b = alias()
                out.from.append("\(quote(target.name)) AS \(b)")
                out.conditions.append("\(b).\(quote(target.keyColumn ?? "_key")) = \(a).\"value\"")
                scope = Scope(table: target, ref: b)
                if last { out.endpoint = .objects(scope) }
                continue
            }
            guard last else { throw QueryTranslator.refuse(part, "'\(name)' holds values, not links") }
            var element = property
            element.collection = .none
            out.endpoint = .value(
                "\(a).\"value\"", type: property.type == .mixed ? "\(a).\"value_type\"" : nil, element)
        }
        return out
    }

    private func topLevel(_ property: Property, part: String) throws -> RelationalTable {
        guard let name = property.objectType, let table = layout.topLevel.first(where: { $0.name == name }) else {
            throw QueryTranslator.refuse(part, "the link's target class has no table in the export")
        }
        return table
    }

    /// Whether a value has one of `types` (canonical `@type` names: ``QueryValues/typeArgument(_:path:)``):
    /// a mixed value by its `_type` column, a typed one by its property's type (or null).
    func typeCondition(_ endpoint: Endpoint, _ types: [Value], part: String) throws -> String {
        guard case .value(let column, let typeColumn, let property) = endpoint else {
            throw QueryTranslator.refuse(part, "@type is translated for values only")
        }
        let names = types.compactMap { type -> String? in
            if case .string(let name) = type { return name }
            return nil
        }
        var stored = Set<String>()
        for name in names {
            stored.formUnion(name == "numeric" ? ["int", "float", "double", "decimal128"] : [name])
        }
        let null = stored.remove("null") != nil
        guard let typeColumn else {
            // A typed value: its property's type, or null.
            let own = Self.typeNames[property.type]
            let holds = own.map { stored.contains($0) } ?? false
            switch (holds, null) {
            case (true, true): return trueSQL
            case (true, false): return property.isOptional ? "\(column) IS NOT NULL" : trueSQL
            case (false, true): return property.isOptional ? "\(column) IS NULL" : falseSQL
            case (false, false): return falseSQL
            }
        }
        // The `_type` column holds the kind names of ``RelationalValues/mixedCell``.
        let kinds = stored.compactMap { Self.mixedKinds[$0] }.sorted().map(text)
        var parts: [String] = []
        if !kinds.isEmpty {
            parts.append("(\(typeColumn) IS NOT NULL AND \(typeColumn) IN (\(kinds.joined(separator: ", "))))")
        }
        if null { parts.append("\(typeColumn) IS NULL") }
        return parts.isEmpty ? falseSQL : "(" + parts.joined(separator: " OR ") + ")"
    }

    /// `@type`'s names of typed properties.
    static let typeNames: [PropertyType: String] = [
        .bool: "bool", .int: "int", .float: "float", .double: "double", .string: "string", .data: "binary",
        .date: "timestamp", .decimal128: "decimal128", .objectId: "objectid", .uuid: "uuid", .object: "link",
    ]

    /// `@type`'s names as a mixed value's `_type` column spells them.
    static let mixedKinds: [String: String] = [
        "bool": "bool", "int": "int", "float": "float", "double": "double", "string": "string", "binary": "data",
        "timestamp": "date", "decimal128": "decimal128", "objectid": "objectId", "uuid": "uuid", "link": "link",
        "list": "list", "dictionary": "dictionary",
    ]

    /// A string literal.
    func text(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// `a` equals `b` as a two-valued condition (null equals null only).
    func same(_ a: String, _ b: String) -> String {
        postgres ? "\(a) IS NOT DISTINCT FROM \(b)" : "\(a) IS \(b)"
    }

    /// A condition on a number (a count or a sum): never null.
    func numberCondition(_ expression: String, _ op: QueryOperator, _ value: Value, part: String) throws -> String {
        try condition(
            .value(expression, type: nil, Property(name: "@count", type: .int)), op, value, [], part: part)
    }

    /// `candidate op value` for one value the path reaches, two-valued.
    func condition(_ endpoint: Endpoint, _ op: QueryOperator, _ value: Value, _ options: StringOptions, part: String)
        throws -> String
    {
        let (ordering, equality) = try QueryTranslator.kind(op, options, part: part)
        let negate = { (c: String) in op == .notEqual ? "NOT (\(c))" : c }
        switch endpoint {
        case .link(let column), .embedded(let column):
            guard case .null = value, equality else {
                throw QueryTranslator.refuse(part, "a link or embedded object is compared with nil only")
            }
            if case .link = endpoint { return "\(column) IS \(op == .equal ? "" : "NOT ")NULL" }
            return op == .equal ? "NOT \(column)" : column
        case .objects, .rows:
            throw QueryTranslator.refuse(part, "objects are compared only through their properties")
        case .value(let column, let typeColumn, let property):
            if case .null = value {
                // Only == and != hold for nil (ordering and string operators never do).
                guard equality else { return falseSQL }
                return "\(typeColumn ?? column) IS \(op == .equal ? "" : "NOT ")NULL"
            }
            if let typeColumn {
                guard equality, options.isEmpty else {
                    throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(.mixed))
                }
                switch value {
                case .string(let s):
                    try QueryTranslator.checkString(s, caseless: false, part: part)
                    let json =
                        "'\""
                        + s.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "'", with: "''")
                        + "\"'::jsonb"
                    return negate(
                        "(\(same(typeColumn, "'string'")) AND \(column) = \(postgres ? json : text(s)))")
                case .bool(let b):
                    let literal = postgres ? "'\(b)'::jsonb" : (b ? "1" : "0")
                    return negate("(\(same(typeColumn, "'bool'")) AND \(column) = \(literal))")
                default:
                    throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(.mixed))
                }
            }
            switch property.type {
            case .string:
                let (s, caseless) = try QueryTranslator.stringArgument(value, options, ordering: ordering, part: part)
                if ordering {
                    let sign = Self.sign(op)
                    let left = postgres ? "\(column) COLLATE \"C\"" : column
                    return "(\(column) IS NOT NULL AND \(left) \(sign) \(text(s)))"
                }
                let subject = caseless ? (postgres ? "lower(\(column) COLLATE \"C\")" : "lower(\(column))") : column
                let needle = caseless ? s.lowercased() : s
                switch op {
                case .equal, .notEqual:
                    return negate("(\(column) IS NOT NULL AND \(subject) = \(text(needle)))")
                case .beginsWith where exact, .endsWith where exact, .contains where exact, .like where exact:
                    throw QueryTranslator.refuse(
                        part,
                        "Porter matches substrings on whole characters, SQL on code points (not exact for the database)"
                    )
                case .beginsWith, .endsWith, .contains:
                    if needle.isEmpty { return "\(column) IS NOT NULL" }
                    let n = needle.count
                    let test: String
                    switch (op, postgres) {
                    case (.beginsWith, false): test = "substr(\(subject), 1, \(n)) = \(text(needle))"
                    case (.beginsWith, true): test = "left(\(subject), \(n)) = \(text(needle))"
                    case (.endsWith, false): test = "substr(\(subject), -\(n)) = \(text(needle))"
                    case (.endsWith, true): test = "right(\(subject), \(n)) = \(text(needle))"
                    case (_, false): test = "instr(\(subject), \(text(needle))) > 0"
                    default: test = "strpos(\(subject), \(text(needle))) > 0"
                    }
                    return "(\(column) IS NOT NULL AND \(test))"
                case .like:
                    if needle.contains("?") {
                        throw QueryTranslator.refuse(
                            part, "LIKE's ? is one character (a grapheme cluster) in Porter, one code point in SQL")
                    }
                    let pattern: String
                    if postgres {
                        pattern =
                            needle.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                                of: "%", with: "\\%"
                            )
                            .replacingOccurrences(of: "_", with: "\\_").replacingOccurrences(of: "*", with: "%")
                        return "(\(column) IS NOT NULL AND \(subject) LIKE \(text(pattern)))"
                    }
                    pattern = needle.replacingOccurrences(of: "[", with: "[[]")
                    return "(\(column) IS NOT NULL AND \(subject) GLOB \(text(pattern)))"
                default: return falseSQL
                }
            case .int, .bool, .float, .double:
                let d: Double
                switch try QueryTranslator.scalarArgument(
                    property, value, ordering: ordering, equality: equality, part: part)
                {
                case .bool(let b): return negate(same(column, postgres ? (b ? "TRUE" : "FALSE") : (b ? "1" : "0")))
                case .int(let n):
                    if equality { return negate(same(column, String(n))) }
                    // A column of a required property (and a count) is never null.
                    guard property.isOptional else { return "\(column) \(Self.sign(op)) \(n)" }
                    return "(\(column) IS NOT NULL AND \(column) \(Self.sign(op)) \(n))"
                case .double(let number): d = number
                }
                let number = postgres ? "CAST('\(d)' AS double precision)" : Self.sqliteReal(d)
                // NaN: SQLite keeps it as the text `NaN`, PostgreSQL orders it above every number.
                let present =
                    postgres
                    ? "\(column) IS NOT NULL AND \(column) <> 'NaN' AND CAST(\(column) AS double precision)"
                    : "typeof(\(column)) = 'real' AND \(column)"
                let sign = op == .notEqual ? "=" : Self.sign(op)
                return negate("(\(present) \(sign) \(number))")
            default:
                throw QueryTranslator.refuse(part, QueryTranslator.untranslatedType(property.type))
            }
        }
    }

    /// SQL's comparison operators.
    static let signs: [QueryOperator: String] = [
        .equal: "=", .notEqual: "<>", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
    ]

    static func sign(_ op: QueryOperator) -> String { signs[op] ?? "=" }

    /// A double as a SQLite REAL literal that reads back as the same bits.
    static func sqliteReal(_ d: Double) -> String {
        let text = "\(d)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}
