import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// Where the rows of a relational export go: SQLite inserts (``RelationalWriter``) or PostgreSQL
/// `COPY` text (``PostgresCopyWriter``). ``RelationalRows`` walks the objects for both.
protocol RelationalRowSink: AnyObject {
    /// One row of an object table: `prefix` (`_key`, or `_row`, `_owner` and the slot), then the
    /// values of the table's ``RelationalTable/columnProperties`` taken from `values`.
    func objectRow(_ table: RelationalTable, prefix: [Value], values: [Value], source: ExportObjectSource) throws
    /// One row of a value table: the owner's key, the slot (list position or map key) and the element.
    func elementRow(
        _ table: RelationalTable, owner: Value, slot: Value?, element: Value, location: String,
        source: ExportObjectSource) throws
    /// A null entry of a dictionary of embedded objects, which has no row of its own.
    func nullEntry(_ table: RelationalTable, owner: Value, key: Value) throws
}

/// Turns objects, one at a time, into the rows of a ``RelationalLayout``'s tables (an object's
/// own row, then its child tables' rows), handed to a ``RelationalRowSink``. Values come from an
/// ``ExportObjectSource``, in the shapes every export reads.
final class RelationalRows {
    let layout: RelationalLayout
    unowned let sink: RelationalRowSink
    /// The next `_row` of each embedded table.
    private var nextRow: [String: Int64] = [:]

    init(layout: RelationalLayout, sink: RelationalRowSink) {
        self.layout = layout
        self.sink = sink
    }

    /// Writes one top-level object and everything it holds.
    func writeObject(_ table: RelationalTable, key: ObjectKey, values: [Value], source: ExportObjectSource) throws {
        let ownerKey: Value
        if let index = table.primaryKeyIndex, index < values.count {
            ownerKey = values[index]
        } else {
            ownerKey = .int(key.rawValue)
        }
        try writeRow(
            table, prefix: table.keyColumn == "_key" ? [ownerKey] : [], ownKey: ownerKey, values: values, source: source
        )
    }

    /// One row of an object table, then its child tables, whose `owner` is `ownKey`.
    private func writeRow(
        _ table: RelationalTable, prefix: [Value], ownKey: Value, values: [Value], source: ExportObjectSource
    ) throws {
        try sink.objectRow(table, prefix: prefix, values: values, source: source)
        guard !table.children.isEmpty else { return }
        for (i, property) in table.properties.enumerated() {
            guard let child = table.children[property.name], i < values.count else { continue }
            try writeChild(child, property, values[i], owner: ownKey, source: source)
        }
    }

    /// The rows of one child table for one owner.
    private func writeChild(
        _ child: RelationalTable, _ property: Property, _ value: Value, owner: Value, source: ExportObjectSource
    ) throws {
        let location = "\(child.owner?.name ?? "").\(property.name)"
        var slots: [(slot: Value?, element: Value)] = []
        switch (property.collection, value) {
        case (_, .null): return
        case (.none, _): slots = [(nil, value)]
        case (.list, .list(let elements)):
            slots = elements.enumerated().map { (.int(Int64($0.offset)), $0.element) }
        case (.set, .set(let elements)), (.set, .list(let elements)):
            slots = elements.map { (nil, $0) }
        case (.map, .map(let entries)):
            slots = entries.keys.sorted(by: ExportOrder.utf8Less).map { (.string($0), entries[$0] ?? .null) }
        default:
            throw PorterError(
                .notADatabase, "stored value is \(value.kindName), not a \(property.collection.rawValue)",
                location: location)
        }
        for (slot, element) in slots {
            if child.kind == .embedded {
                guard case .link(let link) = element else {
                    if element == .null, let slot, property.collection == .map {
                        try sink.nullEntry(child, owner: owner, key: slot)
                        continue
                    }
                    if element == .null { continue }
                    throw PorterError(
                        .notADatabase, "stored value is \(element.kindName), not an embedded object", location: location
                    )
                }
                guard let object = try source.embedded(link) else {
                    throw PorterError(.notADatabase, "embedded object \(link) is missing", location: location)
                }
                let row = nextRow[child.name, default: 1]
                nextRow[child.name] = row + 1
                try writeRow(
                    child, prefix: [.int(row), owner] + (slot.map { [$0] } ?? []), ownKey: .int(row),
                    values: object.values, source: source)
            } else {
                try sink.elementRow(
                    child, owner: owner, slot: slot, element: element, location: location, source: source)
            }
        }
    }
}

