import PorterCSQLite
import Foundation
import PorterModel

/// The data facts diffs and migrations need, read with SQL that streams: counts come from
/// aggregate queries, and value checks step through one statement without materializing a class.
/// Properties that have no storage (yet) count as empty.
extension Database: SchemaDataInspector {
    /// Objects of a class; 0 when it has no table.
    public func objectCount(_ className: String) throws -> Int {
        guard try storageTableExists(StorageLayout.table(className)) else { return 0 }
        return Int(try integer("SELECT count(*) FROM \(quoteIdentifier(StorageLayout.table(className)))"))
    }

    /// Set and null values of a stored property.
    public func valueCounts(_ className: String, _ property: Property) throws -> ValueCounts {
        if property.isCollection {
            let table = StorageLayout.collectionTable(className, property.name)
            guard try storageTableExists(table) else { return ValueCounts(nonNull: 0, null: 0) }
            let owners = try integer("SELECT count(DISTINCT _owner) FROM \(quoteIdentifier(table))")
            let nulls = try integer("SELECT count(*) FROM \(quoteIdentifier(table)) WHERE value IS NULL")
            return ValueCounts(nonNull: Int(owners), null: Int(nulls))
        }
        guard try storageColumns(className).contains(property.name) else { return ValueCounts(nonNull: 0, null: 0) }
        let column = quoteIdentifier(property.name)
        let stmt = try connection.prepare(
            "SELECT count(\(column)), count(*) - count(\(column)) FROM \(quoteIdentifier(StorageLayout.table(className)))"
        )
        guard try stmt.step() else { return ValueCounts(nonNull: 0, null: 0) }
        return ValueCounts(nonNull: Int(stmt.int64(0)), null: Int(stmt.int64(1)))
    }

    /// Values that cannot be converted from `property`'s type to `target`'s under `rule`.
    public func unconvertibleValues(
        _ className: String, _ property: Property, to target: Property, rule: ConversionRule,
        sampleLimit: Int
    ) throws -> SampledCount {
        var result = SampledCount(count: 0)
        try streamValues(className, property) { owner, value in
            do {
                _ = try ValueConversion.convertElement(value, to: target.type, rule: rule)
            } catch let error as PorterError {
                result.count += 1
                if result.sample.count < sampleLimit {
                    result.sample.append("\(className)(\(owner)): \(error.message)")
                }
            }
        }
        return result
    }

    /// Values of a single-value property held by more than one object.
    public func duplicateValues(_ className: String, _ property: Property, sampleLimit: Int) throws -> SampledCount {
        guard !property.isCollection, try storageColumns(className).contains(property.name) else {
            return SampledCount(count: 0)
        }
        let column = quoteIdentifier(property.name)
        let stmt = try connection.prepare(
            "SELECT \(column), count(*) FROM \(quoteIdentifier(StorageLayout.table(className))) GROUP BY \(column) HAVING count(*) > 1"
        )
        var result = SampledCount(count: 0)
        while try stmt.step() {
            result.count += 1
            if result.sample.count < sampleLimit {
                let value = try StorageCodec.read(stmt, 0, type: property.type, objectType: property.objectType)
                result.sample.append("\(describe(value)) (\(stmt.int64(1)) objects)")
            }
        }
        return result
    }

    /// Orphans, multiply linked objects and mixed links of a class, counting links from `sources`.
    public func embeddingCounts(_ className: String, sources: [LinkSource], sampleLimit: Int) throws -> EmbeddingCounts
    {
        let table = StorageLayout.table(className)
        guard try storageTableExists(table) else {
            return EmbeddingCounts(orphans: 0, multiplyLinked: 0, mixedLinks: SampledCount(count: 0))
        }
        var mixed = SampledCount(count: 0)
        var terms: [String] = []
        for source in sources {
            if source.property.type == .mixed {
                try mixedLinks(to: className, from: source, into: &mixed, sampleLimit: sampleLimit)
            } else if let term = try incomingCountTerm(source) {
                terms.append(term)
            }
        }
        let n = terms.isEmpty ? "0" : terms.joined(separator: " + ")
        let stmt = try connection.prepare(
            """
            SELECT coalesce(sum(n = 0), 0), coalesce(sum(n > 1), 0) FROM (SELECT \(n) AS n FROM \(quoteIdentifier(table)) AS e)
            """)
        guard try stmt.step() else { return EmbeddingCounts(orphans: 0, multiplyLinked: 0, mixedLinks: mixed) }
        return EmbeddingCounts(orphans: Int(stmt.int64(0)), multiplyLinked: Int(stmt.int64(1)), mixedLinks: mixed)
    }

    // MARK: - Helpers shared with the migration primitives

