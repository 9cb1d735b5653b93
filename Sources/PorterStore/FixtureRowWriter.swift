import PorterCSQLite
import PorterModel

/// Writes the objects of one class that a caller has read and checked in full, under object
/// keys the caller assigned, many rows per INSERT: the direct fixture load's store.
///
/// One INSERT per object costs SQLite a cursor open and close, a statement halt and (for a
/// shared in-memory database) its locks per row; a statement of many `VALUES` rows pays them
/// once. Nothing is checked again: every value must already be what ``BulkInserter`` would bind
/// (links as their target's object key), and a constraint failure (a duplicate primary key)
/// only throws; the caller rolls the whole transaction back. Use it inside a write transaction.
package final class FixtureRowWriter {
    let database: Database
    let plan: ClassPlan
    /// For each column, its position in the class's declared properties, and its type.
    private let columnPositions: [Int]
    private let columnTypes: [PropertyType]
    /// Rows per statement, bounded by SQLite's parameter limit.
    private let batch: Int
    private var fullInsert: SQLiteStatement?
    private var listInserts: [String: SQLiteStatement] = [:]

    /// Prepares for `className`, which must be a top-level class of the database's schema.
    package init(database: Database, className: String) throws {
        self.database = database
        plan = try database.plan(for: className)
        let declared = plan.schema.properties.map(\.name)
        columnPositions = plan.columns.map { column in declared.firstIndex(of: column.name) ?? 0 }
        columnTypes = plan.columns.map(\.type)
        let limit = Int(sqlite3_limit(database.connection.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        batch = max(1, min(16, limit / (plan.columns.count + 1)))
    }

    /// The key the next new object of the class takes in this transaction, or nil for a table
    /// whose keys SQLite keeps (an `AUTOINCREMENT` table of an older file), where the caller
    /// cannot assign keys.
    package func firstKey() throws -> Int64? {
        try database.requireWrite()
        _ = try database.explicitObjectKey(plan)
        return plan.keys.autoincrement == true ? nil : plan.keys.floor
    }

    /// Inserts `count` objects: `cells` holds `stride` values per object, by position in the
    /// class's declared properties (collection positions are not read); object `i` gets the key
    /// `firstKey + i`, which must come from ``firstKey()`` in this transaction.
    package func insert(cells: [Value], stride: Int, count: Int, firstKey: Int64) throws {
        guard count > 0 else { return }
        try database.requireWrite()
        let perRow = plan.columns.count + 1
        var row = 0
        while row < count {
            let rows = min(batch, count - row)
            let statement = try objectStatement(rows: rows)
            for r in 0..<rows {
                let base = (row + r) * stride
                let first = Int32(r * perRow + 1)
                for c in 0..<columnPositions.count {
                    FixtureRowWriter.bind(cells[base + columnPositions[c]], columnTypes[c], statement, first + Int32(c))
                }
                statement.bind(first + Int32(perRow - 1), int: firstKey + Int64(row + r))
            }
            try run(statement)
            row += rows
        }
        let last = firstKey + Int64(count - 1)
        database.noteObjectInserted(plan, last)
    }

    /// Inserts list elements of the list property `property`: element `i` goes to the list of
    /// `owners[i]` at `positions[i]`, each list's positions counting from 0 without gaps.
    package func insertListElements(
        _ property: String, owners: [Int64], positions: [Int64], values: [Value]
    ) throws {
        guard !owners.isEmpty else { return }
        try database.requireWrite()
        guard let index = plan.collections.firstIndex(where: { $0.name == property }),
            plan.collections[index].collection == .list
        else { throw PorterError(.usage, "'\(plan.schema.name).\(property)' is no list property") }
        let type = plan.collections[index].type
        var i = 0
        while i < owners.count {
            let rows = min(16, owners.count - i)
            let statement = try listStatement(property, rows: rows)
            for r in 0..<rows {
                let first = Int32(r * 3 + 1)
                statement.bind(first, int: owners[i + r])
                statement.bind(first + 1, int: positions[i + r])
                FixtureRowWriter.bind(values[i + r], type, statement, first + 2)
            }
            try run(statement)
            i += rows
        }
    }

    /// A statement inserting `rows` objects with their keys; the full batch's is kept.
    private func objectStatement(rows: Int) throws -> SQLiteStatement {
        if rows == batch, let fullInsert { return fullInsert }
        let names = plan.columns.map { quoteIdentifier($0.name) } + ["_key"]
        let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        let sql =
            "INSERT INTO \(plan.table) (\(names.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple, count: rows).joined(separator: ", ")
        let statement = try database.connection.prepare(sql)
        if rows == batch { fullInsert = statement }
        return statement
    }

    /// A statement inserting `rows` elements of a list; the 16-row one is kept per property.
    private func listStatement(_ property: String, rows: Int) throws -> SQLiteStatement {
        if rows == 16, let kept = listInserts[property] { return kept }
        let table = quoteIdentifier(StorageLayout.collectionTable(plan.schema.name, property))
        let sql =
            "INSERT INTO \(table) (_owner, _pos, value) VALUES "
            + Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
        let statement = try database.connection.prepare(sql)
        if rows == 16 { listInserts[property] = statement }
        return statement
    }

    /// Binds as ``StorageCodec/bind(_:type:to:at:)`` does, the commonest values without its switch
    /// over every type (an int, a string and null bind alike for every property type).
    @inline(__always)
    private static func bind(_ value: Value, _ type: PropertyType, _ statement: SQLiteStatement, _ index: Int32) {
        switch value {
        case .int(let v): sqlite3_bind_int64(statement.handle, index, v)
        case .string(let s): statement.bind(index, text: s)
        case .null: sqlite3_bind_null(statement.handle, index)
        default: StorageCodec.bind(value, type: type, to: statement, at: index)
        }
    }

    private func run(_ statement: SQLiteStatement) throws {
        database.connection.steps &+= 1
        let rc = sqlite3_step(statement.handle)
        sqlite3_reset(statement.handle)
        guard rc == SQLITE_DONE else { throw database.connection.error(rc, "inserting into \(plan.schema.name)") }
    }
}
