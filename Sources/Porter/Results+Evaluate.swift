import Foundation
import PorterQuery
import PorterStore

extension Results {
    /// Runs the query: conditions, then closure filters, then sorting.
    func evaluateKeys() throws -> [ObjectKey] {
        guard let schema = home.database.schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the realm's schema", location: className)
        }
        var evaluator = QueryEvaluator(database: home.database, schema: schema, realm: home)
        var keys: [ObjectKey]
        var presorted: [[Value]]?
        if let base = baseKeys {
            keys = try base()
            for predicate in predicates {
                let matching = try evaluator.keys(predicate)
                keys = keys.filter { matching.contains($0) }
            }
        } else if predicates.isEmpty {
            keys = try home.reader.allKeys(className)
        } else if predicates.count == 1, sortKeys.count == 1, filters.isEmpty, distinctPaths?.isEmpty ?? true,
            let sorted = try evaluator.sortedByNumberColumn(predicates[0], sortKeys[0])
        {
            return sorted
        } else if predicates.count == 1, !sortKeys.isEmpty, filters.isEmpty,
            let fused = try evaluator.orderedKeysWithSortValues(predicates[0], sortPaths: sortKeys.map(\.keyPath))
        {
            (keys, presorted) = (fused.keys, fused.sortValues)
        } else if predicates.count == 1, let ordered = try evaluator.orderedKeys(predicates[0]) {
            keys = ordered
        } else {
            var matching = try evaluator.keys(predicates[0])
            for predicate in predicates.dropFirst() { matching.formIntersection(try evaluator.keys(predicate)) }
            keys = matching.sorted()
        }
        if !filters.isEmpty {
            keys = keys.filter { key in
                let object = Element._fetched(home, ObjectLink(className, key))
                return filters.allSatisfy { $0(object) }
            }
        }
        keys = try sort(keys, evaluator: &evaluator, presorted: presorted)
        if let distinctPaths, !distinctPaths.isEmpty {
            var seen = Set<[Value]>()
            var columns: [[ObjectKey: Value]] = []
            for path in distinctPaths { columns.append(try evaluator.sortColumn(path, keys)) }
            keys = keys.filter { key in seen.insert(columns.map { $0[key] ?? .null }).inserted }
        }
        return keys
    }

    /// `keys` in the order of ``sortKeys``; `presorted` holds each sort key's values by position
    /// when they were read with the keys.
    private func sort(_ keys: [ObjectKey], evaluator: inout QueryEvaluator, presorted: [[Value]]?) throws
        -> [ObjectKey]
    {
        guard !sortKeys.isEmpty else { return keys }
        // Values by position in `keys` (arrays, not dictionaries: a million lookups by key cost
        // more than the sort).
        var columns: [(values: [Value], ascending: Bool)] = []
        for (i, descriptor) in sortKeys.enumerated() {
            if let presorted {
                columns.append((presorted[i], descriptor.ascending))
            } else {
                columns.append((try evaluator.sortValues(descriptor.keyPath, keys), descriptor.ascending))
            }
        }
        if columns.count == 1,
            let sorted = Self.sortedByNumbers(keys, columns[0].values, ascending: columns[0].ascending)
        {
            return sorted
        }
        let order = keys.indices.sorted { a, b in
            for column in columns {
                let order = ValueOrder.sortCompare(column.values[a], column.values[b])
                if order != 0 { return column.ascending ? order < 0 : order > 0 }
            }
            return keys[a] < keys[b]
        }
        return order.map { keys[$0] }
    }
}

