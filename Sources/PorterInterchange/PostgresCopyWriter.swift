import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// Writes the rows of a relational export as PostgreSQL `COPY` text (`--format postgres`,
/// `--to postgresql://…`): one spool file per table, unlinked as soon as it is made (nothing
/// is left behind, whatever ends the process), so rows of every table can be written while the
/// objects stream and each table's rows are then sent as one `COPY`, in bounded memory.
///
/// The text format: fields separated by tabs, rows ended by a newline, `\N` for null, and
/// backslash, tab, newline and carriage return escaped (`\\`, `\t`, `\n`, `\r`); `bytea` as
/// `\\x` and hex digits. While writing, it notes the columns whose values PostgreSQL's own type
/// would not hold exactly (``RelationalColumnTypes``), which the `CREATE TABLE`s, made after the
/// data, then declare `text` or `bytea` (a string column holding U+0000 is re-encoded as UTF-8
/// bytes when its table is sent).
final class PostgresCopyWriter: RelationalRowSink {
    let layout: RelationalLayout
    /// Each table's spool, in ``RelationalLayout/all`` order.
    private var spools: [ObjectIdentifier: CopySpool] = [:]
    /// Per table: the fields (by position in a row) that fall back to another type.
    private var fallbacks: [ObjectIdentifier: [Int: (column: String, type: String)]] = [:]
    /// Top-level classes whose string keys hold U+0000: their key columns, and every column
    /// holding their keys (owners, links), are `bytea`.
    private var byteaKeys: Set<String> = []
    private let nullEntries: CopySpool
    private var hasNullEntries = false
    private var rows: RelationalRows!

    /// - Parameter spoolBeside: a path whose folder holds the spool files while they exist.
    init(layout: RelationalLayout, spoolBeside: String) throws {
        self.layout = layout
        for table in layout.all { spools[ObjectIdentifier(table)] = try CopySpool(beside: spoolBeside) }
        nullEntries = try CopySpool(beside: spoolBeside)
        rows = RelationalRows(layout: layout, sink: self)
    }

    /// Writes one top-level object and everything it holds.
    func writeObject(_ table: RelationalTable, key: ObjectKey, values: [Value], source: ExportObjectSource) throws {
        try rows.writeObject(table, key: key, values: values, source: source)
    }

    /// The column types the values need (once every object is written).
    var columnTypes: RelationalColumnTypes {
        var types = RelationalColumnTypes()
        for table in layout.all {
            for (_, fallback) in fallbacks[ObjectIdentifier(table)] ?? [:] {
                types.set(table.name, fallback.column, fallback.type)
            }
            for (_, column) in byteaKeyFields(table) { types.set(table.name, column, "bytea") }
        }
        return types
    }

    /// The fields of `table` holding keys of ``byteaKeys`` classes (position, column).
    private func byteaKeyFields(_ table: RelationalTable) -> [(Int, String)] {
        guard !byteaKeys.isEmpty else { return [] }
        return layout.postgresColumns(table).enumerated().compactMap { index, column in
            column.keyOf.map(byteaKeys.contains) == true ? (index, column.name) : nil
        }
    }

    /// Every statement and `COPY` of the load, in order, handed to `target`: the tables (with
    /// `_porter_schema`), each table's rows, then the secondary indexes and foreign keys.
    func send(to target: PostgresLoadTarget) throws {
        let statements = layout.postgresStatements(types: columnTypes)
        try target.execute(
            "CREATE TABLE \(RelationalLayout.schemaTable) (\"layout\" integer NOT NULL, \"schema\" text NOT NULL)")
        for statement in statements.tables { try target.execute(statement) }
        let schemaRow = CopySpool.memory()
        schemaRow.text(String(RelationalValues.layoutVersion))
        schemaRow.tab()
        schemaRow.text(layout.schema.jsonString(pretty: true))
        schemaRow.endRow()
        try target.copy(into: RelationalLayout.schemaTable, from: schemaRow, bytea: [])
        for table in layout.all {
            guard let spool = spools[ObjectIdentifier(table)], spool.rows > 0 else { continue }
            let bytea = Set((fallbacks[ObjectIdentifier(table)] ?? [:]).filter { $0.value.type == "bytea" }.keys)
                .union(byteaKeyFields(table).map(\.0))
            try target.copy(into: table.name, from: spool, bytea: bytea)
        }
        if hasNullEntries {
            try target.execute(
                "CREATE TABLE \(RelationalLayout.nullEntriesTable) (\"table\" text NOT NULL, \"owner\" text NOT NULL, \"key\" text NOT NULL, PRIMARY KEY (\"table\", \"owner\", \"key\"))"
            )
            try target.copy(into: RelationalLayout.nullEntriesTable, from: nullEntries, bytea: [])
        }
        for statement in statements.after { try target.execute(statement) }
    }

