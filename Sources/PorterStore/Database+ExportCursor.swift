import PorterCSQLite
import Foundation
import PorterModel

/// Streams the objects of one top-level class for an export, with every statement prepared once.
///
/// Values come in schema order (stored properties only). A link to a top-level class comes back
/// as what an export writes for it: the target's primary-key value (one `LEFT JOIN` in the same
/// query), or its object key as `.int` when the target class has no primary key. Embedded
/// objects come back as `.link` values to read with ``embedded(_:)``; links held by `mixed`
/// values stay `.link` values, whose exported key ``exportedKey(of:)`` gives.
package final class ExportCursor {
    /// The class.
    package let className: String
    /// Stored properties in schema order (parallel to ``values``).
    package let properties: [Property]
    /// The current object's key.
    @exclusivity(unchecked) package private(set) var key = ObjectKey(0)
    /// The current object's values.
    @exclusivity(unchecked) package private(set) var values: [Value] = []

    let database: Database
    private let reader: ExportRowReader
    private let scan: SQLiteStatement
    private var embeddedReaders: [String: (reader: ExportRowReader, byKey: SQLiteStatement)] = [:]
    private var keyLookups: [String: (pk: Property?, statement: SQLiteStatement?)] = [:]
    /// One object by key (sorted exports read the selected objects in their order).
    private var byKey: SQLiteStatement?

    /// Prepares the cursor over `className`, in object-key order.
    package init(database: Database, className: String) throws {
        self.database = database
        self.className = className
        let plan = try database.plan(for: className)
        properties = plan.persisted
        reader = try ExportRowReader(database: database, plan: plan)
        scan = try database.connection.prepare(reader.selectSQL + " ORDER BY t._key")
    }

    /// Moves to the next object; false at the end.
    package func next() throws -> Bool {
        guard try scan.step() else { return false }
        key = ObjectKey(scan.int64(0))
        try reader.read(scan, key, into: &values)
        return true
    }

    /// Moves to the object `key` (its values in ``values``); false when it does not exist.
    package func seek(_ key: ObjectKey) throws -> Bool {
        let statement: SQLiteStatement
        if let byKey {
            statement = byKey
        } else {
            statement = try database.connection.prepare(reader.selectSQL + " WHERE t._key = ?")
            byKey = statement
        }
        statement.bind(1, int: key.rawValue)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return false }
        self.key = key
        try reader.read(statement, key, into: &values)
        return true
    }

    /// An embedded object's stored properties and values (same conventions), or nil when absent.
    package func embedded(_ link: ObjectLink) throws -> (properties: [Property], values: [Value])? {
        let entry: (reader: ExportRowReader, byKey: SQLiteStatement)
        if let cached = embeddedReaders[link.className] {
            entry = cached
        } else {
            let reader = try ExportRowReader(database: database, plan: try database.plan(for: link.className))
            entry = (reader, try database.connection.prepare(reader.selectSQL + " WHERE t._key = ?"))
            embeddedReaders[link.className] = entry
        }
        entry.byKey.bind(1, int: link.key.rawValue)
        defer { sqlite3_reset(entry.byKey.handle) }
        guard try entry.byKey.step() else { return nil }
        return (entry.reader.plan.persisted, try entry.reader.read(entry.byKey, link.key))
    }

    /// What an export writes for a link held by a mixed value: the target's primary key, or its
    /// object key for a class without one.
    /// - Throws: ``PorterError/Code/notADatabase`` when the target does not exist.
    package func exportedKey(of link: ObjectLink) throws -> Value {
        let entry: (pk: Property?, statement: SQLiteStatement?)
        if let cached = keyLookups[link.className] {
            entry = cached
        } else {
            let plan = try database.plan(for: link.className)
            let sql =
                plan.primaryKey.map { "SELECT \(quoteIdentifier($0.name)) FROM \(plan.table) WHERE _key = ?" }
                ?? "SELECT 1 FROM \(plan.table) WHERE _key = ?"
            entry = (plan.primaryKey, try database.connection.prepare(sql))
            keyLookups[link.className] = entry
        }
        guard let statement = entry.statement else { return .int(link.key.rawValue) }
        statement.bind(1, int: link.key.rawValue)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else {
            throw PorterError(
                .notADatabase, "a stored link points to \(link), which does not exist", location: database.path)
        }
        guard let pk = entry.pk else { return .int(link.key.rawValue) }
        return try StorageCodec.read(statement, 0, type: pk.type, objectType: nil)
    }
}
