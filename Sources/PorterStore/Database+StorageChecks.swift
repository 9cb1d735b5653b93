import PorterCSQLite
import Foundation
import PorterModel

/// Checks of stored values as streaming SQL over the tables as they physically are: shared by the
/// consistency check and by the checks a migration runs before it commits (PorterMigration).
extension Database {
    /// How many examples failures and checks keep.
    package static let sampleLimit = 10
    /// Rows per batch when a primitive reads and rewrites the same table.
    package static let batchSize = 2_000

    /// Objects whose single-value property is null (or, for a collection, that hold a null element),
    /// each named by `name` (its key given; default `Class(3)`).
    package func nullValues(
        _ className: String, _ property: Property, name: ((Int64) -> String)? = nil
    ) throws -> SampledCount {
        let slot = valueSlot(className, property)
        guard try slotExists(slot, collection: property.isCollection, className: className) else {
            return SampledCount(count: 0)
        }
        let stmt = try connection.prepare(
            "SELECT \(slot.owner) FROM \(quoteIdentifier(slot.table)) WHERE \(quoteIdentifier(slot.column)) IS NULL ORDER BY \(slot.owner)"
        )
        var result = SampledCount(count: 0)
        while try stmt.step() {
            result.count += 1
            if result.sample.count < Database.sampleLimit {
                result.sample.append(name?(stmt.int64(0)) ?? "\(className)(\(stmt.int64(0)))")
            }
        }
        return result
    }

    /// Null counts of several single-value properties of a class, in one pass over its table.
    package func nullCounts(_ className: String, _ properties: [Property]) throws -> [Int] {
        let present = Set(try storageColumns(className))
        let wanted = properties.filter { !$0.isCollection && present.contains($0.name) }
        guard !wanted.isEmpty else { return properties.map { _ in 0 } }
        let sums = wanted.map { "coalesce(sum(\(quoteIdentifier($0.name)) IS NULL), 0)" }.joined(separator: ", ")
        let stmt = try connection.prepare("SELECT \(sums) FROM \(quoteIdentifier(StorageLayout.table(className)))")
        guard try stmt.step() else { return properties.map { _ in 0 } }
        var counts: [String: Int] = [:]
        for (i, property) in wanted.enumerated() { counts[property.name] = Int(stmt.int64(Int32(i))) }
        return properties.map { counts[$0.name] ?? 0 }
    }

    /// Links of a property (link, collection of links, or `mixed`) whose target object does not exist.
    package func danglingLinks(_ className: String, _ property: Property) throws -> SampledCount {
        let slot = valueSlot(className, property)
        var result = SampledCount(count: 0)
        guard try slotExists(slot, collection: property.isCollection, className: className) else { return result }
        let column = quoteIdentifier(slot.column)
        func note(_ owner: Int64, _ target: String) {
            result.count += 1
            if result.sample.count < Database.sampleLimit {
                result.sample.append("\(className)(\(owner)).\(property.name) -> \(target)")
            }
        }
        if property.type == .object, let target = property.objectType {
            guard try storageTableExists(StorageLayout.table(target)) else {
                let stmt = try connection.prepare(
                    "SELECT \(slot.owner), \(column) FROM \(quoteIdentifier(slot.table)) WHERE \(column) IS NOT NULL")
                while try stmt.step() { note(stmt.int64(0), "\(target)(\(stmt.int64(1)))") }
                return result
            }
            let stmt = try connection.prepare(
                """
                SELECT \(slot.owner), \(column) FROM \(quoteIdentifier(slot.table)) WHERE \(column) IS NOT NULL
                  AND \(column) NOT IN (SELECT _key FROM \(quoteIdentifier(StorageLayout.table(target))))
                """)
            while try stmt.step() { note(stmt.int64(0), "\(target)(\(stmt.int64(1)))") }
        } else if property.type == .mixed {
            // Plain links, and links inside nested lists and dictionaries.
            let stmt = try connection.prepare(
                "SELECT \(slot.owner), \(column) FROM \(quoteIdentifier(slot.table)) WHERE typeof(\(column)) = 'blob' AND substr(\(column), 1, 1) IN (x'09', x'0a', x'0b')"
            )
            while try stmt.step() {
                for link in NestedMixedCodec.links(in: try StorageCodec.read(stmt, 1, type: .mixed, objectType: nil)) {
                    let found =
                        try storageTableExists(StorageLayout.table(link.className))
                        && rowExists(link.className, link.key.rawValue)
                    if !found { note(stmt.int64(0), link.description) }
                }
            }
        }
        return result
    }

    /// Whether the class table has a row with this key (no schema needed).
    package func rowExists(_ className: String, _ key: Int64) throws -> Bool {
        let stmt = try connection.cached(
            "SELECT 1 FROM \(quoteIdentifier(StorageLayout.table(className))) WHERE _key = ?")
        stmt.bind(1, int: key)
        defer { stmt.reset() }
        return try stmt.step()
    }

    /// Whether an index with this name exists.
    package func hasIndex(_ name: String) throws -> Bool {
        try catalog().indexes[name] != nil
    }

    /// Whether the class's unique primary-key index exists.
    package func hasPrimaryKeyIndex(_ className: String) throws -> Bool {
        try hasIndex(StorageLayout.primaryKeyIndex(className))
    }

    /// Whether any property of the schema can point at objects of `className` (a link to it, or a `mixed`).
    package func hasIncomingReferences(to className: String) throws -> Bool {
        try !incomingReferences(to: className).isEmpty
    }

    /// Whether a value slot has storage: its table, and for a single value its column.
    package func slotExists(_ slot: ValueSlot, collection: Bool, className: String) throws -> Bool {
        guard try storageTableExists(slot.table) else { return false }
        if collection { return true }
        return try storageColumns(className).contains(slot.column)
    }
}