extension Results {
    /// `keys` sorted by one column whose values are all ints or all non-NaN doubles (ties by key),
    /// comparing the numbers themselves: the same order as ``ValueOrder/sortCompare(_:_:)``, without
    /// its per-comparison dispatch on the kinds of two values. Nil for any other column.
    static func sortedByNumbers(_ keys: [ObjectKey], _ values: [Value], ascending: Bool) -> [ObjectKey]? {
        // Entries of concrete types sorted in this module (see ``NumberSort``).
        if case .int? = values.first {
            var entries: [KeyedInt] = []
            entries.reserveCapacity(values.count)
            for (value, key) in zip(values, keys) {
                guard case .int(let i) = value else { return nil }
                entries.append(KeyedInt(value: i, key: key.rawValue))
            }
            return NumberSort.keys(&entries, ascending: ascending)
        }
        var entries: [KeyedDouble] = []
        entries.reserveCapacity(values.count)
        for (value, key) in zip(values, keys) {
            guard case .double(let d) = value, !d.isNaN else { return nil }
            entries.append(KeyedDouble(value: d, key: key.rawValue))
        }
        return NumberSort.keys(&entries, ascending: ascending)
    }
}

/// Evaluates query conditions to sets of keys: equality on one property through the database's
/// (indexed) lookup, comparisons on one property over one read of its values, and paths through
/// links and collections object by object (each property read once per evaluation).
struct QueryEvaluator {
    let database: Database
    let schema: ObjectSchema
    let realm: Realm
    /// What objects are read through (see ``ObjectReadBackend``).
    var reader: any ObjectReadBackend { realm.reader }
    private var columns: [String: [ObjectKey: Value]] = [:]
    private var allKeys: Set<ObjectKey>?

    init(database: Database, schema: ObjectSchema, realm: Realm) {
        self.database = database
        self.schema = schema
        self.realm = realm
    }

