import Foundation
import PorterQuery

extension QueryEvaluator {
    /// The keys matching a comparison on one single-value stored property of the queried class,
    /// in key order, from one read of that property's values: the result of ``keys(_:)`` for the
    /// same predicate, sorted, without building a set of keys and sorting it (most of a query
    /// that matches half a million objects). Nil for any other predicate, and for equality that
    /// ``keys(_:)`` answers through the database's (indexed) lookup.
    mutating func orderedKeys(_ predicate: QueryPredicate) throws -> [ObjectKey]? {
        // `@type`, `@links`, subscripts…: only the object-by-object matcher knows them.
        guard !predicate.needsObjectMatcher,
            case .compare(let path, let op, let argument, let options, let quantifier) = predicate,
            path.components.count == 1, path.aggregate == nil,
            let property = schema.property(named: path.components[0]), !property.isCollection, !property.isComputed
        else { return nil }
        let value = try encode(argument, for: path)
        if options.isEmpty, quantifier == .any, op == .equal || op == .notEqual, Self.fitsIndexLookup(value, property) {
            return nil
        }
        try validate(path, purpose: "query")
        guard let values = try plainColumn(path) else { return nil }
        // One value per object: any, all and none of one value are the value's own test.
        let wanted = quantifier != .noneOf
        var out: [ObjectKey] = []
        for entry in values where QueryValues.holds(entry.value, op, value, options) == wanted { out.append(entry.key) }
        return out
    }
}

extension QueryEvaluator {
    /// For one comparison on a single-value stored property and sort keys that are single-value
    /// stored properties of the queried class, on a Porter database: the matching keys in key
    /// order (as ``orderedKeys(_:)``) and each sort key's value for each of them, by position (as
    /// ``sortValues(_:_:)``), from one read of the table instead of one per property. Nil otherwise.
    mutating func orderedKeysWithSortValues(_ predicate: QueryPredicate, sortPaths: [String]) throws -> (
        keys: [ObjectKey], sortValues: [[Value]]
    )? {
        guard !predicate.needsObjectMatcher, let database = reader as? Database,
            case .compare(let path, let op, let argument, let options, let quantifier) = predicate,
            path.components.count == 1, path.aggregate == nil,
            let property = schema.property(named: path.components[0]), !property.isCollection, !property.isComputed,
            sortPaths.allSatisfy({ name in
                !name.contains(".")
                    && schema.property(named: name).map { !$0.isCollection && !$0.isComputed } == true
            })
        else { return nil }
        let value = try encode(argument, for: path)
        if options.isEmpty, quantifier == .any, op == .equal || op == .notEqual, Self.fitsIndexLookup(value, property) {
            return nil
        }
        try validate(path, purpose: "query")
        let read = try database.propertyColumns(schema.name, [property.name] + sortPaths)
        let wanted = quantifier != .noneOf
        var keys: [ObjectKey] = []
        var sortValues = [[Value]](repeating: [], count: sortPaths.count)
        let tested = read.columns[0]
        for row in read.keys.indices where QueryValues.holds(tested[row], op, value, options) == wanted {
            keys.append(read.keys[row])
            for i in sortPaths.indices { sortValues[i].append(read.columns[i + 1][row]) }
        }
        return (keys, sortValues)
    }
}
