import Foundation
import PorterModel

/// Reads the objects a query looks at, whatever holds them (a Porter database, a Realm file, an
/// object being streamed): the one thing the shared evaluator needs from its data.
package protocol QueryObjectReader {
    /// The value of `property` (a property of `object`'s class) of `object`: a single value as
    /// stored; a link or an embedded object as `.link` (null when there is none); a list or set
    /// as `.list`/`.set` of its elements (links as `.link`); a dictionary as `.map`; linking
    /// objects as a `.list` of `.link`s.
    func value(_ property: Property, of object: ObjectLink) throws -> Value

    /// The objects linking to `object` through any of `origins` (class and link property), once
    /// per link, for realm-core's `@links`. The default reads each origin as a linking-objects
    /// property through ``value(_:of:)``.
    func backlinks(to object: ObjectLink, from origins: [QueryLinkOrigin]) throws -> [ObjectLink]
}

/// A class and one of its properties that links to another class: where `@links` looks.
package struct QueryLinkOrigin: Hashable {
    package var className: String
    package var property: String

    package init(_ className: String, _ property: String) {
        self.className = className
        self.property = property
    }
}

extension QueryObjectReader {
    package func backlinks(to object: ObjectLink, from origins: [QueryLinkOrigin]) throws -> [ObjectLink] {
        var out: [ObjectLink] = []
        for origin in origins {
            let property = Property.linkingObjects(
                "@links", originClass: origin.className, originProperty: origin.property)
            if case .list(let links) = try value(property, of: object) {
                for case .link(let link) in links { out.append(link) }
            }
        }
        return out
    }
}

