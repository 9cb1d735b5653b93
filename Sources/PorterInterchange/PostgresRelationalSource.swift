import Foundation
import PorterModel
import PorterPostgres
import PorterStore

/// A database that Porter's PostgreSQL export made (`porter export --to postgresql://…`, or its
/// SQL file loaded with psql) as a row source: the tables of the connection's current schema,
/// read in one read-only snapshot. Top-level tables stream through a cursor in batches of
/// ``batch`` rows; a child table's rows are read for all the owners of a batch at once (by its
/// owner index), so memory holds a batch and its objects' collections, whatever the size of the
/// tables.
///
/// PostgreSQL's text forms become the reader's cells: `boolean` → 0/1, `bigint` → integer,
/// `real`/`double precision` → the same bits, `bytea` → bytes (a string's UTF-8 when the column
/// fell back to `bytea`), `timestamptz` (or its `text` fallback) plus `<name>_ns` → the instant
/// to the nanosecond, `numeric` → decimal128 text, `uuid` → text, `jsonb` → Extended JSON text.
final class PostgresRelationalSource: RelationalRowSource {
    let connection: PostgresConnection
    /// Rows a top-level table's cursor fetches at a time.
    static let batch = 2000
    /// Per table, per column: its PostgreSQL type (`format_type`).
    private var columnTypes: [String: [String: String]] = [:]
    private var cursors = 0
    /// Per owner table: the keys of its rows being read (a top-level table's fetched batch, an
    /// embedded table's rows for its owners' batch), numbered by ``generation``.
    private var batches: [String: Batch] = [:]
    /// Per child table: its rows for the owners of one batch, by owner key text.
    private var caches: [String: Cache] = [:]
    private var generation = 0

    private struct Batch {
        let generation: Int
        let keys: [String]
    }

    private struct Cache {
        let generation: Int
        let result: PostgresRows
        let groups: [String: [Int]]
    }

    /// Connects and opens a read-only snapshot (every table read as of one instant), in UTC with
    /// ISO dates, floating point to the last bit and `bytea` as hex.
    /// - Throws: ``PorterError``: `usage` for a bad URL, `io` when the server cannot be reached
    ///   or the schema named does not exist.
    init(url: String) throws {
        connection = try PostgresConnection(url: url)
        try connection.execute(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; SET LOCAL extra_float_digits = 3; SET LOCAL bytea_output = 'hex'"
        )
        let schema = try connection.rows("SELECT current_schema()")
        guard schema.count == 1, schema.text(0, 0) != nil else {
            throw PorterError(
                .invalidInput,
                "the connection has no current schema (search_path, or ?schema=, names none that exists)",
                location: connection.displayName)
        }
        let columns = try connection.rows(
            """
            SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a \
            JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 \
            AND NOT a.attisdropped
            """)
        for row in 0..<columns.count {
            guard let table = columns.text(row, 0), let column = columns.text(row, 1), let type = columns.text(row, 2)
            else { continue }
            columnTypes[table, default: [:]][column] = type
        }
    }

    deinit { try? connection.execute("ROLLBACK") }

    var location: String { connection.displayName }
    var dialect: RelationalDialect { .postgres }
    var mixedIsExtendedJSON: Bool { true }

    func tableNames() throws -> Set<String> { Set(columnTypes.keys) }

    func schemaRows() throws -> [[SQLiteCell]] {
        let table = RelationalLayout.schemaTable
        try checkColumns(table, [("layout", ["integer", "bigint", "smallint"]), ("schema", ["text", "jsonb"])])
        let rows = try connection.rows("SELECT \"layout\", \"schema\" FROM \(quote(table))")
        return (0..<rows.count).map { row in
            [
                rows.text(row, 0).flatMap { Int64($0) }.map(SQLiteCell.integer) ?? .null,
                rows.text(row, 1).map(SQLiteCell.text) ?? .null,
            ]
        }
    }

    /// The PostgreSQL types the export writes for a column holding `type` (its own type first,
    /// then the fallbacks of ``RelationalColumnTypes``).
    static func acceptedTypes(_ type: PropertyType) -> [String] {
        switch type {
        case .bool: return ["boolean"]
        case .int: return ["bigint"]
        case .float: return ["real"]
        case .double: return ["double precision"]
        case .string: return ["text", "bytea"]
        case .data: return ["bytea"]
        case .date: return ["timestamp with time zone", "text"]
        case .decimal128: return ["numeric", "text"]
        case .uuid: return ["uuid"]
        case .mixed: return ["jsonb", "text"]
        default: return ["text"]
        }
    }