    /// A correlated SQL expression counting the links from `source` to the row `e`, or nil when
    /// the source has no storage.
    ///
    /// `+e._key` strips the INTEGER affinity of the rowid: compared with a column that has none,
    /// it would make SQLite convert the column's values, which rules out the index on them and
    /// turns each count into a scan (quadratic in the class size).
    package func incomingCountTerm(_ source: LinkSource) throws -> String? {
        if source.property.isCollection {
            let table = StorageLayout.collectionTable(source.className, source.property.name)
            guard try storageTableExists(table) else { return nil }
            return "(SELECT count(*) FROM \(quoteIdentifier(table)) WHERE value = +e._key)"
        }
        guard try storageColumns(source.className).contains(source.property.name) else { return nil }
        return
            "(SELECT count(*) FROM \(quoteIdentifier(StorageLayout.table(source.className))) WHERE \(quoteIdentifier(source.property.name)) = +e._key)"
    }

    /// Adds the `mixed` values of `source` that link to objects of `className` to `result`.
    package func mixedLinks(
        to className: String, from source: LinkSource, into result: inout SampledCount, sampleLimit: Int
    )
        throws
    {
        let (table, owner, column) =
            source.property.isCollection
            ? (StorageLayout.collectionTable(source.className, source.property.name), "_owner", "value")
            : (StorageLayout.table(source.className), "_key", source.property.name)
        guard try storageTableExists(table) else { return }
        if !source.property.isCollection, try !storageColumns(source.className).contains(column) { return }
        let stmt = try connection.prepare(
            """
            SELECT \(owner) FROM \(quoteIdentifier(table)) WHERE typeof(\(quoteIdentifier(column))) = 'blob'
              AND substr(\(quoteIdentifier(column)), 1, 1) = x'09' AND substr(\(quoteIdentifier(column)), 10) = CAST(? AS BLOB)
            """)
        stmt.bind(1, text: className)
        while try stmt.step() {
            result.count += 1
            if result.sample.count < sampleLimit {
                result.sample.append("\(source.className)(\(stmt.int64(0))).\(source.property.name)")
            }
        }
        // Links inside nested lists and dictionaries (the class name is part of each link's bytes).
        let c = quoteIdentifier(column)
        let nested = try connection.prepare(
            """
            SELECT \(owner), \(c) FROM \(quoteIdentifier(table))
            WHERE \(c) >= x'0a' AND \(c) < x'0c' AND instr(\(c), CAST(? AS BLOB)) > 0
            """)
        nested.bind(1, text: className)
        while try nested.step() {
            let value = try StorageCodec.read(nested, 1, type: .mixed, objectType: nil)
            guard NestedMixedCodec.links(in: value).contains(where: { $0.className == className }) else { continue }
            result.count += 1
            if result.sample.count < sampleLimit {
                result.sample.append("\(source.className)(\(nested.int64(0))).\(source.property.name)")
            }
        }
    }

    /// Calls `body` with (owner key, value) for every non-null value of a property (every element
    /// of a collection), streaming through one statement.
    func streamValues(_ className: String, _ property: Property, _ body: (Int64, Value) throws -> Void) throws {
        let sql: String
        if property.isCollection {
            let table = StorageLayout.collectionTable(className, property.name)
            guard try storageTableExists(table) else { return }
            sql = "SELECT _owner, value FROM \(quoteIdentifier(table)) WHERE value IS NOT NULL"
        } else {
            guard try storageColumns(className).contains(property.name) else { return }
            let column = quoteIdentifier(property.name)
            sql =
                "SELECT _key, \(column) FROM \(quoteIdentifier(StorageLayout.table(className))) WHERE \(column) IS NOT NULL ORDER BY _key"
        }
        let stmt = try connection.prepare(sql)
        while try stmt.step() {
            try body(
                stmt.int64(0), try StorageCodec.read(stmt, 1, type: property.type, objectType: property.objectType))
        }
    }

    /// Whether an SQLite table exists.
    package func storageTableExists(_ table: String) throws -> Bool {
        try catalog().tables.contains(table)
    }

    /// The physical columns of a class table, without `_key`; empty when there is no table.
    package func storageColumns(_ className: String) throws -> [String] {
        let stmt = try connection.prepare("SELECT name FROM pragma_table_info(?) WHERE name <> '_key' ORDER BY cid")
        stmt.bind(1, text: StorageLayout.table(className))
        var names: [String] = []
        while try stmt.step() { names.append(stmt.text(0)) }
        return names
    }

    /// Runs a query returning one integer.
    package func integer(_ sql: String) throws -> Int64 {
        let stmt = try connection.prepare(sql)
        return try stmt.step() ? stmt.int64(0) : 0
    }
}