/// Evaluates one Realm Query Language predicate on objects of one class, object by object, so an
/// export applies it while streaming: the semantics of `Results.filter(_:)` (comparisons, string
/// operators with `[c]`/`[d]`, `IN`, `BETWEEN`, `ANY`/`ALL`/`NONE`, aggregates, paths through links,
/// embedded objects and collections, null) and realm-core's `SUBQUERY`, `@links`, `@type`,
/// `@keys`, `@values`, subscripts and `@size` of strings.
package struct QueryMatcher {
    /// The queried class.
    package let className: String
    /// The schema the paths were checked against.
    package let schema: Schema
    /// The predicate, every argument resolved to a value.
    package let predicate: QueryPredicate

    /// Checks every path of `predicate` against `schema` and resolves its arguments.
    /// - Parameter resolve: the value of an argument (default: literals and plain Swift values).
    /// - Throws: ``PorterError`` naming the property and its position in the query text.
    package init(
        _ predicate: QueryPredicate, className: String, schema: Schema,
        resolve: (QueryArgument, QueryPath) throws -> Value = { argument, _ in try argument.plainValue() }
    ) throws {
        guard let cls = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the schema")
        }
        if let message = Self.invalidMessage(predicate) { throw PorterError(.usage, message) }
        try Self.validate(predicate, from: cls, schema: schema)
        self.className = className
        self.schema = schema
        self.predicate = try predicate.resolvingArguments { argument, path in
            let value = try resolve(argument, path)
            return path.operation == .type ? try QueryValues.typeArgument(value, path: path) : value
        }
    }

    /// Parses `text` (Realm Query Language, no `%@` arguments) and checks it against `schema`.
    package init(parsing text: String, className: String, schema: Schema) throws {
        try self.init(try QueryParser.parse(text, []), className: className, schema: schema)
    }

    /// Whether the predicate holds for the object `key` of the class.
    package func matches(_ key: ObjectKey, reader: some QueryObjectReader) throws -> Bool {
        try holds(predicate, .link(ObjectLink(className, key)), reader)
    }

    /// Whether `predicate` holds for `subject`: an object (`.link`), or a primitive element of a
    /// collection a SUBQUERY goes through.
    private func holds(_ predicate: QueryPredicate, _ subject: Value, _ reader: some QueryObjectReader) throws
        -> Bool
    {
        switch predicate {
        case .compare(let path, let op, let argument, let options, let quantifier):
            let value = try argument.plainValue()
            if path.operation == .type {
                return try test(path, subject, reader, quantifier) {
                    QueryValues.hasType($0, value) == (op == .equal)
                }
            }
            return try test(path, subject, reader, quantifier) { QueryValues.holds($0, op, value, options) }
        case .between(let path, let low, let high):
            let (lowValue, highValue) = (try low.plainValue(), try high.plainValue())
            return try test(path, subject, reader, .any) { QueryValues.between($0, lowValue, highValue) }
        case .in(let path, let arguments):
            let values = try arguments.map { try $0.plainValue() }
            if path.operation == .type {
                return try test(path, subject, reader, .any) { candidate in
                    values.contains { QueryValues.hasType(candidate, $0) }
                }
            }
            return try test(path, subject, reader, .any) { candidate in
                values.contains { QueryValues.holds(candidate, .equal, $0, []) }
            }
        case .and(let lhs, let rhs): return try holds(lhs, subject, reader) && holds(rhs, subject, reader)
        case .or(let lhs, let rhs): return try holds(lhs, subject, reader) || holds(rhs, subject, reader)
        case .not(let operand): return try !holds(operand, subject, reader)
        case .constant(let value): return value
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)", location: className)
        case .opaque(let path, let condition):
            throw PorterError(
                .usage, "\(condition.description) on '\(path)' is evaluated by the typed API only",
                location: "\(className).\(path)")
        case .comparePaths(let lhs, let op, let rhs, let options, let quantifier):
            let right = try candidates(rhs, subject, reader)
            return try test(lhs, subject, reader, quantifier) { left in
                right.contains { QueryValues.holds(left, op, $0, options) }
            }
        case .arithmetic(let lhs, let op, let rhs, let quantifier):
            let left = try evaluate(lhs, subject, reader)
            let right = try evaluate(rhs, subject, reader)
            let test = { (value: Value) in right.contains { QueryValues.holds(value, op, $0, []) } }
            switch quantifier {
            case .any: return left.contains(where: test)
            case .all: return left.allSatisfy(test)
            case .noneOf: return !left.contains(where: test)
            }
        case .subquery(let path, _, let inner, let op, let argument):
            var count: Int64 = 0
            for element in try values(path, start: subject, reader: reader).values
            where try holds(inner, element, reader) {
                count += 1
            }
            return QueryValues.holds(.int(count), op, try argument.plainValue(), [])
        }
    }

    /// Whether the values `path` reaches pass `test`: any, all or none of them (the aggregate's
    /// value when the path has one).
    private func test(
        _ path: QueryPath, _ subject: Value, _ reader: some QueryObjectReader, _ quantifier: QueryQuantifier,
        _ test: (Value) -> Bool
    ) throws -> Bool {
        let candidates = try candidates(path, subject, reader)
        switch quantifier {
        case .any: return candidates.contains(where: test)
        case .all: return candidates.allSatisfy(test)
        case .noneOf: return !candidates.contains(where: test)
        }
    }

    /// The values of an arithmetic expression: each combination of its operands' values.
    private func evaluate(_ expression: QueryExpression, _ subject: Value, _ reader: some QueryObjectReader) throws
        -> [Value]
    {
        switch expression {
        case .value(let argument): return [try argument.plainValue()]
        case .path(let path): return try candidates(path, subject, reader)
        case .operation(let lhs, let op, let rhs):
            let left = try evaluate(lhs, subject, reader)
            let right = try evaluate(rhs, subject, reader)
            return left.flatMap { a in right.map { QueryArithmetic.apply(a, op, $0) } }
        }
    }

    /// The values `path` reaches from `subject`, or its aggregate's value when it has one.
    private func candidates(_ path: QueryPath, _ subject: Value, _ reader: some QueryObjectReader) throws -> [Value] {
        let resolved = try values(path, start: subject, reader: reader)
        guard let aggregate = path.aggregate else { return resolved.values }
        return [
            try QueryValues.aggregate(
                aggregate, resolved.values, path: path, className: className, isCollection: resolved.isCollection)
        ]
    }

    /// The values `path` reaches from `object`: one for a single-value path, the elements for a
    /// path through or into a collection (none when a link on the way is null).
    package func values(_ path: QueryPath, from object: ObjectLink, reader: some QueryObjectReader) throws -> (
        values: [Value], isCollection: Bool
    ) {
        try values(path, start: .link(object), reader: reader)
    }

    /// The values `path` reaches from `start` (an object as `.link`, or a primitive element when
    /// the path is a SUBQUERY's bare variable).
    private func values(_ path: QueryPath, start: Value, reader: some QueryObjectReader) throws -> (
        values: [Value], isCollection: Bool
    ) {
        var current = [start]
        var isCollection = false
        // Past a mixed value the path is read as the data allows: names are the keys of the
        // dictionaries it holds, subscripts index its lists; other values end their branch.
        var dynamic = false
        var index = 0
        let names = path.components
        while index < names.count {
            let name = names[index]
            var next: [Value] = []
            var step = 1
            if name == QueryPath.links {
                isCollection = true
                let origin: QueryLinkOrigin? =
                    index + 2 < names.count ? QueryLinkOrigin(names[index + 1], names[index + 2]) : nil
                step = origin == nil ? 1 : 3
                for case .link(let link) in current {
                    let origins = origin.map { [$0] } ?? Self.origins(of: link.className, schema: schema)
                    next += try reader.backlinks(to: link, from: origins).map(Value.link)
                }
            } else {
                for element in current {
                    let value: Value
                    switch element {
                    case .link(let link):
                        guard let property = schema[link.className]?.property(named: name) else {
                            if dynamic { continue }
                            throw PorterError(
                                .usage, "unknown property '\(link.className).\(name)'\(path.at)",
                                location: link.className)
                        }
                        value = try reader.value(property, of: link)
                        if property.type == .mixed { dynamic = true }
                        if property.isCollection || property.isComputed, path.subscripts[index] == nil {
                            isCollection = true
                            do {
                                // A dictionary the path ends in with @keys/@values stays whole for them.
                                let keepsMap =
                                    index == names.count - 1 && (path.operation == .keys || path.operation == .values)
                                switch value {
                                case .list(let items), .set(let items): next += items
                                case .map(let entries) where !keepsMap: next += entries.values
                                default: next.append(value)
                                }
                                continue
                            }
                        }
                    case .map(let entries) where dynamic:
                        // A dictionary a mixed value holds: the name is a key (realm-core's `mixed.key`).
                        value = entries[name] ?? .null
                    case .null: continue
                    default:
                        if dynamic { continue }
                        throw PorterError(
                            .usage,
                            "'\(path)'\(path.at): '\(index == 0 ? "the element" : names[index - 1])' is not a link, so the path cannot go on to '\(name)'",
                            location: className)
                    }
                    var produced = [value]
                    for subscriptValue in path.subscripts[index] ?? [] {
                        if subscriptValue.isAll { isCollection = true }
                        produced = produced.flatMap { Self.elements(of: $0, at: subscriptValue) }
                    }
                    if path.valuesSteps.contains(index) {
                        // `mixed.@values.x`: on through the values of the dictionary the mixed value holds.
                        isCollection = true
                        produced = produced.flatMap { item -> [Value] in
                            if case .map(let entries) = item { return Array(entries.values) }
                            return []
                        }
                    }
                    next += produced
                }
            }
            index += step
            current = next
            if index < names.count, !dynamic {
                // Going on: only objects lead further (null links end their branch).
                for element in current where !element.isLink && !element.isNull {
                    throw PorterError(
                        .usage,
                        "'\(path)'\(path.at): '\(names[index - 1])' is not a link, so the path cannot go on to '\(names[index])'",
                        location: className)
                }
            }
        }
        switch path.operation {
        case .keys, .values:
            // Dictionaries (and mixed values holding one) give their keys or values.
            var out: [Value] = []
            for value in current {
                guard case .map(let entries) = value else { continue }
                out += path.operation == .keys ? entries.keys.sorted().map(Value.string) : Array(entries.values)
            }
            return (out, true)
        default: return (current, isCollection)
        }
    }

    /// The elements `subscriptValue` picks from `value`: a dictionary's value under a key, a list's
    /// element at an index, first or last (null when absent), or every element of a list, set or
    /// dictionary (`[*]`).
    private static func elements(of value: Value, at subscriptValue: QuerySubscript) -> [Value] {
        switch (value, subscriptValue) {
        case (.map(let entries), .key(let key)): return [entries[key] ?? .null]
        case (.list(let items), .index(let i)): return [i < items.count ? items[i] : .null]
        case (.list(let items), .first): return [items.first ?? .null]
        case (.list(let items), .last): return [items.last ?? .null]
        case (.list(let items), .all), (.set(let items), .all): return items
        case (.map(let entries), .all): return Array(entries.values)
        case (_, .all): return []
        default: return [.null]
        }
    }

    /// Every class and link property of `schema` that can link to an object of `className`:
    /// links, lists, sets and dictionaries of that class, and mixed values.
    package static func origins(of className: String, schema: Schema) -> [QueryLinkOrigin] {
        var out: [QueryLinkOrigin] = []
        for cls in schema.classes {
            for property in cls.properties
            where (property.type == .object && property.objectType == className) || property.type == .mixed {
                out.append(QueryLinkOrigin(cls.name, property.name))
            }
        }
        return out
    }

    /// The message of the first `.invalid` part of a predicate (a typed query that names no property).
    private static func invalidMessage(_ predicate: QueryPredicate) -> String? {
        switch predicate {
        case .invalid(let message): return "invalid query: \(message)"
        case .and(let lhs, let rhs), .or(let lhs, let rhs): return invalidMessage(lhs) ?? invalidMessage(rhs)
        case .not(let operand): return invalidMessage(operand)
        default: return nil
        }
    }

    /// Checks every path of `predicate` from `cls` (nil: a SUBQUERY over primitive values, whose
    /// paths are the bare variable) and the operators `@type` allows.
    private static func validate(_ predicate: QueryPredicate, from cls: ObjectSchema?, schema: Schema) throws {
        switch predicate {
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            try validate(lhs, from: cls, schema: schema)
            try validate(rhs, from: cls, schema: schema)
        case .not(let operand): try validate(operand, from: cls, schema: schema)
        case .subquery(let path, _, let inner, _, _):
            let element = try reach(path, from: cls, schema: schema)
            guard element.isCollection, path.aggregate == nil, path.operation != .type else {
                throw PorterError(
                    .usage, "'\(path)'\(path.at): SUBQUERY needs a list, set, dictionary or linking objects")
            }
            try validate(inner, from: element.target, schema: schema)
        case .compare(let path, let op, _, _, _):
            if path.operation == .type, op != .equal, op != .notEqual {
                throw PorterError(.usage, "'\(path)'\(path.at): @type compares with ==, != or IN")
            }
            try reach(path, from: cls, schema: schema)
        case .between(let path, _, _):
            if path.operation == .type {
                throw PorterError(.usage, "'\(path)'\(path.at): @type compares with ==, != or IN")
            }
            try reach(path, from: cls, schema: schema)
        case .in(let path, _), .opaque(let path, _): try reach(path, from: cls, schema: schema)
        case .comparePaths(let lhs, _, let rhs, _, _):
            for path in [lhs, rhs] {
                if path.operation == .type {
                    throw PorterError(.usage, "'\(path)'\(path.at): @type compares with a type name")
                }
                try reach(path, from: cls, schema: schema)
            }
        case .arithmetic(let lhs, _, let rhs, _):
            for side in [lhs, rhs] { try validate(side, from: cls, schema: schema) }
        case .constant, .invalid: return
        }
    }

    /// Checks the paths of an arithmetic expression, and that those an operator applies to give numbers.
    private static func validate(_ expression: QueryExpression, from cls: ObjectSchema?, schema: Schema) throws {
        switch expression {
        case .value: return
        case .path(let path):
            if path.operation == .type {
                throw PorterError(.usage, "'\(path)'\(path.at): @type compares with a type name")
            }
            try reach(path, from: cls, schema: schema)
        case .operation(let lhs, let op, let rhs):
            for side in [lhs, rhs] {
                try validate(side, from: cls, schema: schema)
                switch side {
                case .path(let path): try QueryArithmetic.checkNumeric(path, op, from: cls, schema: schema)
                case .value(.literal(let value)) where QueryArithmetic.apply(value, .plus, .int(0)).isNull:
                    throw PorterError(.usage, "cannot perform '\(op.rawValue)' on a \(value.kindName) value")
                default: break
                }
            }
        }
    }

    /// Checks `path` from `cls` and says what it ends at: the class of the objects it reaches (nil
    /// for values) and whether it goes through a collection.
    @discardableResult
    private static func reach(_ path: QueryPath, from start: ObjectSchema?, schema: Schema) throws -> (
        target: ObjectSchema?, isCollection: Bool
    ) {
        guard var current = start else {
            guard path.components.isEmpty else {
                throw PorterError(
                    .usage, "'\(path)'\(path.at): the SUBQUERY's elements are values, without properties")
            }
            return (nil, false)
        }
        if path.components.isEmpty { return (current, false) }
        var isCollection = false
        var last: Property?
        var index = 0
        let names = path.components
        while index < names.count {
            let name = names[index]
            if name == QueryPath.links {
                isCollection = true
                guard index + 2 < names.count || index == names.count - 1 else {
                    throw PorterError(.usage, "'\(path)'\(path.at): @links is followed by .@count or .Class.property")
                }
                if index == names.count - 1 {
                    guard path.aggregate == .count else {
                        throw PorterError(
                            .usage, "'\(path)'\(path.at): @links is followed by .@count or .Class.property")
                    }
                    return (nil, true)
                }
                guard let origin = schema[names[index + 1]] else {
                    throw PorterError(.usage, "'\(path)'\(path.at): @links names no class '\(names[index + 1])'")
                }
                guard let property = origin.property(named: names[index + 2]),
                    (property.type == .object && property.objectType == current.name) || property.type == .mixed
                else {
                    throw PorterError(
                        .usage,
                        "'\(path)'\(path.at): \(origin.name).\(names[index + 2]) is not a property linking to \(current.name)"
                    )
                }
                current = origin
                last = nil
                index += 3
                continue
            }
            guard let property = current.property(named: name) else {
                throw PorterError(.usage, "unknown property '\(current.name).\(name)'\(path.at)")
            }
            last = property
            let hasAll = path.subscripts[index]?.contains(where: \.isAll) == true
            if property.type == .mixed, property.collection == .none,
                index < names.count - 1 || path.subscripts[index] != nil
            {
                // What a mixed value holds is known from the data only (`mixed[*].key`).
                return (nil, isCollection || hasAll || index < names.count - 1)
            }
            if path.valuesSteps.contains(index), property.collection != .map {
                throw PorterError(
                    .usage, "'\(path)'\(path.at): \(current.name).\(name) is not a dictionary, so it has no @values")
            }
            if let subscripts = path.subscripts[index] {
                try checkSubscripts(subscripts, of: property, in: current, path: path)
                if subscripts.contains(where: \.isAll) { isCollection = true }
                if subscripts.count > 1 || property.type == .mixed {
                    // The elements of a list of mixed values: the rest is known from the data only.
                    return (nil, isCollection || index < names.count - 1)
                }
            } else if property.isCollection || property.isComputed {
                isCollection = true
            }
            index += 1
            guard index < names.count else { break }
            guard let target = property.objectType, property.type == .object || property.type == .linkingObjects,
                let next = schema[target]
            else {
                throw PorterError(
                    .usage,
                    "'\(path)'\(path.at): \(current.name).\(name) is not a link, so the path cannot go on to '\(names[index])'"
                )
            }
            current = next
        }
        let endsAtObjects = last.map { $0.type == .object || $0.type == .linkingObjects } ?? true
        if let operation = path.operation, operation != .type {
            guard let last, last.collection == .map || last.type == .mixed, path.subscripts[names.count - 1] == nil
            else {
                throw PorterError(.usage, "'\(path)'\(path.at): @\(operation.rawValue) needs a dictionary")
            }
            return (operation == .values && last.type == .object ? current : nil, true)
        }
        if path.aggregate == .count, !isCollection, let last,
            ![.string, .data, .mixed].contains(last.type) || last.collection != .none
        {
            throw PorterError(
                .usage, "'\(path)'\(path.at): @count and @size need a collection, a string or data")
        }
        guard endsAtObjects, let last, let target = last.objectType, let cls = schema[target] else {
            return (nil, isCollection)
        }
        return (cls, isCollection)
    }

    /// Checks that `subscripts` fit `property`: a key a dictionary, an index, FIRST or LAST a list
    /// (or linking objects), `*` any collection; the subscripts after the first one apply to the
    /// elements, which only mixed values can hold collections in.
    private static func checkSubscripts(
        _ subscripts: [QuerySubscript], of property: Property, in cls: ObjectSchema, path: QueryPath
    ) throws {
        let collection = property.isComputed ? .list : property.collection
        if property.type == .mixed, collection == .none { return }
        let subscriptValue = subscripts[0]
        let (fits, kind): (Bool, String)
        switch subscriptValue {
        case .key: (fits, kind) = (collection == .map, "a dictionary")
        case .index, .first, .last: (fits, kind) = (collection == .list, "a list")
        case .all: (fits, kind) = (collection != .none, "a list, set or dictionary")
        }
        guard fits else {
            throw PorterError(
                .usage,
                "'\(path)'\(path.at): \(cls.name).\(property.name) is not \(kind), so it has no [\(subscriptValue)]")
        }
        if subscripts.count > 1, property.type != .mixed {
            throw PorterError(
                .usage,
                "'\(path)'\(path.at): the elements of \(cls.name).\(property.name) are not lists or dictionaries, so they have no [\(subscripts[1])]"
            )
        }
    }

    /// Checks that every name of `path` is a property and that the path goes on through links and
    /// embedded objects only (whatever the data, so an unknown property is reported on an empty class).
    /// - Parameter singleValued: also refuse collections and linking objects (sort keys).
    package static func validate(
        _ path: QueryPath, from cls: ObjectSchema, schema: Schema, singleValued: Bool = false
    ) throws {
        var current = cls
        for (index, name) in path.components.enumerated() {
            guard let property = current.property(named: name) else {
                throw PorterError(.usage, "unknown property '\(current.name).\(name)'\(path.at)")
            }
            if singleValued, property.isCollection || property.isComputed {
                throw PorterError(
                    .usage,
                    "'\(path)'\(path.at): \(current.name).\(name) is a \(property.isComputed ? "linkingObjects" : property.collection.rawValue); only single values and to-one links can be sorted by"
                )
            }
            guard index < path.components.count - 1 else { return }
            guard let target = property.objectType, property.type == .object || property.type == .linkingObjects,
                let next = schema[target]
            else {
                throw PorterError(
                    .usage,
                    "'\(path)'\(path.at): \(current.name).\(name) is not a link, so the path cannot go on to '\(path.components[index + 1])'"
                )
            }
            current = next
        }
    }
}