    func checkColumns(_ table: RelationalTable, _ columns: [RelationalColumn], owner: RelationalColumn?) throws {
        var expected: [(String, [String])] = []
        if let owner { expected.append((owner.name, Self.acceptedTypes(owner.type))) }
        for column in columns {
            expected.append((column.name, Self.acceptedTypes(column.type)))
            if column.type == .date { expected.append((column.name + "_ns", ["smallint"])) }
        }
        try checkColumns(table.name, expected)
    }

    private func checkColumns(_ table: String, _ expected: [(String, [String])]) throws {
        guard let present = columnTypes[table] else {
            throw PorterError(.invalidInput, "the table '\(table)' is missing", location: location)
        }
        for (column, types) in expected {
            guard let type = present[column] else {
                throw PorterError(
                    .invalidInput, "\(table).\(column): the column is missing (a Porter export writes it)",
                    location: location)
            }
            guard types.contains(type) else {
                throw PorterError(
                    .invalidInput,
                    "\(table).\(column): a column of type \(type), where a Porter export writes \(types.joined(separator: " or "))",
                    location: location)
            }
        }
    }

    func rows(_ table: RelationalTable, _ columns: [RelationalColumn], owner: SQLiteCell?) throws
        -> RelationalRowCursor
    {
        let types = columnTypes[table.name] ?? [:]
        var selected: [String] = []
        var plan: [Rows.Field] = []
        for column in columns {
            let type = types[column.name] ?? "text"
            plan.append(Rows.Field(field: selected.count, type: type, holds: column.type))
            selected.append(quote(column.name))
            if column.type == .date { selected.append(quote(column.name + "_ns")) }
        }
        let list = selected.isEmpty ? "NULL" : selected.joined(separator: ", ")
        let from = quote(table.name)
        guard let owner else {
            // Top level: in key order, through a cursor; each batch's keys are noted, for the
            // child tables' rows of the whole batch.
            cursors += 1
            let name = "porter_rows_\(cursors)"
            let order = table.keyColumn.map { " ORDER BY \(quote($0))" } ?? ""
            try connection.execute("DECLARE \(name) NO SCROLL CURSOR FOR SELECT \(list) FROM \(from)\(order)")
            let keyField = columns.firstIndex { $0.name == table.keyColumn }.map { plan[$0].field }
            return Rows(connection: connection, cursor: name, plan: plan) { [weak self] batch in
                guard let self, let keyField else { return }
                self.noteBatch(table.name, keys: (0..<batch.count).compactMap { batch.text($0, keyField) })
            }
        }
        if case .null = owner {
            let order = table.slotColumn ?? (table.kind == .embedded ? "_row" : "value")
            let sql =
                "SELECT \(list) FROM \(from) WHERE \(quote(table.ownerColumn)) IS NULL ORDER BY \(quote(order))"
            return Rows(result: try connection.rows(sql), plan: plan)
        }
        // The rows of every owner of the owner table's current batch, read at the first owner's
        // turn (one query per child table and batch, not per owner) and handed out by owner.
        let ownerType = types[table.ownerColumn] ?? "text"
        if caches[table.name]?.generation != batches[table.owner?.name ?? ""]?.generation {
            try fill(table, list: list, plan: plan, ownerType: ownerType)
        }
        let cache = caches[table.name]
        let rows = parameter(owner, columnType: ownerType).flatMap { cache?.groups[$0] } ?? []
        guard let result = cache?.result else { return Rows(result: nil, rows: [], plan: plan) }
        return Rows(
            result: result, rows: rows,
            plan: plan.map { Rows.Field(field: $0.field + 1, type: $0.type, holds: $0.holds) })
    }

    /// The keys of a batch of an owner table's rows (their child tables' rows are read for all of them).
    private func noteBatch(_ table: String, keys: [String]) {
        generation += 1
        batches[table] = Batch(generation: generation, keys: keys)
    }

