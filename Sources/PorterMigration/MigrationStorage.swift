import Foundation
import PorterModel
import PorterStore

/// Storage-level primitives for the migration runtime (PorterMigration), kept apart from the
/// object API: they work on tables and columns as they physically are, which during a migration
/// is neither the old nor the new schema. Every primitive must run inside a write transaction
/// (except the snapshot ones), and rows are processed in key order in bounded batches or through
/// one streaming statement, never a whole class at once.
package struct MigrationStorage {
    /// The database the primitives work on.
    package let database: Database
    /// Rows per batch when a primitive reads and rewrites the same table.
    package static let batchSize = Database.batchSize

    /// Wraps a database.
    package init(_ database: Database) { self.database = database }

    var connection: SQLiteConnection { database.connection }
    var ddl: SchemaDDL { SchemaDDL(connection: connection) }

    // MARK: - Snapshot (the "old Realm")

    /// Starts a read transaction and pins its snapshot, so this connection keeps seeing the file
    /// as it was even while another connection writes (WAL). Ends with ``endSnapshot()``.
    package func beginSnapshot() throws {
        try connection.execute("BEGIN DEFERRED")
        _ = try connection.scalar("SELECT count(*) FROM _porter_meta")
    }

    /// Ends the snapshot started by ``beginSnapshot()``.
    package func endSnapshot() {
        if connection.inTransaction { try? connection.execute("COMMIT") }
    }

    // MARK: - What is physically there

    /// Whether the class has a table.
    package func hasTable(_ className: String) throws -> Bool {
        try database.storageTableExists(StorageLayout.table(className))
    }

    /// The class table's columns (without `_key`).
    package func columns(_ className: String) throws -> [String] { try database.storageColumns(className) }

    /// Names of the properties that have a collection table for this class.
    package func collectionProperties(_ className: String) throws -> [String] {
        let prefix = StorageLayout.collectionTable(className, "")
        let stmt = try connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?")
        stmt.bind(1, int: Int64(prefix.utf8.count))
        stmt.bind(2, text: prefix)
        var names: [String] = []
        while try stmt.step() { names.append(String(stmt.text(0).utf8.dropFirst(prefix.utf8.count)) ?? "") }
        return names.filter { !$0.isEmpty && !$0.contains(".") }
    }

    /// Whether the property has storage: a column, or a collection table.
    package func hasStorage(_ className: String, _ property: String, collection: Bool) throws -> Bool {
        collection
            ? try database.storageTableExists(StorageLayout.collectionTable(className, property))
            : try columns(className).contains(property)
    }

    /// Up to `limit` object keys of a class greater than `after` and at most `upTo`, in order:
    /// for walking a class that is being modified without seeing objects created meanwhile.
    package func keys(_ className: String, after: Int64, upTo: Int64, limit: Int) throws -> [ObjectKey] {
        let stmt = try connection.cached(
            "SELECT _key FROM \(quoteIdentifier(StorageLayout.table(className))) WHERE _key > ? AND _key <= ? ORDER BY _key LIMIT ?"
        )
        stmt.bind(1, int: after)
        stmt.bind(2, int: upTo)
        stmt.bind(3, int: Int64(limit))
        defer { stmt.reset() }
        var keys: [ObjectKey] = []
        while try stmt.step() { keys.append(ObjectKey(stmt.int64(0))) }
        return keys
    }

    /// The largest object key of a class, if it has objects.
    package func maxKey(_ className: String) throws -> Int64? {
        let stmt = try connection.prepare("SELECT max(_key) FROM \(quoteIdentifier(StorageLayout.table(className)))")
        guard try stmt.step(), !stmt.isNull(0) else { return nil }
        return stmt.int64(0)
    }

    // MARK: - Classes

    /// Creates a class's tables and indexes.
    package func createClass(_ cls: ObjectSchema) throws { try ddl.createClass(cls) }

    /// Drops a class's table and every collection table it has.
    package func dropClass(_ className: String) throws {
        for property in try collectionProperties(className) {
            try connection.execute(
                "DROP TABLE IF EXISTS \(quoteIdentifier(StorageLayout.collectionTable(className, property)))")
        }
        try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(StorageLayout.table(className)))")
    }

    /// Renames a class's tables (indexes must have been dropped) and rewrites `mixed` links that
    /// name it, in every property of `mixedSources`.
    package func renameClass(from: String, to: String, mixedSources: [LinkSource]) throws {
        for property in try collectionProperties(from) {
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.collectionTable(from, property))) RENAME TO \(quoteIdentifier(StorageLayout.collectionTable(to, property)))"
            )
        }
        try connection.execute(
            "ALTER TABLE \(quoteIdentifier(StorageLayout.table(from))) RENAME TO \(quoteIdentifier(StorageLayout.table(to)))"
        )
        for source in mixedSources {
            try rewriteMixedLinks(in: source, from: from) { link in .link(ObjectLink(to, link.key)) }
        }
    }

    // MARK: - Properties

    /// Adds storage for a property; existing objects get `fill`, or the property's default (null
    /// for optional properties and links, empty for collections). A value SQL can write as a
    /// literal becomes the column's default, so existing rows are not rewritten.
    package func addProperty(_ className: String, _ property: Property, fill: Value? = nil) throws {
        let value = fill ?? Database.defaultValue(for: property)
        if !property.isCollection, !value.isNull, let literal = try sqlLiteral(value, type: property.type) {
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.table(className))) ADD COLUMN \(quoteIdentifier(property.name)) DEFAULT \(literal)"
            )
            return
        }
        try ddl.addProperty(className, property)
        guard !property.isCollection, !value.isNull else { return }
        let stmt = try connection.prepare(
            "UPDATE \(quoteIdentifier(StorageLayout.table(className))) SET \(quoteIdentifier(property.name)) = ?")
        StorageCodec.bind(value, type: property.type, to: stmt, at: 1)
        try stmt.run()
    }

    /// The SQL literal of a value as the codec stores it, when SQL reads it back exactly
    /// (integers, text without NUL, blobs, and doubles that are small integers); else nil.
    func sqlLiteral(_ value: Value, type: PropertyType) throws -> String? {
        let stmt = try connection.prepare("SELECT ?")
        StorageCodec.bind(value, type: type, to: stmt, at: 1)
        guard try stmt.step() else { return nil }
        switch stmt.value(0) {
        case .null: return nil
        case .integer(let i): return String(i)
        case .real(let d):
            guard d == d.rounded(), abs(d) < 9_007_199_254_740_992, !(d == 0 && d.sign == .minus) else { return nil }
            return String(Int64(d)) + ".0"
        case .text(let t):
            guard !t.contains("\0") else { return nil }
            return "'" + t.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF")
            return "X'" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + "'"
        }
    }

    /// Drops a property's column (and every index on it) or collection table.
    package func dropProperty(_ className: String, _ name: String, collection: Bool) throws {
        if collection {
            try connection.execute(
                "DROP TABLE IF EXISTS \(quoteIdentifier(StorageLayout.collectionTable(className, name)))")
        } else if try columns(className).contains(name) {
            for index in try indexes(onColumn: name, of: StorageLayout.table(className)) {
                try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(index))")
            }
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.table(className))) DROP COLUMN \(quoteIdentifier(name))")
        }
    }

    /// Renames a property's column or collection table. Its indexes, named after the property,
    /// are dropped; ``createIndexes(_:collections:)`` makes them again under the new name.
    package func renameProperty(_ className: String, from: String, to: String, collection: Bool) throws {
        try dropPropertyIndexes(className, from)
        if collection {
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.collectionTable(className, from))) RENAME TO \(quoteIdentifier(StorageLayout.collectionTable(className, to)))"
            )
        } else {
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.table(className))) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(to))"
            )
        }
    }

    /// Sets every null of a property (every null element of a collection) to `value`; returns
    /// how many were filled.
    @discardableResult
    package func fillNulls(_ className: String, _ property: Property, with value: Value) throws -> Int {
        let (table, column) =
            property.isCollection
            ? (StorageLayout.collectionTable(className, property.name), "value")
            : (StorageLayout.table(className), property.name)
        guard try database.storageTableExists(table) else { return 0 }
        let stmt = try connection.prepare(
            "UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = ? WHERE \(quoteIdentifier(column)) IS NULL"
        )
        StorageCodec.bind(value, type: property.type, to: stmt, at: 1)
        try stmt.run()
        return connection.changes
    }
}