    // MARK: Rows

    func objectRow(_ table: RelationalTable, prefix: [Value], values: [Value], source: ExportObjectSource) throws {
        guard let spool = spools[ObjectIdentifier(table)] else { return }
        var field = 0
        // `_key`, or `_row`, `_owner` (a top-level owner's key) and the slot.
        let ownerClass = table.owner.flatMap { $0.kind == .topLevel ? $0.objectClass?.name : nil }
        for key in prefix {
            if field > 0 { spool.tab() }
            try keyField(key, spool, keyOf: field == 1 ? ownerClass : nil, at: table.name)
            field += 1
        }
        for (i, property) in table.columnProperties {
            if field > 0 { spool.tab() }
            let value = i < values.count ? values[i] : .null
            field += try valueFields(
                value, property, table: table, column: property.name, field: field, spool: spool,
                location: "\(table.name).\(property.name)", source: source)
        }
        spool.endRow()
    }

    func elementRow(
        _ table: RelationalTable, owner: Value, slot: Value?, element: Value, location: String,
        source: ExportObjectSource
    ) throws {
        guard let spool = spools[ObjectIdentifier(table)], let property = table.property else { return }
        let ownerClass = table.owner.flatMap { $0.kind == .topLevel ? $0.objectClass?.name : nil }
        try keyField(owner, spool, keyOf: ownerClass, at: location)
        var field = 1
        if let slot {
            spool.tab()
            try keyField(slot, spool, keyOf: nil, at: location)
            field += 1
        }
        spool.tab()
        _ = try valueFields(
            element, property, table: table, column: "value", field: field, spool: spool, location: location,
            source: source)
        spool.endRow()
    }

    func nullEntry(_ table: RelationalTable, owner: Value, key: Value) throws {
        hasNullEntries = true
        nullEntries.text(table.name)
        nullEntries.tab()
        try keyField(owner, nullEntries, keyOf: nil, at: table.name)
        nullEntries.tab()
        try keyField(key, nullEntries, keyOf: nil, at: table.name)
        nullEntries.endRow()
    }

    /// A key (`_key`, `_row`, an owner's key, a position or map key, a link's target key);
    /// `keyOf`: the top-level class whose primary key it is, if any.
    private func keyField(
        _ key: Value, _ spool: CopySpool, keyOf: String?, at location: @autoclosure () -> String
    ) throws {
        switch key {
        case .null: spool.null()
        case .int(let i): spool.text(String(i))
        case .string(let s):
            if spool.text(s) {
                // A primary key holding U+0000: that class's keys are bytea wherever they are.
                guard let keyOf else {
                    throw PorterError(
                        .notADatabase, "a map key holds U+0000, which PostgreSQL text cannot hold",
                        location: location())
                }
                byteaKeys.insert(keyOf)
            }
        case .objectId(let o): spool.text(o.stringValue)
        case .uuid(let u): spool.text(UUIDCodec.string(u))
        default:
            throw PorterError(.notADatabase, "unexpected \(key.kindName) where a key is stored", location: location())
        }
    }

