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

    /// Whether the tables are made before the rows, with the types of ordinary values, so that
    /// top-level tables can stream (``stream(_:to:_:)``); a value needing another type then throws
    /// ``PostgresStreamFallback`` and the caller starts again without.
    let optimistic: Bool

    /// - Parameters:
    ///   - spoolBeside: a path whose folder holds the spool files while they exist.
    ///   - optimistic: see ``optimistic``.
    init(layout: RelationalLayout, spoolBeside: String, optimistic: Bool = false) throws {
        self.layout = layout
        self.optimistic = optimistic
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
        try createTables(on: target)
        try sendRest(to: target)
    }

    /// The tables (with `_porter_schema` and its row), with the types the rows written so far
    /// need (an optimistic writer: before any row, the types of ordinary values).
    func createTables(on target: PostgresLoadTarget) throws {
        let statements = layout.postgresStatements(types: columnTypes)
        try target.execute(
            "CREATE TABLE \(RelationalLayout.schemaTable) (\"layout\" integer NOT NULL, \"schema\" text NOT NULL)")
        for statement in statements.tables { try target.execute(statement) }
        let schemaRow = CopySpool.memory()
        schemaRow.text(String(RelationalValues.layoutVersion))
        schemaRow.tab()
        schemaRow.text(layout.schema.jsonString(pretty: true))
        try schemaRow.endRow()
        try target.copy(into: RelationalLayout.schemaTable, from: schemaRow, bytea: [])
    }

    /// Sends the rows of `table` that `body` writes (its objects, read while they are sent) as
    /// one `COPY`, straight to `target`: the rows are never kept. Only for an optimistic writer.
    func stream(_ table: RelationalTable, to target: PostgresLoadTarget, _ body: () throws -> Void) throws {
        precondition(optimistic, "only an optimistic writer's tables exist before their rows")
        guard let spool = spools[ObjectIdentifier(table)] else { return try body() }
        try target.copyStream(into: table.name) { send in
            try withoutActuallyEscaping(send) { try spool.stream(to: $0, body) }
        }
    }

    /// The rows of every table not streamed, then the null map entries, the secondary indexes
    /// and the foreign keys.
    func sendRest(to target: PostgresLoadTarget) throws {
        for table in layout.all {
            guard let spool = spools[ObjectIdentifier(table)], !spool.streamed, spool.rows > 0 else { continue }
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
        for statement in layout.postgresStatements(types: columnTypes).after { try target.execute(statement) }
    }

    // MARK: Rows

    /// How one column of a table is written, worked out once per table (copying the
    /// ``Property`` of every column of every row cost a tenth of a load).
    private struct Column {
        enum Kind { case mixed, link(keyOf: String?), date, primaryKey(className: String), other }
        let index: Int
        let kind: Kind
        let name: String
    }
    private var columnPlans: [ObjectIdentifier: [Column]] = [:]

    private func columns(_ table: RelationalTable) -> [Column] {
        if let plan = columnPlans[ObjectIdentifier(table)] { return plan }
        let plan = table.columnProperties.map { i, property -> Column in
            let kind: Column.Kind
            switch property.type {
            case .mixed: kind = .mixed
            case .object: kind = .link(keyOf: property.objectType)
            case .date: kind = .date
            default:
                if table.kind == .topLevel, let cls = table.objectClass, cls.primaryKey == property.name {
                    kind = .primaryKey(className: cls.name)
                } else {
                    kind = .other
                }
            }
            return Column(index: i, kind: kind, name: property.name)
        }
        columnPlans[ObjectIdentifier(table)] = plan
        return plan
    }

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
        for column in columns(table) {
            if field > 0 { spool.tab() }
            let value = column.index < values.count ? values[column.index] : .null
            field += try valueFields(
                value, column.kind, table: table, column: column.name, field: field, spool: spool,
                location: "\(table.name).\(column.name)", source: source)
        }
        try spool.endRow()
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
        let kind: Column.Kind
        switch property.type {
        case .mixed: kind = .mixed
        case .object: kind = .link(keyOf: property.objectType)
        case .date: kind = .date
        default: kind = .other
        }
        _ = try valueFields(
            element, kind, table: table, column: "value", field: field, spool: spool, location: location,
            source: source)
        try spool.endRow()
    }

    func nullEntry(_ table: RelationalTable, owner: Value, key: Value) throws {
        hasNullEntries = true
        nullEntries.text(table.name)
        nullEntries.tab()
        try keyField(owner, nullEntries, keyOf: nil, at: table.name)
        nullEntries.tab()
        try keyField(key, nullEntries, keyOf: nil, at: table.name)
        try nullEntries.endRow()
    }

    /// A key (`_key`, `_row`, an owner's key, a position or map key, a link's target key);
    /// `keyOf`: the top-level class whose primary key it is, if any.
    private func keyField(
        _ key: Value, _ spool: CopySpool, keyOf: String?, at location: @autoclosure () -> String
    ) throws {
        switch key {
        case .null: spool.null()
        case .int(let i): spool.int(i)
        case .string(let s):
            if spool.text(s) {
                // A primary key holding U+0000: that class's keys are bytea wherever they are.
                guard let keyOf else {
                    throw PorterError(
                        .notADatabase, "a map key holds U+0000, which PostgreSQL text cannot hold",
                        location: location())
                }
                try byteaKey(keyOf)
            }
        case .objectId(let o): spool.objectId(o)
        case .uuid(let u): spool.text(UUIDCodec.string(u))
        default:
            throw PorterError(.notADatabase, "unexpected \(key.kindName) where a key is stored", location: location())
        }
    }

    /// The field(s) of one value of a column (two for mixed and dates); returns how many.
    private func valueFields(
        _ value: Value, _ kind: Column.Kind, table: RelationalTable, column: String, field: Int, spool: CopySpool,
        location: @autoclosure () -> String, source: ExportObjectSource
    ) throws -> Int {
        switch kind {
        case .mixed:
            switch value {
            case .null:
                spool.null()
                spool.tab()
                spool.null()
            default:
                let (_, type) = try RelationalValues.mixedCell(value, at: location(), source: source)
                let json = try RelationalValues.nestedJSON(value, source: source).serialized(pretty: false)
                // jsonb refuses \u0000 (PostgreSQL text cannot hold it): the column is then text.
                if json.contains("\\u0000") { try fallBack(table, field, column, "text") }
                spool.text(json)
                spool.tab()
                spool.text(type ?? value.kindName)
            }
            return 2
        case .link(let keyOf):
            try keyField(value, spool, keyOf: keyOf, at: location())
            return 1
        case .date, .primaryKey, .other: break
        }
        switch value {
        case .null:
            spool.null()
            if case .date = kind {
                spool.tab()
                spool.null()
                return 2
            }
        case .bool(let b): if b { spool.ascii("t") } else { spool.ascii("f") }
        case .int(let i): spool.int(i)
        case .float(let f): spool.text(PostgresText.float(Double(f), description: f.description))
        case .double(let d): spool.text(PostgresText.float(d, description: d.description))
        case .string(let s):
            if spool.text(s) {
                if case .primaryKey(let className) = kind {
                    try byteaKey(className)
                } else {
                    try fallBack(table, field, column, "bytea")
                }
            }
        case .data(let d): spool.bytea(d)
        case .date(let t):
            let parts = PostgresText.TimestampParts(t)
            if !parts.inRange { try fallBack(table, field, column, "text") }
            spool.timestamp(parts)
            spool.tab()
            spool.int(parts.belowMicrosecond)
            return 2
        case .decimal128(let d):
            let (text, exact) = PostgresText.numeric(d)
            if !exact { try fallBack(table, field, column, "text") }
            spool.text(text)
        case .objectId(let o): spool.objectId(o)
        case .uuid(let u): spool.text(UUIDCodec.string(u))
        default:
            throw PorterError(
                .notADatabase, "unexpected \(value.kindName) where a single value is stored", location: location())
        }
        return 1
    }

    /// An optimistic writer's tables have the types of ordinary values: a value needing another
    /// type ends the load (which is then made again, the tables after the rows).
    private func fallBack(_ table: RelationalTable, _ field: Int, _ column: String, _ type: String) throws {
        if optimistic { throw PostgresStreamFallback() }
        fallbacks[ObjectIdentifier(table), default: [:]][field] = (column, type)
    }

    private func byteaKey(_ className: String) throws {
        if optimistic { throw PostgresStreamFallback() }
        byteaKeys.insert(className)
    }
}

