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
}

/// Evaluates one Realm Query Language predicate on objects of one class, object by object, so an
/// export applies it while streaming: the semantics of `Results.filter(_:)` (comparisons, string
/// operators with `[c]`/`[d]`, `IN`, `BETWEEN`, `ANY`/`ALL`/`NONE`, aggregates, paths through links,
/// embedded objects and collections, null).
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
        for path in predicate.paths { try Self.validate(path, from: cls, schema: schema) }
        self.className = className
        self.schema = schema
        self.predicate = try predicate.resolvingArguments(resolve)
    }

    /// Parses `text` (Realm Query Language, no `%@` arguments) and checks it against `schema`.
    package init(parsing text: String, className: String, schema: Schema) throws {
        try self.init(try QueryParser.parse(text, []), className: className, schema: schema)
    }

    /// Whether the predicate holds for the object `key` of the class.
    package func matches(_ key: ObjectKey, reader: some QueryObjectReader) throws -> Bool {
        try holds(predicate, ObjectLink(className, key), reader)
    }

    private func holds(_ predicate: QueryPredicate, _ object: ObjectLink, _ reader: some QueryObjectReader) throws
        -> Bool
    {
        switch predicate {
        case .compare(let path, let op, let argument, let options, let quantifier):
            let value = try argument.plainValue()
            return try test(path, object, reader, quantifier) { QueryValues.holds($0, op, value, options) }
        case .between(let path, let low, let high):
            let (lowValue, highValue) = (try low.plainValue(), try high.plainValue())
            return try test(path, object, reader, .any) { QueryValues.between($0, lowValue, highValue) }
        case .in(let path, let arguments):
            let values = try arguments.map { try $0.plainValue() }
            return try test(path, object, reader, .any) { candidate in
                values.contains { QueryValues.holds(candidate, .equal, $0, []) }
            }
        case .and(let lhs, let rhs): return try holds(lhs, object, reader) && holds(rhs, object, reader)
        case .or(let lhs, let rhs): return try holds(lhs, object, reader) || holds(rhs, object, reader)
        case .not(let operand): return try !holds(operand, object, reader)
        case .constant(let value): return value
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)", location: className)
        case .opaque(let path, let condition):
            throw PorterError(
                .usage, "\(condition.description) on '\(path)' is evaluated by the typed API only",
                location: "\(className).\(path)")
        }
    }

    /// Whether the values `path` reaches pass `test`: any, all or none of them (the aggregate's
    /// value when the path has one).
    private func test(
        _ path: QueryPath, _ object: ObjectLink, _ reader: some QueryObjectReader, _ quantifier: QueryQuantifier,
        _ test: (Value) -> Bool
    ) throws -> Bool {
        let resolved = try values(path, from: object, reader: reader)
        let candidates =
            try path.aggregate.map {
                [try QueryValues.aggregate($0, resolved.values, path: path, className: className)]
            } ?? resolved.values
        switch quantifier {
        case .any: return candidates.contains(where: test)
        case .all: return candidates.allSatisfy(test)
        case .noneOf: return !candidates.contains(where: test)
        }
    }

    /// The values `path` reaches from `object`: one for a single-value path, the elements for a
    /// path through or into a collection (none when a link on the way is null).
    package func values(_ path: QueryPath, from object: ObjectLink, reader: some QueryObjectReader) throws -> (
        values: [Value], isCollection: Bool
    ) {
        var current = [object]
        var isCollection = false
        for (index, name) in path.components.enumerated() {
            let isLast = index == path.components.count - 1
            var next: [ObjectLink] = []
            var values: [Value] = []
            for link in current {
                guard let property = schema[link.className]?.property(named: name) else {
                    throw PorterError(
                        .usage, "unknown property '\(link.className).\(name)'\(path.at)", location: link.className)
                }
                if property.isCollection || property.isComputed { isCollection = true }
                let value = try reader.value(property, of: link)
                let elements: [Value]
                switch value {
                case .list(let items) where property.isCollection || property.isComputed: elements = items
                case .set(let items) where property.isCollection: elements = items
                case .map(let entries) where property.isCollection: elements = Array(entries.values)
                default: elements = [value]
                }
                for element in elements {
                    if isLast {
                        values.append(element)
                    } else if case .link(let target) = element {
                        next.append(target)
                    } else if !element.isNull {
                        throw PorterError(
                            .usage,
                            "'\(path)'\(path.at): '\(name)' is not a link, so the path cannot go on to '\(path.components[index + 1])'",
                            location: "\(link.className).\(name)")
                    }
                }
            }
            if isLast { return (values, isCollection) }
            current = next
        }
        return ([], isCollection)
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