    /// Reads the rows of `table` whose owners are the owner table's current batch, in position
    /// (or map key) order, grouped by owner; an embedded table's rows are then the batch of its
    /// own child tables.
    private func fill(_ table: RelationalTable, list: String, plan: [Rows.Field], ownerType: String) throws {
        let keys = batches[table.owner?.name ?? ""]
        let order = table.slotColumn ?? (table.kind == .embedded ? "_row" : "value")
        let literal =
            "{"
            + (keys?.keys ?? []).map {
                "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }.joined(separator: ",") + "}"
        let result = try connection.rows(
            "SELECT \(quote(table.ownerColumn)), \(list) FROM \(quote(table.name)) WHERE \(quote(table.ownerColumn)) = ANY($1::\(ownerType)[]) ORDER BY \(quote(order))",
            parameters: [literal])
        var groups: [String: [Int]] = [:]
        for row in 0..<result.count {
            if let owner = result.text(row, 0) { groups[owner, default: []].append(row) }
        }
        caches[table.name] = Cache(generation: keys?.generation ?? -1, result: result, groups: groups)
        if table.kind == .embedded, let rowField = plan.first?.field {
            // `_row`, the first column asked for, after the owner.
            noteBatch(table.name, keys: (0..<result.count).compactMap { result.text($0, rowField + 1) })
        }
    }

    func nullEntryKeys(table: String, owner: SQLiteCell) throws -> [String] {
        let rows = try connection.rows(
            "SELECT \"key\" FROM \(quote(RelationalLayout.nullEntriesTable)) WHERE \"table\" = $1 AND \"owner\" = $2",
            parameters: [table, parameter(owner, columnType: "text")])
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }

    func containsKey(_ table: RelationalTable, _ key: SQLiteCell) throws -> Bool {
        guard let column = table.keyColumn, let type = columnTypes[table.name]?[column],
            let text = parameter(key, columnType: type)
        else { return false }
        let rows = try connection.rows(
            "SELECT 1 FROM \(quote(table.name)) WHERE \(quote(column)) = $1 LIMIT 1", parameters: [text])
        return rows.count > 0
    }

    /// A key cell as the text of a query parameter for a column of `columnType`.
    private func parameter(_ cell: SQLiteCell, columnType: String?) -> String? {
        switch cell {
        case .null: return nil
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let s): return columnType == "bytea" ? PostgresCells.hex(Data(s.utf8)) : s
        case .blob(let d): return PostgresCells.hex(d)
        }
    }

    /// Rows of a cursor (fetched a batch at a time) or of one result.
    final class Rows: RelationalRowCursor {
        /// Where a column's cell comes from: its field (a date's nanoseconds are the next one),
        /// the column's PostgreSQL type and what it holds.
        struct Field {
            let field: Int
            let type: String
            let holds: PropertyType
        }

        private let connection: PostgresConnection?
        private let cursor: String?
        private let plan: [Field]
        private var result: PostgresRows?
        /// The rows of `result` handed out, in order (all of them when nil).
        private let rows: [Int]?
        private var index = -1
        private var row = -1
        private var finished = false
        private let onBatch: (PostgresRows) -> Void

        init(
            connection: PostgresConnection, cursor: String, plan: [Field],
            onBatch: @escaping (PostgresRows) -> Void
        ) {
            self.connection = connection
            self.cursor = cursor
            self.plan = plan
            rows = nil
            self.onBatch = onBatch
        }

        init(result: PostgresRows?, rows: [Int]? = nil, plan: [Field]) {
            connection = nil
            cursor = nil
            self.plan = plan
            self.result = result
            self.rows = rows
            finished = true
            onBatch = { _ in }
        }

        func step() throws -> Bool {
            index += 1
            if let rows {
                guard index < rows.count else { return false }
                row = rows[index]
                return true
            }
            row = index
            if let result, row < result.count { return true }
            guard !finished, let connection, let cursor else { return false }
            let next = try connection.rows("FETCH \(PostgresRelationalSource.batch) FROM \(cursor)")
            result = next
            index = 0
            row = 0
            if next.count < PostgresRelationalSource.batch { finished = true }
            if next.count > 0 { onBatch(next) }
            return next.count > 0
        }

        func cell(_ column: Int) -> SQLiteCell {
            guard let result, column < plan.count else { return .null }
            let field = plan[column]
            guard let text = result.text(row, field.field) else { return .null }
            if field.holds == .date {
                return PostgresCells.date(text, nanoseconds: result.text(row, field.field + 1))
            }
            return PostgresCells.cell(text, type: field.type, holds: field.holds)
        }

        func close() {
            result = nil
            if let connection, let cursor {
                try? connection.execute("CLOSE \(cursor)")
                finished = true
            }
        }
    }
}

