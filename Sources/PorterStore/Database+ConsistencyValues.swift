import CSQLite
import Foundation
import PorterDiff

/// The value checks of ``Database/checkConsistency()`` beyond storage classes: the bytes inside
/// `mixed` blobs, UTF-8 text and the 16 MB limit, dictionary keys, set uniqueness and list
/// positions. Each streams one table once with SQL; only blobs and text are looked at in Swift.
extension Database {
    /// Problems of the values of one property.
    func valueProblems(_ className: String, _ property: Property) throws -> [String] {
        let path = "\(className).\(property.name)"
        let (table, owner, column) = property.isCollection
            ? (StorageLayout.collectionTable(className, property.name), "_owner", "value")
            : (StorageLayout.table(className), "_key", property.name)
        let t = quoteIdentifier(table), c = quoteIdentifier(column)
        var lines: [String] = []
        func scan(_ sql: String, _ what: String, _ problem: (UnsafeRawBufferPointer) -> String?) throws {
            let stmt = try connection.prepare(sql)
            var found = SampledCount(count: 0)
            var first: String?
            while try stmt.step() {
                let bytes = sqlite3_column_blob(stmt.handle, 1)
                let raw = UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(stmt.handle, 1)))
                guard let description = problem(raw) else { continue }
                found.count += 1
                first = first ?? description
                if found.sample.count < MigrationStorage.sampleLimit { found.sample.append("\(className)(\(stmt.int64(0)))") }
            }
            if found.count > 0, let first {
                let s = ConsistencyReport.plural(found.count)
                lines.append("\(path): \(found.count) \(what)\(s) damaged (\(first)): \(ConsistencyReport.sample(found))")
            }
        }
        switch property.type {
        case .string:
            try scan("SELECT \(owner), CAST(\(c) AS BLOB) FROM \(t) WHERE typeof(\(c)) = 'text' ORDER BY \(owner)", "string",
                     StoredValueCheck.textProblem)
        case .data:
            try scan("SELECT \(owner), \(c) FROM \(t) WHERE typeof(\(c)) = 'blob' AND length(\(c)) > \(Self.maxBinarySize) ORDER BY \(owner)",
                     "data value") { "data of \($0.count) bytes over the 16 MB limit" }
        case .mixed:
            // Format 1 kept dates as 8 bytes of microseconds (a read-only open leaves them so).
            let legacy = try connection.scalar("PRAGMA user_version") == .integer(1)
            try scan("SELECT \(owner), \(c) FROM \(t) WHERE typeof(\(c)) = 'blob' ORDER BY \(owner)", "mixed value") {
                StoredValueCheck.mixedBlobProblem($0, legacyDates: legacy)
            }
            try scan("SELECT \(owner), CAST(\(c) AS BLOB) FROM \(t) WHERE typeof(\(c)) = 'text' ORDER BY \(owner)", "mixed string",
                     StoredValueCheck.textProblem)
        case .date:
            try scan("SELECT \(owner), \(c) FROM \(t) WHERE typeof(\(c)) = 'blob' AND length(\(c)) = 12 ORDER BY \(owner)", "date") {
                StorageCodec.timestamp(Array($0)) == nil ? "out-of-range nanoseconds" : nil
            }
        default:
            break
        }
        switch property.collection {
        case .map:
            try scan("SELECT _owner, CAST(_key AS BLOB) FROM \(t) WHERE typeof(_key) = 'text' ORDER BY _owner", "dictionary key",
                     StoredValueCheck.mapKeyProblem)
            let badKeys = try connection.scalar("SELECT count(*) FROM \(t) WHERE typeof(_key) != 'text'")
            if case .integer(let n)? = badKeys, n > 0 { lines.append("\(path): \(n) dictionary key\(ConsistencyReport.plural(Int(n))) not stored as text") }
        case .list:
            let badPositions = try connection.scalar("SELECT count(*) FROM \(t) WHERE typeof(_pos) != 'integer'")
            if case .integer(let n)? = badPositions, n > 0 { lines.append("\(path): \(n) list position\(ConsistencyReport.plural(Int(n))) not stored as integers") }
        case .set:
            // The (_owner, value) index makes this one pass; typeof keeps 1 and 1.0 of a mixed set apart.
            let stmt = try connection.prepare("""
                SELECT _owner, count(*) FROM \(t) GROUP BY _owner, typeof(value), value HAVING count(*) > 1 ORDER BY _owner
                """)
            var found = SampledCount(count: 0)
            while try stmt.step() {
                found.count += 1
                if found.sample.count < MigrationStorage.sampleLimit { found.sample.append("\(className)(\(stmt.int64(0)))") }
            }
            if found.count > 0 {
                lines.append("\(path): \(found.count) set\(ConsistencyReport.plural(found.count)) holding an element more than once: \(ConsistencyReport.sample(found))")
            }
        case .none:
            break
        }
        return lines
    }
}
