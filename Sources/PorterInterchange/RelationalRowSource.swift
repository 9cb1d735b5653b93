import Foundation
import PorterModel
import PorterStore

/// One column ``RelationalReader`` reads: its name and the type of the values it holds (a
/// link's column: its target's key type; a `mixed` value's `_type` column: `string`). A source
/// maps it onto its own columns (PostgreSQL: a `date` is two, the timestamp and `<name>_ns`).
struct RelationalColumn {
    let name: String
    let type: PropertyType

    init(_ name: String, _ type: PropertyType) {
        self.name = name
        self.type = type
    }
}

/// Where a relational export's rows come from (an SQLite file, a PostgreSQL database): its
/// tables, its `_porter_schema` row, and one table's rows in key order as cells in SQLite's
/// forms, so that one reader turns either into documents by the same rules.
///
/// The cells: integers (and booleans as 0 or 1) as `integer`, floating point as `real` (NaN as
/// the text `NaN`), strings, dates (ISO 8601 with nanoseconds), decimal128, ObjectId and UUID
/// as `text`, bytes as `blob`; a `mixed` value as the source writes it (``mixedIsExtendedJSON``).
protocol RelationalRowSource: AnyObject {
    /// The source for messages (a path, or a URL without its password).
    var location: String { get }
    /// The column types the export was written with.
    var dialect: RelationalDialect { get }
    /// Whether `mixed` values are canonical Extended JSON whatever their type (PostgreSQL's
    /// `jsonb`); otherwise scalars are cells of their type, links `Class:key` and only nested
    /// collections Extended JSON (SQLite).
    var mixedIsExtendedJSON: Bool { get }
    /// The names of the tables there.
    func tableNames() throws -> Set<String>
    /// The rows of `_porter_schema`: `layout` (integer) and `schema` (text).
    func schemaRows() throws -> [[SQLiteCell]]
    /// Checks that `table` has `columns` (and `owner`, a child table's owner key column) of types
    /// the export writes for them.
    /// - Throws: ``PorterError`` naming `table.column` and what is wrong.
    func checkColumns(_ table: RelationalTable, _ columns: [RelationalColumn], owner: RelationalColumn?) throws
    /// The rows of a top-level table in key order (`owner` nil), or one owner's rows of a child
    /// table in position order, holding `columns`.
    func rows(_ table: RelationalTable, _ columns: [RelationalColumn], owner: SQLiteCell?) throws
        -> RelationalRowCursor
    /// The keys of the null entries `_porter_null_entries` lists for one owner's dictionary.
    func nullEntryKeys(table: String, owner: SQLiteCell) throws -> [String]
    /// Whether the top-level `table` holds a row whose key column (primary key or `_key`) is
    /// `key`: a link read in place names an object that exists.
    func containsKey(_ table: RelationalTable, _ key: SQLiteCell) throws -> Bool
}

/// Rows being read, one at a time.
protocol RelationalRowCursor: AnyObject {
    /// Moves to the next row; false when there is none.
    func step() throws -> Bool
    /// A cell of the current row, by its position among the columns asked for.
    func cell(_ column: Int) -> SQLiteCell
    /// Ends the reading (the cursor's resources are freed; it is not stepped again).
    func close()
}

/// A relational SQLite export (`--format sqlite`) as a row source.
final class SQLiteRelationalSource: RelationalRowSource {
    let file: PlainSQLiteFile
    private var selects: [String: PlainSQLiteStatement] = [:]
    private var nullEntries: PlainSQLiteStatement?
    private var keyLookups: [String: PlainSQLiteStatement] = [:]

    init(path: String) throws { file = try PlainSQLiteFile(readingAt: path) }

    var location: String { file.path }
    var dialect: RelationalDialect { .sqlite }
    var mixedIsExtendedJSON: Bool { false }

    func tableNames() throws -> Set<String> { try file.tableNames() }

    func schemaRows() throws -> [[SQLiteCell]] {
        try file.rows("SELECT \"layout\", \"schema\" FROM \(RelationalLayout.schemaTable)")
    }

    /// SQLite's columns are checked as they are read: a prepared select names a missing column,
    /// and each cell's storage class is checked against its property.
    func checkColumns(_ table: RelationalTable, _ columns: [RelationalColumn], owner: RelationalColumn?) throws {}

    func rows(_ table: RelationalTable, _ columns: [RelationalColumn], owner: SQLiteCell?) throws
        -> RelationalRowCursor
    {
        let statement = try select(table, columns)
        if let owner { statement.bind(1, owner) }
        return Statement(statement)
    }

    /// The select of a table: every row in order (top level), or one owner's rows in order.
    private func select(_ table: RelationalTable, _ columns: [RelationalColumn]) throws -> PlainSQLiteStatement {
        if let statement = selects[table.name] { return statement }
        let names = columns.map { quote($0.name) }.joined(separator: ", ")
        let order = table.slotColumn.map(quote) ?? "rowid"
        let sql: String
        if table.kind == .topLevel {
            sql = "SELECT \(names) FROM \(quote(table.name)) ORDER BY rowid"
        } else {
            sql = "SELECT \(names) FROM \(quote(table.name)) WHERE \(quote(table.ownerColumn)) IS ? ORDER BY \(order)"
        }
        let statement = try file.prepare(sql)
        selects[table.name] = statement
        return statement
    }

    func nullEntryKeys(table: String, owner: SQLiteCell) throws -> [String] {
        let lookup =
            try nullEntries
            ?? file.prepare(
                "SELECT \"key\" FROM \(RelationalLayout.nullEntriesTable) WHERE \"table\" = ? AND \"owner\" IS ?")
        nullEntries = lookup
        defer { lookup.reset() }
        lookup.bind(1, .text(table))
        lookup.bind(2, owner)
        var keys: [String] = []
        while try lookup.step() {
            if case .text(let key) = lookup.cell(0) { keys.append(key) }
        }
        return keys
    }

    func containsKey(_ table: RelationalTable, _ key: SQLiteCell) throws -> Bool {
        guard let column = table.keyColumn else { return false }
        // The key column is the table's primary key (or unique): one indexed look-up.
        let lookup =
            try keyLookups[table.name]
            ?? file.prepare("SELECT 1 FROM \(quote(table.name)) WHERE \(quote(column)) = ? LIMIT 1")
        keyLookups[table.name] = lookup
        defer { lookup.reset() }
        lookup.bind(1, key)
        return try lookup.step()
    }

    /// A prepared select being stepped (reset, for its next owner, when closed).
    private final class Statement: RelationalRowCursor {
        let statement: PlainSQLiteStatement
        init(_ statement: PlainSQLiteStatement) { self.statement = statement }
        func step() throws -> Bool { try statement.step() }
        func cell(_ column: Int) -> SQLiteCell { statement.cell(column) }
        func close() { statement.reset() }
    }
}
