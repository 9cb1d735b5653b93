import PorterCSQLite
import Foundation
import PorterModel

/// Reads that lazy query results need (every key of a class, one property's values for all
/// objects), a token that changes whenever the data may have changed, and savepoints for
/// multi-step writes that must succeed or fail as one.
extension Database {
    /// Keys of every object of a class, in key order.
    public func allKeys(_ className: String) throws -> [ObjectKey] {
        let plan = try plan(for: className)
        // Keys are never reused, so a class no object was deleted from (after adds and imports)
        // has dense keys: told by its count, lowest and highest key (three lookups SQLite answers
        // without stepping every row, in one statement: one view of the data), they are that
        // range. Stepping a statement per object cost about 500 instructions of every object
        // iterated.
        let bounds = try connection.cached(
            "SELECT (SELECT count(*) FROM \(plan.table)), (SELECT min(_key) FROM \(plan.table)), "
                + "(SELECT max(_key) FROM \(plan.table))")
        defer { bounds.reset() }
        if try bounds.step() {
            let count = bounds.int64(0)
            if count == 0 { return [] }
            let low = bounds.int64(1)
            let high = bounds.int64(2)
            if high >= low, high &- low == count &- 1 { return (low...high).map { ObjectKey($0) } }
        }
        return try queryKeys("SELECT _key FROM \(plan.table) WHERE _key > ? ORDER BY _key", Int64.min)
    }

    /// The value of one single-value stored property for every object of a class, in key order:
    /// one statement, for filtering and sorting by comparisons SQL cannot express exactly.
    public func propertyValues(_ className: String, _ property: String) throws -> [(key: ObjectKey, value: Value)] {
        let plan = try plan(for: className)
        guard let prop = plan.persisted.first(where: { $0.name == property }), !prop.isCollection else {
            throw PorterError(
                .notFound, "no stored single-value property '\(property)'", location: "\(className).\(property)")
        }
        let stmt = try connection.cached("SELECT _key, \(quoteIdentifier(prop.name)) FROM \(plan.table) ORDER BY _key")
        defer { stmt.reset() }
        var out: [(key: ObjectKey, value: Value)] = []
        while try stmt.step() {
            out.append(
                (ObjectKey(stmt.int64(0)), try StorageCodec.read(stmt, 1, type: prop.type, objectType: prop.objectType))
            )
        }
        return out
    }

    /// A value that differs whenever this connection changed rows or another connection
    /// committed since it was taken; equal tokens mean cached query results are still valid.
    package var changeToken: DatabaseChangeToken {
        let version: Int64
        if case .integer(let v)? = try? connection.scalar("PRAGMA data_version") { version = v } else { version = -1 }
        return DatabaseChangeToken(localChanges: sqlite3_total_changes64(connection.handle), dataVersion: version)
    }

    /// Runs `body` in a savepoint inside the open write transaction: when it throws, every
    /// change it made is undone and the transaction stays open.
    /// - Throws: ``PorterError/Code/notInWriteTransaction`` outside a write transaction, or what `body` throws.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try requireWrite()
        try connection.cached("SAVEPOINT porter_savepoint").run()
        do {
            let result = try body()
            try connection.cached("RELEASE porter_savepoint").run()
            return result
        } catch {
            rollbackEpoch &+= 1
            try? connection.cached("ROLLBACK TO porter_savepoint").run()
            try? connection.cached("RELEASE porter_savepoint").run()
            throw error
        }
    }
}

/// Identifies a state of a database as seen by one connection; see ``Database/changeToken``.
package struct DatabaseChangeToken: Sendable, Hashable {
    /// Rows inserted, updated or deleted by this connection so far (never decreases).
    package var localChanges: Int64
    /// SQLite's `data_version`: changes when another connection commits.
    package var dataVersion: Int64

    /// Creates a token.
    package init(localChanges: Int64, dataVersion: Int64) {
        self.localChanges = localChanges
        self.dataVersion = dataVersion
    }
}