    /// The field(s) of one value of `property` (two for mixed and dates); returns how many.
    private func valueFields(
        _ value: Value, _ property: Property, table: RelationalTable, column: String, field: Int, spool: CopySpool,
        location: @autoclosure () -> String, source: ExportObjectSource
    ) throws -> Int {
        if property.type == .mixed {
            switch value {
            case .null:
                spool.null()
                spool.tab()
                spool.null()
            default:
                let (_, type) = try RelationalValues.mixedCell(value, at: location(), source: source)
                let json = try RelationalValues.nestedJSON(value, source: source).serialized(pretty: false)
                // jsonb refuses \u0000 (PostgreSQL text cannot hold it): the column is then text.
                if json.contains("\\u0000") { fallBack(table, field, column, "text") }
                spool.text(json)
                spool.tab()
                spool.text(type ?? value.kindName)
            }
            return 2
        }
        if property.type == .object {
            try keyField(value, spool, keyOf: property.objectType, at: location())
            return 1
        }
        switch value {
        case .null:
            spool.null()
            if property.type == .date {
                spool.tab()
                spool.null()
                return 2
            }
        case .bool(let b): spool.text(b ? "t" : "f")
        case .int(let i): spool.text(String(i))
        case .float(let f): spool.text(PostgresText.float(Double(f), description: f.description))
        case .double(let d): spool.text(PostgresText.float(d, description: d.description))
        case .string(let s):
            if spool.text(s) {
                if table.kind == .topLevel, let cls = table.objectClass, cls.primaryKey == property.name {
                    byteaKeys.insert(cls.name)
                } else {
                    fallBack(table, field, column, "bytea")
                }
            }
        case .data(let d): spool.bytea(d)
        case .date(let t):
            let (text, nanos, inRange) = PostgresText.timestamp(t)
            if !inRange { fallBack(table, field, column, "text") }
            spool.text(text)
            spool.tab()
            spool.text(String(nanos))
            return 2
        case .decimal128(let d):
            let (text, exact) = PostgresText.numeric(d)
            if !exact { fallBack(table, field, column, "text") }
            spool.text(text)
        case .objectId(let o): spool.text(o.stringValue)
        case .uuid(let u): spool.text(UUIDCodec.string(u))
        default:
            throw PorterError(
                .notADatabase, "unexpected \(value.kindName) where a single value is stored", location: location())
        }
        return 1
    }

    private func fallBack(_ table: RelationalTable, _ field: Int, _ column: String, _ type: String) {
        fallbacks[ObjectIdentifier(table), default: [:]][field] = (column, type)
    }
}

/// How values are spelled for PostgreSQL's types.
enum PostgresText {
    /// A `real` or `double precision` value: the shortest text that reads back as the same bits
    /// (`NaN`, `Infinity` and `-Infinity` spelled as PostgreSQL spells them).
    static func float(_ d: Double, description: String) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return description
    }

    /// The first and last seconds `timestamptz` holds (4714-11-24 BC to 294276-12-31).
    static let timestampRange: ClosedRange<Int64> = -210_866_803_200...9_224_318_015_999

    /// A date as `timestamptz` text (UTC, truncated to the microsecond), the nanoseconds below
    /// the microsecond (0–999), and whether `timestamptz` holds the instant (else the column is
    /// `text`, holding the same text).
    static func timestamp(_ t: Timestamp) -> (text: String, nanos: Int64, inRange: Bool) {
        // Floor to whole seconds with nanoseconds 0–999,999,999 (without overflowing at Int64.min).
        var seconds = t.seconds
        var nanos = Int64(t.nanoseconds)
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds = seconds == .min ? .min : seconds - 1
        }
        let days = seconds.floorDiv(86_400)
        let secondOfDay = seconds.floorMod(86_400)
        let (year, month, day) = civilFromDays(days)
        // PostgreSQL has no year 0: astronomical year 0 is 1 BC.
        let era = year <= 0 ? " BC" : ""
        let shownYear = year <= 0 ? 1 - year : year
        var text = pad(shownYear, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " "
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        text += "." + pad(nanos / 1000, 6) + "+00" + era
        return (text, nanos % 1000, timestampRange.contains(seconds))
    }

    private static func pad(_ n: Int64, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// A decimal128 as `numeric` text, and whether `numeric` holds it exactly: NaN, ±Infinity and
    /// finite values with no positive exponent hold (written in plain notation, whose digits after
    /// the point keep the exponent); `-0` (numeric has no negative zero) and positive exponents
    /// (`1E+2` reads back as `100`, another decimal128 of the same value) do not, and are written
    /// as decimal128's own text.
    static func numeric(_ d: Decimal128) -> (text: String, exact: Bool) {
        let text = d.description
        if d.isNaN || d.isInfinite { return (text, true) }
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(of: "E") {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? ""
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = whole + fraction
        let scale = fraction.count - exponent
        if scale < 0 { return (text, false) }
        if negative && digits.allSatisfy({ $0 == "0" }) { return (text, false) }
        guard exponent != 0 else { return (text, true) }
        // Plain notation: numeric refuses exponents beyond ±1000 in its input.
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let point = padded.index(padded.endIndex, offsetBy: -scale)
        var plain = String(padded[..<point])
        if scale > 0 { plain += "." + padded[point...] }
        return ((negative ? "-" : "") + plain, true)
    }
}