    /// The keys of the objects for which `predicate` holds.
    mutating func keys(_ predicate: QueryPredicate) throws -> Set<ObjectKey> {
        if QueryMatcher.isNeeded(for: predicate, className: schema.name, schema: database.schema) {
            return try objectByObject(predicate)
        }
        switch predicate {
        case .compare(let path, let op, let argument, let options, let quantifier):
            let value = try encode(argument, for: path)
            if path.components.count == 1, path.aggregate == nil, options.isEmpty, quantifier == .any,
                let property = schema.property(named: path.components[0]), !property.isCollection, !property.isComputed,
                op == .equal || op == .notEqual, Self.fitsIndexLookup(value, property)
            {
                let equal = Set(try reader.keys(schema.name, where: property.name, equals: value))
                return op == .equal ? equal : try all().subtracting(equal)
            }
            return try matching(path, quantifier: quantifier) { QueryValues.holds($0, op, value, options) }
        case .between(let path, let low, let high):
            let (lowValue, highValue) = (try encode(low, for: path), try encode(high, for: path))
            return try matching(path, quantifier: .any) { QueryValues.between($0, lowValue, highValue) }
        case .in(let path, let arguments):
            let values = try arguments.map { try encode($0, for: path) }
            return try matching(path, quantifier: .any) { candidate in
                values.contains { QueryValues.holds(candidate, .equal, $0, []) }
            }
        case .and(let lhs, let rhs): return try keys(lhs).intersection(try keys(rhs))
        case .or(let lhs, let rhs): return try keys(lhs).union(try keys(rhs))
        case .not(let operand): return try all().subtracting(try keys(operand))
        case .constant(let value): return value ? try all() : []
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)", location: schema.name)
        case .subquery, .comparePaths, .arithmetic: return try objectByObject(predicate)
        case .opaque(let path, let condition):
            guard let shape = (condition as? GeoWithin)?.shape else {
                throw PorterError(.usage, "\(condition.description) cannot run here", location: schema.name)
            }
            // Object by object through the typed objects (Geospatial.swift): points are embedded objects.
            try validate(path, purpose: "query")
            let keyPath = path.components.joined(separator: ".")
            return try all().filter { key in
                let object = try? realm.managedObject(for: ObjectLink(schema.name, key))
                return geoPoint(of: object?.value(forKeyPath: keyPath)).map(shape.contains) ?? false
            }
        }
    }

    /// Only equality on an argument of the property's own stored kind can use the SQL lookup
    /// (an int compared with a double property, or options, need the value-by-value path).
    static func fitsIndexLookup(_ value: Value, _ property: Property) -> Bool {
        switch (value, property.type) {
        case (.null, _): return property.isOptional && property.type != .mixed
        case (.int, .int), (.bool, .bool), (.string, .string), (.objectId, .objectId), (.uuid, .uuid), (.date, .date):
            return true
        case (.link, .object): return true
        default: return false
        }
    }

    /// The objects whose values along `path` satisfy `test` (any, all or none of them when the
    /// path goes through a collection; the aggregate's value when it has one).
    private mutating func matching(
        _ path: QueryPath, quantifier: QueryQuantifier,
        _ test: (Value) -> Bool
    ) throws -> Set<ObjectKey> {
        try validate(path, purpose: "query")
        if let values = try plainColumn(path) {
            // One value per object: any, all and none of one value are the value's own test.
            let wanted = quantifier != .noneOf
            var out = Set<ObjectKey>(minimumCapacity: values.count / 2)
            for entry in values where test(entry.value) == wanted { out.insert(entry.key) }
            return out
        }
        var out = Set<ObjectKey>()
        for key in try all() {
            let resolved = try resolve(path, from: key)
            let candidates: [Value]
            if let aggregate = path.aggregate {
                candidates = [
                    try QueryValues.aggregate(
                        aggregate, resolved.values, path: path, className: schema.name,
                        isCollection: resolved.isCollection)
                ]
            } else {
                candidates = resolved.values
            }
            let hit: Bool
            switch quantifier {
            case .any: hit = candidates.contains(where: test)
            case .all: hit = candidates.allSatisfy(test)
            case .noneOf: hit = !candidates.contains(where: test)
            }
            if hit { out.insert(key) }
        }
        return out
    }

    /// The values `path` reaches from one object: one for a single-value path, the elements for
    /// a path through or into a collection (empty when a link on the way is null).
    mutating func resolve(_ path: QueryPath, from key: ObjectKey, purpose: String = "query") throws -> (
        values: [Value], isCollection: Bool
    ) {
        var current: [(schema: ObjectSchema, key: ObjectKey)] = [(schema, key)]
        var isCollection = false
        for (index, name) in path.components.enumerated() {
            let isLast = index == path.components.count - 1
            var next: [(schema: ObjectSchema, key: ObjectKey)] = []
            var values: [Value] = []
            for (cls, objectKey) in current {
                let property = try queryable(cls, name, purpose: purpose)
                if property.isCollection || property.isComputed { isCollection = true }
                for value in try read(cls, property, objectKey) {
                    if isLast {
                        values.append(value)
                    } else if case .link(let link) = value, let target = database.schema[link.className] {
                        next.append((target, link.key))
                    } else if !value.isNull {
                        throw PorterError(
                            .usage,
                            "'\(path)': '\(name)' is not a link, so the path cannot go on to '\(path.components[index + 1])'",
                            location: "\(cls.name).\(name)")
                    }
                }
            }
            if isLast { return (values, isCollection) }
            current = next
        }
        return ([], isCollection)
    }

    /// Checks that every name of `path` exists and that the path only goes on through links,
    /// whatever the data (so an unknown property is reported even when there are no objects).
    func validate(_ path: QueryPath, purpose: String) throws {
        var cls = schema
        for (index, name) in path.components.enumerated() {
            let property = try queryable(cls, name, purpose: purpose)
            guard index < path.components.count - 1 else { return }
            guard let target = property.objectType, property.type == .object || property.type == .linkingObjects,
                let next = database.schema[target]
            else {
                throw PorterError(
                    .usage,
                    "'\(path)': '\(name)' is not a link, so the path cannot go on to '\(path.components[index + 1])'",
                    location: "\(cls.name).\(name)")
            }
            cls = next
        }
    }

    /// The values of one property of one object: its value, or a collection's elements (a map's values).
    private mutating func read(_ cls: ObjectSchema, _ property: Property, _ key: ObjectKey) throws -> [Value] {
        if property.isComputed {
            return try reader.linkingObjects(cls.name, key, property.name).map(Value.link)
        }
        if property.isCollection {
            switch try reader.value(cls.name, key, property.name) {
            case .list(let items), .set(let items): return items
            case .map(let entries): return Array(entries.values)
            default: return []
            }
        }
        let column = try self.column(cls, property.name)
        return [column[key] ?? .null]
    }

    /// Every value of a single-value property, read once per evaluation.
    private mutating func column(_ cls: ObjectSchema, _ name: String) throws -> [ObjectKey: Value] {
        let cacheKey = "\(cls.name).\(name)"
        if let cached = columns[cacheKey] { return cached }
        let values = Dictionary(
            try reader.propertyValues(cls.name, name).map { ($0.key, $0.value) },
            uniquingKeysWith: { first, _ in first })
        columns[cacheKey] = values
        return values
    }

    /// The values of every object for a path that is one single-value stored property of the
    /// queried class (no link, collection or aggregate), in key order; nil for any other path.
    mutating func plainColumn(_ path: QueryPath) throws -> [(key: ObjectKey, value: Value)]? {
        guard path.components.count == 1, path.aggregate == nil,
            let property = schema.property(named: path.components[0]),
            !property.isCollection, !property.isComputed
        else { return nil }
        return try reader.propertyValues(schema.name, property.name)
    }

    /// The value a sort key path gives each of `keys`, by position. For one stored property and
    /// keys in key order, one merge with that property's values; else through ``sortColumn(_:_:)``.
    mutating func sortValues(_ keyPath: String, _ keys: [ObjectKey]) throws -> [Value] {
        let path = QueryPath(keyPath.split(separator: ".").map(String.init))
        try validate(path, purpose: "sort by")
        if zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }), let column = try plainColumn(path) {
            var out: [Value] = []
            out.reserveCapacity(keys.count)
            var next = 0
            for key in keys {
                while next < column.count, column[next].key < key { next += 1 }
                out.append(next < column.count && column[next].key == key ? column[next].value : .null)
            }
            return out
        }
        let byKey = try sortColumn(keyPath, keys)
        return keys.map { byKey[$0] ?? .null }
    }

    /// The value a sort key path (`name`, `owner.name`) gives each of `keys`.
    mutating func sortColumn(_ keyPath: String, _ keys: [ObjectKey]) throws -> [ObjectKey: Value] {
        let path = QueryPath(keyPath.split(separator: ".").map(String.init))
        try validate(path, purpose: "sort by")
        var out: [ObjectKey: Value] = [:]
        for key in keys {
            let resolved = try resolve(path, from: key, purpose: "sort by")
            if resolved.isCollection {
                throw PorterError(
                    .usage,
                    "cannot sort by '\(keyPath)': only single-value properties and to-one links can be sorted by (not lists, sets, maps or linking objects)",
                    location: "\(schema.name).\(keyPath)")
            }
            out[key] = resolved.values.first ?? .null
        }
        return out
    }

    mutating func all() throws -> Set<ObjectKey> {
        if let allKeys { return allKeys }
        let keys = Set(try reader.allKeys(schema.name))
        allKeys = keys
        return keys
    }

    func encode(_ argument: QueryArgument, for path: QueryPath) throws -> Value {
        do {
            return try argument.encode(_PorterWriter(realm: realm, mode: .query))
        } catch var error as PorterError {
            error.location = "\(schema.name).\(path)"
            throw error
        }
    }

    /// The property `name` of `cls`, or the error naming class and property.
    private func queryable(_ cls: ObjectSchema, _ name: String, purpose: String) throws -> Property {
        guard let property = cls.property(named: name) else {
            throw PorterError(
                .notFound, "cannot \(purpose) '\(name)': class '\(cls.name)' has no such property",
                location: "\(cls.name).\(name)")
        }
        return property
    }
}
