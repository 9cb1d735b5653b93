import PorterCSQLite
import Foundation
import PorterModel

/// The value checks of ``Database/checkConsistency()`` beyond storage classes: the bytes inside
/// `mixed` blobs, UTF-8 text and the 16 MB limit, dictionary keys, set uniqueness and list
/// positions. Each streams one table once with SQL; only blobs and text are looked at in Swift.
extension Database {
    /// Problems of the values of one property.
    func valueProblems(_ className: String, _ property: Property) throws -> [String] {
        let path = "\(className).\(property.name)"
        let (table, owner, column) =
            property.isCollection
            ? (StorageLayout.collectionTable(className, property.name), "_owner", "value")
            : (StorageLayout.table(className), "_key", property.name)
        let t = quoteIdentifier(table), c = quoteIdentifier(column)
        let sample = ConsistencyReport.sample, plural = ConsistencyReport.plural
        var lines: [String] = []
        /// Runs `sql` (owner, bytes) and reports the rows `problem` finds fault with.
        func scan(_ what: String, _ sql: String, _ problem: (UnsafeRawBufferPointer) -> String?) throws {
            let stmt = try connection.prepare(sql)
            var found = SampledCount(count: 0)
            var first: String?
            while try stmt.step() {
                let raw = UnsafeRawBufferPointer(
                    start: sqlite3_column_blob(stmt.handle, 1),
                    count: Int(sqlite3_column_bytes(stmt.handle, 1)))
                guard let description = problem(raw) else { continue }
                found.count += 1
                first = first ?? description
                if found.sample.count < Database.sampleLimit {
                    found.sample.append("\(className)(\(stmt.int64(0)))")
                }
            }
            if found.count > 0, let first {
                let count = "\(found.count) \(what)\(plural(found.count))"
                lines.append("\(path): \(count) damaged (\(first)): \(sample(found))")
            }
        }
        /// A query of (owner, `expression`) over the rows matching `condition`, in owner order.
        func rows(_ expression: String, where condition: String) -> String {
            "SELECT \(owner), \(expression) FROM \(t) WHERE \(condition) ORDER BY \(owner)"
        }
        switch property.type {
        case .string:
            try scan("string", rows("CAST(\(c) AS BLOB)", where: "typeof(\(c)) = 'text'"), StoredValueCheck.textProblem)
        case .data:
            try scan("data value", rows(c, where: "typeof(\(c)) = 'blob' AND length(\(c)) > \(Self.maxBinarySize)")) {
                "data of \($0.count) bytes over the 16 MB limit"
            }
        case .mixed:
            // Format 1 kept dates as 8 bytes of microseconds (a read-only open leaves them so).
            let legacy = try connection.scalar("PRAGMA user_version") == .integer(1)
            try scan("mixed value", rows(c, where: "typeof(\(c)) = 'blob'")) {
                StoredValueCheck.mixedBlobProblem($0, legacyDates: legacy)
            }
            try scan(
                "mixed string", rows("CAST(\(c) AS BLOB)", where: "typeof(\(c)) = 'text'"),
                StoredValueCheck.textProblem)
        case .date:
            try scan("date", rows(c, where: "typeof(\(c)) = 'blob' AND length(\(c)) = 12")) {
                StorageCodec.timestamp(Array($0)) == nil ? "out-of-range nanoseconds" : nil
            }
        default:
            break
        }
        switch property.collection {
        case .map:
            try scan(
                "dictionary key", rows("CAST(_key AS BLOB)", where: "typeof(_key) = 'text'"),
                StoredValueCheck.mapKeyProblem)
            let badKeys = try connection.scalar("SELECT count(*) FROM \(t) WHERE typeof(_key) != 'text'")
            if case .integer(let n)? = badKeys, n > 0 {
                lines.append("\(path): \(n) dictionary key\(plural(Int(n))) not stored as text")
            }
        case .list:
            let badPositions = try connection.scalar("SELECT count(*) FROM \(t) WHERE typeof(_pos) != 'integer'")
            if case .integer(let n)? = badPositions, n > 0 {
                lines.append("\(path): \(n) list position\(plural(Int(n))) not stored as integers")
            }
        case .set:
            // The (_owner, value) index makes this one pass; typeof keeps 1 and 1.0 of a mixed set apart.
            let stmt = try connection.prepare(
                """
                SELECT _owner FROM \(t) GROUP BY _owner, typeof(value), value HAVING count(*) > 1 ORDER BY _owner
                """)
            var found = SampledCount(count: 0)
            while try stmt.step() {
                found.count += 1
                if found.sample.count < Database.sampleLimit {
                    found.sample.append("\(className)(\(stmt.int64(0)))")
                }
            }
            if found.count > 0 {
                let count = "\(found.count) set\(plural(found.count))"
                lines.append("\(path): \(count) holding an element more than once: \(sample(found))")
            }
        case .none:
            break
        }
        return lines
    }
}
