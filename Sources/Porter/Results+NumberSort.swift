import PorterQuery
import PorterStore

extension QueryEvaluator {
    /// The keys, in sort order, for an order comparison of a single-value int property of the
    /// queried class with an int (`count > 500`) sorted by one single-value int or double property
    /// (`price`), on a Porter database: SQLite filters and reads only each match's key and number
    /// (see ``Database/numberColumn(_:where:_:_:numbers:)``), then one sort of (number, key) pairs.
    /// The same keys in the same order as evaluating the condition and sorting by that property
    /// (ties by key); nil for any other query, and for data the general path must order (a null
    /// or NaN number).
    mutating func sortedByNumberColumn(_ predicate: QueryPredicate, _ sortKey: Realm.SortDescriptor) throws
        -> [ObjectKey]?
    {
        guard !predicate.needsObjectMatcher, let database = reader as? Database,
            case .compare(let path, let op, let argument, let options, let quantifier) = predicate,
            options.isEmpty, quantifier != .noneOf, path.components.count == 1, path.aggregate == nil,
            let property = schema.property(named: path.components[0]), property.type == .int,
            !property.isCollection, !property.isComputed, !sortKey.keyPath.contains("."),
            let comparison = Self.sqlComparison(op)
        else { return nil }
        guard case .int(let bound) = try encode(argument, for: path),
            let column = try database.numberColumn(
                schema.name, where: property.name, comparison, bound, numbers: sortKey.keyPath)
        else { return nil }
        switch consume column {
        case .ints(var entries): return NumberSort.keys(&entries, ascending: sortKey.ascending)
        case .doubles(var entries): return NumberSort.keys(&entries, ascending: sortKey.ascending)
        }
    }

    /// The SQL operator of an order comparison (Porter's null and number semantics for ints are SQL's).
    static func sqlComparison(_ op: QueryOperator) -> SQLIntComparison? {
        switch op {
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        default: return nil
        }
    }
}

/// Sorts objects by one number column (``KeyedInt`` or ``KeyedDouble`` entries) in this module: the
/// comparison is a closure literal on a concrete type, so the sort specializes to inline comparisons
/// (a generic `Comparable` entry type of another module went through its conformance's
/// witness and generic metadata on each comparison: two thirds of a sorted query's sort).
enum NumberSort {
    /// The keys of `entries` by ascending (or descending) value, ties by ascending key: the order of
    /// ``ValueOrder/sortCompare(_:_:)`` on ints. `entries` is sorted in place.
    static func keys(_ entries: inout [KeyedInt], ascending: Bool) -> [ObjectKey] {
        // Descending as ascending by the bitwise complement (reverses the order, never overflows).
        if !ascending { for i in entries.indices { entries[i].value = ~entries[i].value } }
        entries.sort { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }
        return entries.map { ObjectKey($0.key) }
    }

    /// The same for doubles (no NaN); -0.0 and 0.0 are equal, as they compare.
    static func keys(_ entries: inout [KeyedDouble], ascending: Bool) -> [ObjectKey] {
        if !ascending { for i in entries.indices { entries[i].value = -entries[i].value } }
        entries.sort { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }
        return entries.map { ObjectKey($0.key) }
    }
}