/// Thrown while a table streams when a value needs a column type other than its ordinary one.
struct PostgresStreamFallback: Error {}

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
        let parts = TimestampParts(t)
        let spool = CopySpool.memory()
        spool.timestamp(parts)
        var text = ""
        try? spool.forEachChunk { text += String(decoding: $0, as: UTF8.self) }
        return (text, parts.belowMicrosecond, parts.inRange)
    }

    /// A date's fields as `timestamptz` text spells them (UTC, truncated to the microsecond).
    struct TimestampParts {
        var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
        var microseconds: Int64
        /// The nanoseconds below the microsecond (0–999).
        var belowMicrosecond: Int64
        /// Whether `timestamptz` holds the instant.
        var inRange: Bool

        init(_ t: Timestamp) {
            // Floor to whole seconds with nanoseconds 0–999,999,999 (without overflowing at Int64.min).
            var seconds = t.seconds
            var nanos = Int64(t.nanoseconds)
            if nanos < 0 {
                nanos += 1_000_000_000
                seconds = seconds == .min ? .min : seconds - 1
            }
            let days = seconds.floorDiv(86_400)
            let secondOfDay = seconds.floorMod(86_400)
            (year, month, day) = civilFromDays(days)
            hour = secondOfDay / 3600
            minute = secondOfDay / 60 % 60
            second = secondOfDay % 60
            microseconds = nanos / 1000
            belowMicrosecond = nanos % 1000
            inRange = timestampRange.contains(seconds)
        }
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