/// PostgreSQL's text forms as the reader's cells.
enum PostgresCells {
    /// A field of a column of PostgreSQL type `type` holding values of `holds`.
    static func cell(_ text: String, type: String, holds: PropertyType) -> SQLiteCell {
        switch type {
        case "boolean": return text == "t" ? .integer(1) : text == "f" ? .integer(0) : .text(text)
        case "bigint", "integer", "smallint": return Int64(text).map(SQLiteCell.integer) ?? .text(text)
        case "real", "double precision":
            let value: Double?
            switch text {
            case "NaN": return .text("NaN")
            case "Infinity": value = .infinity
            case "-Infinity": value = -.infinity
            default: value = type == "real" ? Float(text).map(Double.init) : Double(text)
            }
            return value.map(SQLiteCell.real) ?? .text(text)
        case "bytea":
            guard let bytes = bytes(hex: text) else { return .text(text) }
            // A string column that fell back to bytea holds the string's UTF-8 (it has U+0000).
            if holds == .string, let string = String(validating: bytes, as: UTF8.self) { return .text(string) }
            return .blob(bytes)
        default: return .text(text)
        }
    }

    /// A `timestamptz` (or its `text` fallback: the same form, outside timestamptz's years) and
    /// the nanoseconds beside it, as ISO 8601 text to the nanosecond (the text as it is when it
    /// is not one PostgreSQL writes in UTC: the reader names it).
    static func date(_ text: String, nanoseconds: String?) -> SQLiteCell {
        guard let t = timestamp(text, nanoseconds: nanoseconds) else { return .text(text) }
        return .text(t.iso8601(minimumFractionDigits: 9))
    }

    /// `YYYY-MM-DD HH:MM:SS[.ffffff]+00[ BC]` (years of 4 or more digits) plus 0–999 nanoseconds.
    static func timestamp(_ text: String, nanoseconds: String?) -> Timestamp? {
        var body = Substring(text)
        var bc = false
        if body.hasSuffix(" BC") {
            bc = true
            body = body.dropLast(3)
        }
        guard body.hasSuffix("+00") else { return nil }
        body = body.dropLast(3)
        let parts = body.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, time.count == 3, date[0].count >= 4, date[1].count == 2, date[2].count == 2,
            var year = Int64(date[0]), let month = Int64(date[1]), let day = Int64(date[2]),
            (1...12).contains(month), (1...31).contains(day), let hour = Int64(time[0]), let minute = Int64(time[1])
        else { return nil }
        let secondParts = time[2].split(separator: ".", omittingEmptySubsequences: false)
        guard let second = Int64(secondParts[0]), secondParts.count <= 2, hour < 24, minute < 60, second < 60
        else { return nil }
        var micros: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1]
            guard (1...6).contains(digits.count), let value = Int64(digits) else { return nil }
            micros = value
            for _ in digits.count..<6 { micros *= 10 }
        }
        let nanos = nanoseconds.map { Int64($0) } ?? 0
        guard let nanos, (0...999).contains(nanos) else { return nil }
        // PostgreSQL has no year 0: 1 BC is astronomical year 0.
        if bc { year = 1 - year }
        let days = daysFromCivil(year, month, day)
        // Negative days count from the end of their day, so the earliest instants do not overflow.
        let base: Int64 = days < 0 ? 1 : 0
        let (daySeconds, o1) = (days + base).multipliedReportingOverflow(by: 86_400)
        let (total, o2) = daySeconds.addingReportingOverflow(hour * 3600 + minute * 60 + second - base * 86_400)
        guard !o1, !o2 else { return nil }
        return Timestamp(seconds: total, nanoseconds: Int32(micros * 1000 + nanos))
    }

    /// `\x` and hex digits (PostgreSQL's `bytea` hex form) as bytes.
    static func bytes(hex text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        var bytes = Data(capacity: (utf8.count - 2) / 2)
        var i = 2
        while i < utf8.count {
            guard let high = hexNibble(utf8[i]), let low = hexNibble(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    /// Bytes as `\x` and hex digits, for a `bytea` parameter.
    static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
