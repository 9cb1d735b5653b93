import PorterCSQLite
import PorterModel

/// An order comparison of an int column with an int, which SQL evaluates as Porter's queries do
/// for int properties: numbers by value, and a null never matching (SQL's NULL comparison).
package enum SQLIntComparison: String, Sendable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// An object's key and an int value of it, to sort by (the type is concrete, not generic, so that a
/// sort of an array of them in another module specializes to inline comparisons).
package struct KeyedInt {
    /// The value sorted by.
    package var value: Int64
    /// The object's key.
    package var key: Int64

    /// The entry of one object.
    @inlinable
    package init(value: Int64, key: Int64) {
        self.value = value
        self.key = key
    }
}

/// An object's key and a double value of it (never NaN), to sort by; see ``KeyedInt``.
package struct KeyedDouble {
    /// The value sorted by.
    package var value: Double
    /// The object's key.
    package var key: Int64

    /// The entry of one object.
    @inlinable
    package init(value: Double, key: Int64) {
        self.value = value
        self.key = key
    }
}

/// The objects of a class that match a filter, in key order, each with one number property's
/// value: the input of a sort by that property.
package enum NumberColumn {
    /// An int property's values.
    case ints([KeyedInt])
    /// A double property's values (never NaN).
    case doubles([KeyedDouble])
}

extension Database {
    /// The objects whose int property `filtered` compares with `bound` by `comparison`, with the
    /// values of the int or double property `numbers`, as ``NumberColumn``: SQLite filters, and only
    /// the key and that one column are read, with no ``Value`` per row (for a query such as
    /// `count > 500` sorted by `price`). Nil when the properties are not a single-value int and a
    /// single-value int or double, or when a matching object's `numbers` value is null or a double
    /// SQLite cannot hold as a number (NaN, -0.0): the general path orders those.
    package func numberColumn(
        _ className: String, where filtered: String, _ comparison: SQLIntComparison, _ bound: Int64,
        numbers: String
    ) throws -> NumberColumn? {
        let plan = try plan(for: className)
        guard let filter = plan.columns.first(where: { $0.name == filtered }), filter.type == .int,
            let sort = plan.columns.first(where: { $0.name == numbers }), sort.type == .int || sort.type == .double
        else { return nil }
        let stmt = try connection.cached(
            "SELECT _key, \(quoteIdentifier(numbers)) FROM \(plan.table) WHERE \(quoteIdentifier(filtered)) "
                + "\(comparison.rawValue) ?1 ORDER BY _key")
        defer { stmt.reset() }
        stmt.bind(1, int: bound)
        let handle = stmt.handle
        if sort.type == .int {
            var entries: [KeyedInt] = []
            while try stmt.step() {
                guard sqlite3_column_type(handle, 1) == SQLITE_INTEGER else { return nil }
                entries.append(KeyedInt(value: sqlite3_column_int64(handle, 1), key: sqlite3_column_int64(handle, 0)))
            }
            return .ints(entries)
        }
        var entries: [KeyedDouble] = []
        while try stmt.step() {
            // A double is REAL unless it is NaN or -0.0 (an 8-byte blob, see ``StorageCodec``) or null.
            guard sqlite3_column_type(handle, 1) == SQLITE_FLOAT else { return nil }
            entries.append(KeyedDouble(value: sqlite3_column_double(handle, 1), key: sqlite3_column_int64(handle, 0)))
        }
        return .doubles(entries)
    }
}