extension QuerySubscript {
    var isKey: Bool { if case .key = self { return true } else { return false } }
    var isAll: Bool { if case .all = self { return true } else { return false } }
}

extension Value {
    fileprivate var isLink: Bool { if case .link = self { return true } else { return false } }
}

/// One sort key of `--sort 'name,-age'`: a key path, ascending unless written with `-`.
package struct QuerySortKey {
    package var path: QueryPath
    package var ascending: Bool

    package init(path: QueryPath, ascending: Bool) {
        self.path = path
        self.ascending = ascending
    }

    /// The keys of a comma-separated list: `name`, `-age` (descending), `+name`, `owner.name`.
    /// - Throws: ``PorterError/Code/usage`` naming the position (1-based) of an empty or malformed key.
    package static func parse(_ text: String) throws -> [QuerySortKey] {
        var keys: [QuerySortKey] = []
        var offset = 1
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += raw.count + 1 }
            let leading = raw.prefix { $0 == " " }.count
            var key = raw.trimmingCharacters(in: .whitespaces)
            var position = offset + leading
            var ascending = true
            if let sign = key.first, sign == "-" || sign == "+" {
                ascending = sign == "+"
                key.removeFirst()
                position += 1
            }
            let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !key.isEmpty,
                components.allSatisfy({ name in
                    !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                })
            else {
                throw PorterError(.usage, "expected a property name (name, -age, owner.name) at \(position)")
            }
            keys.append(QuerySortKey(path: QueryPath(components, position: position), ascending: ascending))
        }
        return keys
    }

    /// The order of two rows of sort values (parallel to `keys`), ties broken by object key.
    package static func less(_ a: [Value], _ aKey: ObjectKey, _ b: [Value], _ bKey: ObjectKey, keys: [QuerySortKey])
        -> Bool
    {
        for (i, key) in keys.enumerated() {
            let order = ValueOrder.sortCompare(a[i], b[i])
            if order != 0 { return key.ascending ? order < 0 : order > 0 }
        }
        return aKey < bKey
    }
}
