import PorterCSQLite
import Foundation
import PorterModel

/// Whole rows of objects, for callers that keep an object's values as long as nothing changed
/// (Porter's managed objects), and a cheap stamp that tells when something did.
extension Database {
    /// A value that differs whenever the data seen through this connection may have changed:
    /// a row changed by this connection, a rollback, a schema change, or another connection's
    /// commit once this connection has run a statement since (a refresh or any query).
    ///
    /// Unlike ``changeToken`` it runs no statement: it is recomputed (two SQLite calls) only
    /// after a statement ran, so checking it before every property read costs next to nothing.
    package var stateStamp: DatabaseStateStamp {
        if cachedStampSteps == connection.steps && cachedStamp.epoch == rollbackEpoch { return cachedStamp }
        var version: UInt32 = 0
        let rc = sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        let dataVersion = rc == SQLITE_OK ? Int64(version) : changeToken.dataVersion
        let stamp = DatabaseStateStamp(
            localChanges: sqlite3_total_changes64(connection.handle), dataVersion: dataVersion,
            epoch: rollbackEpoch)
        cachedStamp = stamp
        cachedStampSteps = connection.steps
        return stamp
    }

    /// Whether the data is still as it was at `stamp` (``stateStamp`` equals it), checked before
    /// every property read of a managed object: compared here, where the stamp's `==` is a direct
    /// comparison (from another module it went through `Equatable`'s witness on every read).
    package func isCurrent(_ stamp: DatabaseStateStamp) -> Bool {
        if cachedStampSteps == connection.steps && cachedStamp.epoch == rollbackEpoch { return cachedStamp == stamp }
        return stateStamp == stamp
    }

    /// A counter that moves whenever ``stateStamp`` may have changed (every statement, rollback and
    /// schema change), at a fixed address while the database is open: a caller that saw
    /// ``isCurrent(_:)`` answer true at one count can skip asking again while the count is the same.
    package var changeCounter: UnsafePointer<UInt64> { UnsafePointer(connection.stepCounter) }

    /// The single-value stored properties of a class, in the order ``row(_:_:)`` gives their values.
    package func rowProperties(_ className: String) throws -> [Property] {
        try plan(for: className).columns
    }

    /// The values of one object's single-value stored properties (see ``rowProperties(_:)``),
    /// read in one query; nil when the object does not exist.
    package func row(_ className: String, _ key: ObjectKey) throws -> [Value]? {
        let plan = try plan(for: className)
        let stmt = try connection.cached(plan.selectByKeySQL)
        stmt.bind(1, int: key.rawValue)
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        return try readColumns(plan, stmt)
    }

    /// The rows (see ``row(_:_:)``) of the objects whose keys lie in `low...high`, in key order:
    /// one query for a run of objects about to be read one after the other. The values of row
    /// `i` are `values[i * width ..< (i + 1) * width]` (`width` = ``rowProperties(_:)``'s count):
    /// one array for the run rather than one per object.
    package func rows(_ className: String, from low: ObjectKey, through high: ObjectKey) throws -> (
        keys: [ObjectKey], values: [Value]
    ) {
        let plan = try plan(for: className)
        let stmt = try connection.cached(plan.selectRangeSQL)
        stmt.bind(1, int: low.rawValue)
        stmt.bind(2, int: high.rawValue)
        defer { stmt.reset() }
        var keys: [ObjectKey] = []
        var values: [Value] = []
        keys.reserveCapacity(Int(max(0, min(high.rawValue - low.rawValue + 1, 4096))))
        values.reserveCapacity(keys.capacity * plan.columnTypes.count)
        while try stmt.step() {
            keys.append(ObjectKey(stmt.int64(0)))
            try readColumns(plan, stmt, into: &values)
        }
        return (keys, values)
    }
}

/// A state of the data as one connection sees it; see ``Database/stateStamp``.
package struct DatabaseStateStamp: Sendable, Hashable {
    /// Rows inserted, updated or deleted by this connection so far.
    package var localChanges: Int64
    /// SQLite's data version of the main database file as of this connection's last statement.
    package var dataVersion: Int64
    /// Rollbacks and schema changes so far.
    package var epoch: Int
}
