import Foundation

extension Results {
    /// Runs the query: conditions, then closure filters, then sorting.
    func evaluateKeys() throws -> [ObjectKey] {
        guard let schema = realm.database.schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the realm's schema", location: className)
        }
        var evaluator = QueryEvaluator(database: realm.database, schema: schema, realm: realm)
        var keys: [ObjectKey]
        if predicates.isEmpty {
            keys = try realm.database.allKeys(className)
        } else {
            var matching = try evaluator.keys(predicates[0])
            for predicate in predicates.dropFirst() { matching.formIntersection(try evaluator.keys(predicate)) }
            keys = matching.sorted()
        }
        if !filters.isEmpty {
            keys = keys.filter { key in
                let object = realm.managedObject(Element.self, ObjectLink(className, key))
                return filters.allSatisfy { $0(object) }
            }
        }
        return try sort(keys, evaluator: &evaluator)
    }

    private func sort(_ keys: [ObjectKey], evaluator: inout QueryEvaluator) throws -> [ObjectKey] {
        guard !sortKeys.isEmpty else { return keys }
        var columns: [(values: [ObjectKey: Value], ascending: Bool)] = []
        for descriptor in sortKeys {
            let values = try evaluator.column(descriptor.keyPath, purpose: "sort by")
            columns.append((Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }), descriptor.ascending))
        }
        return keys.sorted { a, b in
            for column in columns {
                let order = ValueOrder.sortCompare(column.values[a] ?? .null, column.values[b] ?? .null)
                if order != 0 { return column.ascending ? order < 0 : order > 0 }
            }
            return a < b
        }
    }
}

/// Evaluates query conditions to sets of keys: equality through the database's (indexed)
/// lookup, everything else over one read of the property's values.
struct QueryEvaluator {
    let database: Database
    let schema: ObjectSchema
    let realm: Realm
    private var columns: [String: [(key: ObjectKey, value: Value)]] = [:]
    private var allKeys: Set<ObjectKey>?

    init(database: Database, schema: ObjectSchema, realm: Realm) {
        self.database = database
        self.schema = schema
        self.realm = realm
    }

    /// The keys of the objects for which `predicate` holds.
    mutating func keys(_ predicate: QueryPredicate) throws -> Set<ObjectKey> {
        switch predicate {
        case .compare(let name, let op, let argument):
            let value = try encode(argument, for: name)
            switch op {
            case .equal: return try equal(name, value)
            case .notEqual: return try all().subtracting(try equal(name, value))
            default:
                return Set(try column(name, purpose: "compare").filter { entry in
                    guard let order = ValueOrder.compare(entry.value, value) else { return false }
                    switch op {
                    case .less: return order < 0
                    case .lessOrEqual: return order <= 0
                    case .greater: return order > 0
                    default: return order >= 0
                    }
                }.map(\.key))
            }
        case .string(let name, let op, let text, let caseInsensitive):
            let needle = caseInsensitive ? text.lowercased() : text
            return Set(try column(name, purpose: "match").compactMap { entry -> ObjectKey? in
                guard case .string(let stored) = entry.value else { return nil }
                let haystack = caseInsensitive ? stored.lowercased() : stored
                switch op {
                case .contains: return needle.isEmpty || haystack.contains(needle) ? entry.key : nil
                case .startsWith: return haystack.hasPrefix(needle) ? entry.key : nil
                case .endsWith: return haystack.hasSuffix(needle) ? entry.key : nil
                }
            })
        case .any(let name, let arguments):
            var out = Set<ObjectKey>()
            for argument in arguments { out.formUnion(try equal(name, try encode(argument, for: name))) }
            return out
        case .and(let lhs, let rhs): return try keys(lhs).intersection(try keys(rhs))
        case .or(let lhs, let rhs): return try keys(lhs).union(try keys(rhs))
        case .not(let operand): return try all().subtracting(try keys(operand))
        case .invalid(let message): throw PorterError(.usage, "invalid query: \(message)", location: schema.name)
        }
    }

    /// Every value of a single-value property, read once per evaluation.
    mutating func column(_ name: String, purpose: String) throws -> [(key: ObjectKey, value: Value)] {
        if let cached = columns[name] { return cached }
        _ = try queryable(name, purpose: purpose)
        let values = try database.propertyValues(schema.name, name)
        columns[name] = values
        return values
    }

    private mutating func all() throws -> Set<ObjectKey> {
        if let allKeys { return allKeys }
        let keys = Set(try database.allKeys(schema.name))
        allKeys = keys
        return keys
    }

    private func equal(_ name: String, _ value: Value) throws -> Set<ObjectKey> {
        _ = try queryable(name, purpose: "compare")
        return Set(try database.keys(schema.name, where: name, equals: value))
    }

    private func encode(_ argument: QueryArgument, for name: String) throws -> Value {
        do {
            return try argument.encode(_PorterWriter(realm: realm, mode: .query))
        } catch var error as PorterError {
            error.location = "\(schema.name).\(name)"
            throw error
        }
    }

    /// The property, which must be a stored single value.
    private func queryable(_ name: String, purpose: String) throws -> Property {
        guard let property = schema.property(named: name) else {
            throw PorterError(.notFound, "cannot \(purpose) '\(name)': class '\(schema.name)' has no such property", location: "\(schema.name).\(name)")
        }
        guard !property.isCollection, !property.isComputed else {
            throw PorterError(.usage, "cannot \(purpose) '\(name)': only single-value properties can be compared or sorted by (not lists, sets, maps or linking objects)", location: "\(schema.name).\(name)")
        }
        return property
    }
}