/// Writes the rows of a relational export into a SQLite file (`--format sqlite`).
final class RelationalWriter: RelationalRowSink {
    let file: PlainSQLiteFile
    let layout: RelationalLayout
    private var inserts: [String: PlainSQLiteStatement] = [:]
    /// The insert of each table, by table object (no string hashing per row).
    private var tableInserts: [ObjectIdentifier: PlainSQLiteStatement] = [:]
    private lazy var rows = RelationalRows(layout: layout, sink: self)

    init(file: PlainSQLiteFile, layout: RelationalLayout) {
        self.file = file
        self.layout = layout
    }

    /// Creates every table and fills `_porter_schema` and `user_version`.
    func createTables() throws {
        try file.execute(RelationalLayout.schemaTableStatement)
        try file.prepare("INSERT INTO \(RelationalLayout.schemaTable) VALUES (?, ?)")
            .run([.integer(RelationalValues.layoutVersion), .text(layout.schema.jsonString(pretty: true))])
        // `user_version` is a signed 32-bit integer; `_porter_schema` keeps the exact version.
        try file.execute("PRAGMA user_version = \(min(layout.schema.version, UInt64(Int32.max)))")
        for statement in layout.createStatements() where !Self.isSecondaryIndex(statement) {
            try file.execute(statement)
        }
    }

    /// Creates the secondary (non-unique) indexes, once the rows are in: SQLite builds an index
    /// over existing rows by one sort, where inserting into it row by row touches random pages.
    func createIndexes() throws {
        for statement in layout.createStatements() where Self.isSecondaryIndex(statement) {
            try file.execute(statement)
        }
    }

    private static func isSecondaryIndex(_ statement: String) -> Bool { statement.hasPrefix("CREATE INDEX ") }

    /// Writes one top-level object and everything it holds.
    func writeObject(_ table: RelationalTable, key: ObjectKey, values: [Value], source: ExportObjectSource) throws {
        try rows.writeObject(table, key: key, values: values, source: source)
    }

    func objectRow(_ table: RelationalTable, prefix: [Value], values: [Value], source: ExportObjectSource) throws {
        var cells: [SQLiteCell] = []
        cells.reserveCapacity(prefix.count + table.columnProperties.count + 1)
        for key in prefix { cells.append(try RelationalValues.cell(key, at: table.name)) }
        for (i, property) in table.columnProperties {
            let value = i < values.count ? values[i] : .null
            if property.type == .mixed {
                let (cell, type) = try RelationalValues.mixedCell(
                    value, at: "\(table.name).\(property.name)", source: source)
                cells += [cell, type.map(SQLiteCell.text) ?? .null]
            } else {
                cells.append(try RelationalValues.cell(value, at: "\(table.name).\(property.name)"))
            }
        }
        try insert(into: table, cells)
    }

    func elementRow(
        _ table: RelationalTable, owner: Value, slot: Value?, element: Value, location: String,
        source: ExportObjectSource
    ) throws {
        var cells = [try RelationalValues.cell(owner, at: location)]
        if let slot { cells.append(try RelationalValues.cell(slot, at: location)) }
        if table.property?.type == .mixed {
            let (cell, type) = try RelationalValues.mixedCell(element, at: location, source: source)
            cells += [cell, type.map(SQLiteCell.text) ?? .null]
        } else {
            cells.append(try RelationalValues.cell(element, at: location))
        }
        try insert(into: table, cells)
    }

    /// Listed in `_porter_null_entries` (made on first use).
    func nullEntry(_ table: RelationalTable, owner: Value, key: Value) throws {
        let name = RelationalLayout.nullEntriesTable
        if inserts[name] == nil {
            let strict = PlainSQLiteFile.supportsStrictTables ? " STRICT" : ""
            try file.execute(
                "CREATE TABLE \(name) (\"table\" TEXT NOT NULL, \"owner\" ANY NOT NULL, \"key\" TEXT NOT NULL, PRIMARY KEY (\"table\", \"owner\", \"key\"))\(strict)"
            )
            inserts[name] = try file.prepare("INSERT INTO \(name) VALUES (?, ?, ?)")
        }
        try inserts[name]?.run([
            .text(table.name), try RelationalValues.cell(owner, at: table.name),
            try RelationalValues.cell(key, at: table.name),
        ])
    }

    private func insert(into table: RelationalTable, _ cells: [SQLiteCell]) throws {
        if let statement = tableInserts[ObjectIdentifier(table)] { return try statement.run(cells) }
        let marks = Array(repeating: "?", count: cells.count).joined(separator: ", ")
        let statement = try file.prepare("INSERT INTO \(quote(table.name)) VALUES (\(marks))")
        tableInserts[ObjectIdentifier(table)] = statement
        try statement.run(cells)
    }
}

/// How values are spelled in the cells of a relational export, both ways.
enum RelationalValues {
    /// The layout of ``RelationalLayout``, stored in `_porter_schema.layout`.
    static let layoutVersion: Int64 = 1

    /// A scalar (or a link's exported key) as a cell.
    static func cell(_ value: Value, at location: @autoclosure () -> String) throws -> SQLiteCell {
        switch value {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .int(let i): return .integer(i)
        // SQLite stores a NaN REAL as NULL: NaN is the text `NaN` (the column is `ANY`).
        case .float(let f): return f.isNaN ? .text("NaN") : .real(Double(f))
        case .double(let d): return d.isNaN ? .text("NaN") : .real(d)
        case .string(let s): return .text(s)
        case .data(let d): return .blob(d)
        case .date(let t): return .text(t.iso8601(minimumFractionDigits: 9))
        case .decimal128(let d): return .text(d.description)
        case .objectId(let o): return .text(o.stringValue)
        case .uuid(let u): return .text(UUIDCodec.string(u))
        default:
            throw PorterError(
                .notADatabase, "unexpected \(value.kindName) where a single value is stored", location: location())
        }
    }

    /// A `mixed` value as its value cell and `_type` text (nil for null).
    static func mixedCell(_ value: Value, at location: @autoclosure () -> String, source: ExportObjectSource) throws
        -> (SQLiteCell, String?)
    {
        switch value {
        case .null: return (.null, nil)
        case .link(let link):
            return (.text(link.className + ":" + keyText(try source.exportedKey(of: link))), "link")
        case .list, .map:
            let json = try nestedJSON(value, source: source).serialized(pretty: false)
            if case .list = value { return (.text(json), "list") }
            return (.text(json), "dictionary")
        default:
            return (try cell(value, at: location()), value.kindName)
        }
    }

    /// A link target's exported key as the text after `Class:`.
    static func keyText(_ key: Value) -> String {
        switch key {
        case .int(let i): return String(i)
        case .string(let s): return s
        case .objectId(let o): return o.stringValue
        case .uuid(let u): return UUIDCodec.string(u)
        default: return ""
        }
    }

    /// A value nested in a `mixed` as canonical Extended JSON (dates with digits below the
    /// millisecond in the relaxed ISO form, which keeps nanoseconds; dictionary keys in UTF-8 order).
    static func nestedJSON(_ value: Value, source: ExportObjectSource) throws -> JSONValue {
        func wrap(_ key: String, _ inner: JSONValue) -> JSONValue { .object([JSONMember(key, inner)]) }
        func double(_ d: Double) -> JSONValue {
            if d.isNaN { return wrap("$numberDouble", .string("NaN")) }
            if d.isInfinite { return wrap("$numberDouble", .string(d < 0 ? "-Infinity" : "Infinity")) }
            return wrap("$numberDouble", .string(d.description))
        }
        func binary(_ bytes: Data, _ subtype: String) -> JSONValue {
            wrap(
                "$binary",
                .object([
                    JSONMember("base64", .string(bytes.base64EncodedString())), JSONMember("subType", .string(subtype)),
                ]))
        }
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return wrap("$numberLong", .string(String(i)))
        case .float(let f): return double(Double(f))
        case .double(let d): return double(d)
        case .string(let s): return .string(s)
        case .data(let d): return binary(d, "00")
        case .date(let t):
            if !t.hasSubMillisecondPrecision, let ms = t.milliseconds {
                return wrap("$date", wrap("$numberLong", .string(String(ms))))
            }
            return wrap("$date", .string(t.iso8601(minimumFractionDigits: 9)))
        case .decimal128(let d): return wrap("$numberDecimal", .string(d.description))
        case .objectId(let o): return wrap("$oid", .string(o.stringValue))
        case .uuid(let u): return binary(Data(UUIDCodec.bytes(u)), "04")
        case .link(let link):
            return .object([
                JSONMember("$ref", .string(link.className)),
                JSONMember("$id", try nestedJSON(try source.exportedKey(of: link), source: source)),
            ])
        case .list(let elements), .set(let elements):
            return .array(try elements.map { try nestedJSON($0, source: source) })
        case .map(let entries):
            return .object(
                try entries.keys.sorted(by: ExportOrder.utf8Less).map {
                    JSONMember($0, try nestedJSON(entries[$0] ?? .null, source: source))
                })
        case .object:
            throw PorterError(.notADatabase, "unexpected object value inside a mixed")
        }
    }
}
