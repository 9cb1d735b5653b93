import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// Reads a relational SQLite export (`--format sqlite`) back as documents in the shape of every
/// other export (links by primary key or `_key`, embedded objects nested, links in `mixed` as
/// DBRefs, nested collections of `mixed` decoded from their Extended JSON text), so that the
/// import engine reads them with the same rules, modes and errors as any other source.
final class RelationalReader {
    /// A cell that does not hold what its column's property needs: where and what.
    struct CellError: Error {
        var path: String
        var message: String
    }

    let source: RelationalRowSource
    let layout: RelationalLayout
    /// Whether `_porter_null_entries` exists (null entries of dictionaries of embedded objects).
    private let hasNullEntries: Bool

    /// Opens the relational SQLite export at `path`.
    /// - Throws: ``PorterError`` when the file is not a relational export Porter can read.
    convenience init(path: String) throws {
        try self.init(source: SQLiteRelationalSource(path: path))
    }

    /// Reads the schema of `source` from `_porter_schema` and checks that every table and
    /// column the schema's layout needs is there, of a type the export writes.
    /// - Throws: ``PorterError`` when the source is not a relational export Porter can read.
    init(source: RelationalRowSource) throws {
        self.source = source
        let path = source.location
        let tables = try source.tableNames()
        guard tables.contains(RelationalLayout.schemaTable) else {
            throw PorterError(
                .invalidInput,
                "not a relational export of Porter: it holds no \(RelationalLayout.schemaTable) table", location: path)
        }
        let rows = try source.schemaRows()
        guard rows.count == 1, rows[0].count == 2, case .integer(let version) = rows[0][0],
            case .text(let json) = rows[0][1]
        else {
            throw PorterError(
                .invalidInput, "\(RelationalLayout.schemaTable) must hold one row (layout, schema JSON)", location: path
            )
        }
        guard version == RelationalValues.layoutVersion else {
            throw PorterError(
                .invalidInput,
                "the export's table layout \(version) is not one this Porter reads (layout \(RelationalValues.layoutVersion)); use a newer Porter",
                location: path)
        }
        let schema: Schema
        do {
            schema = try Schema(jsonString: json)
        } catch let error as PorterError {
            throw PorterError(.invalidInput, "\(RelationalLayout.schemaTable): \(error.message)", location: path)
        }
        hasNullEntries = tables.contains(RelationalLayout.nullEntriesTable)
        layout = try RelationalLayout(
            schema: schema, classes: schema.classes.filter { !$0.isEmbedded && tables.contains($0.name) },
            dialect: source.dialect)
        for table in layout.all where table.kind != .topLevel && !tables.contains(table.name) {
            throw PorterError(
                .invalidInput,
                "the table '\(table.name)' of \(table.owner?.name ?? "").\(table.property?.name ?? "") is missing",
                location: path)
        }
        for table in layout.all {
            try source.checkColumns(table, columns(table), owner: ownerColumn(table))
        }
    }

    /// Whether the file at `path` is a relational export (an SQLite file with `_porter_schema`).
    static func isExport(_ path: String) -> Bool {
        PlainSQLiteFile.isRelationalExport(path)
    }

    /// Calls `body` with each object of a top-level table in row order, as a document or as the
    /// problem that stopped it from being one.
    func forEachDocument(_ table: RelationalTable, _ body: (Result<Document, CellError>) throws -> Void) throws {
        let statement = try source.rows(table, columns(table), owner: nil)
        defer { statement.close() }
        while try statement.step() {
            var fields: [(key: String, value: DocumentValue)] = []
            do {
                var column = 0
                if table.keyColumn == "_key" {
                    fields.append(("_key", try scalar(statement.cell(0), .int, path: "_key")))
                    column = 1
                }
                try readObject(table, statement, column: &column, into: &fields, path: "")
            } catch let error as CellError {
                try body(.failure(error))
                continue
            }
            try body(.success(Document(fields)))
        }
    }

    /// The columns of an object table's row from `column` on, and its child tables' rows.
    private func readObject(
        _ table: RelationalTable, _ statement: RelationalRowCursor, column: inout Int,
        into fields: inout [(key: String, value: DocumentValue)], path: String
    ) throws {
        // The columns come in property order (a child table's property has none): read as met,
        // the children by their own statements while this one stays on its row.
        let ownKey = ownerKey(table, statement)
        fields.reserveCapacity(fields.count + table.properties.count)
        for property in table.properties {
            if let child = table.children[property.name] {
                fields.append((property.name, try readChild(child, owner: ownKey, path: path + property.name)))
            } else if property.collection != .none {
                fields.append((property.name, .null))
            } else if property.type == .mixed {
                let cell = statement.cell(column), typeCell = statement.cell(column + 1)
                fields.append((property.name, try mixed(cell, typeCell, path: path + property.name)))
                column += 2
            } else {
                fields.append((property.name, try value(statement.cell(column), property, path: path + property.name)))
                column += 1
            }
        }
    }

    /// The key child tables' `owner` columns hold for the current row of an object table.
    private func ownerKey(_ table: RelationalTable, _ statement: RelationalRowCursor) -> SQLiteCell {
        guard table.kind == .topLevel, let pk = table.objectClass?.primaryKey else { return statement.cell(0) }
        // The primary key's column among the selected ones.
        var column = 0
        for property in table.properties where property.collection == .none && table.children[property.name] == nil {
            if property.name == pk { return statement.cell(column) }
            column += property.type == .mixed ? 2 : 1
        }
        return .null
    }

    /// The value of a child table for one owner: an embedded object (or null), an array or a document.
    private func readChild(_ child: RelationalTable, owner: SQLiteCell, path: String) throws -> DocumentValue {
        guard let property = child.property else { return .null }
        let statement = try source.rows(child, columns(child), owner: owner)
        defer { statement.close() }
        var elements: [DocumentValue] = []
        var entries: [(key: String, value: DocumentValue)] = []
        var position = 0
        while try statement.step() {
            let element: DocumentValue
            var column = 0
            var mapKey = ""
            let at = "\(path).\(property.collection == .map ? "" : String(position))"
            if child.kind == .embedded {
                column = 1
                if child.slotColumn != nil { mapKey = text(statement.cell(1)); column = 2 }
                var fields: [(key: String, value: DocumentValue)] = []
                // Nested rows are read by their own statements: this one stays on its row meanwhile.
                let atObject =
                    property.collection == .none
                    ? path + "." : (property.collection == .map ? "\(path).\(mapKey)." : at + ".")
                try readObject(child, statement, column: &column, into: &fields, path: atObject)
                element = .document(Document(fields))
            } else {
                if child.slotColumn != nil { mapKey = text(statement.cell(0)); column = 1 }
                let atValue = property.collection == .map ? path + "." + mapKey : at
                if property.type == .mixed {
                    element = try mixed(statement.cell(column), statement.cell(column + 1), path: atValue)
                } else {
                    element = try value(statement.cell(column), property, path: atValue)
                }
            }
            if property.collection == .map { entries.append((mapKey, element)) } else { elements.append(element) }
            position += 1
        }
        if property.collection == .map, child.kind == .embedded, hasNullEntries {
            for key in try source.nullEntryKeys(table: child.name, owner: owner) { entries.append((key, .null)) }
        }
        switch property.collection {
        case .none: return elements.first ?? .null
        case .map: return .document(Document(entries))
        default: return .array(elements)
        }
    }

    private func text(_ cell: SQLiteCell) -> String {
        if case .text(let s) = cell { return s }
        return ""
    }

    /// The columns the reader reads of a table, in order: its key columns, then one per value
    /// (two for `mixed`: the value and its `_type`), each with the type of the values it holds.
    func columns(_ table: RelationalTable) -> [RelationalColumn] {
        var columns: [RelationalColumn] = []
        switch table.kind {
        case .topLevel: if table.keyColumn == "_key" { columns.append(RelationalColumn("_key", .int)) }
        case .embedded: columns.append(RelationalColumn("_row", .int))
        case .values: break
        }
        if let slot = table.slotColumn {
            columns.append(RelationalColumn(slot, slot.hasSuffix("position") ? .int : .string))
        }
        func add(_ name: String, _ property: Property) {
            columns.append(RelationalColumn(name, storedType(property)))
            if property.type == .mixed { columns.append(RelationalColumn(name + "_type", .string)) }
        }
        if table.kind == .values, let property = table.property { add("value", property) }
        for (_, property) in table.columnProperties { add(property.name, property) }
        return columns
    }

    /// The column of a child table holding its owner's key, with the key's type.
    private func ownerColumn(_ table: RelationalTable) -> RelationalColumn? {
        guard let owner = table.owner else { return nil }
        let type =
            owner.kind == .topLevel ? owner.objectClass?.primaryKeyProperty?.type ?? .int : PropertyType.int
        return RelationalColumn(table.ownerColumn, type)
    }

    /// The type of what a property's column holds: its own, or a link's target key type.
    private func storedType(_ property: Property) -> PropertyType {
        guard property.type == .object else { return property.type }
        return property.objectType.flatMap { layout.schema[$0] }?.primaryKeyProperty?.type ?? .int
    }

    /// A cell as a value of `property` (a scalar, or a link as its target's key).
    private func value(_ cell: SQLiteCell, _ property: Property, path: String) throws -> DocumentValue {
        if property.type == .object {
            guard let target = property.objectType, let cls = layout.schema[target] else {
                throw CellError(path: path, message: "links to a class the schema does not have")
            }
            return try scalar(cell, cls.primaryKeyProperty?.type ?? .int, path: path)
        }
        return try scalar(cell, property.type, path: path)
    }

    /// A cell as a scalar of `type`.
    func scalar(_ cell: SQLiteCell, _ type: PropertyType, path: String) throws -> DocumentValue {
        func fail(_ expected: String) -> CellError {
            CellError(path: path, message: "expected \(expected) for a \(type.rawValue), found \(Self.describe(cell))")
        }
        if case .null = cell { return .null }
        switch (type, cell) {
        case (.bool, .integer(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.bool, _): throw fail("INTEGER 0 or 1")
        case (.int, .integer(let i)): return .int64(i)
        case (.int, _): throw fail("an INTEGER")
        case (.float, .real(let d)), (.double, .real(let d)): return .double(d)
        case (.float, .text("NaN")), (.double, .text("NaN")): return .double(.nan)
        case (.float, .integer(let i)), (.double, .integer(let i)): return .double(Double(i))
        case (.float, _), (.double, _): throw fail("a REAL")
        case (.string, .text(let s)): return .string(s)
        case (.string, _): throw fail("TEXT")
        case (.data, .blob(let d)): return .binary(d, subtype: 0)
        case (.data, _): throw fail("a BLOB")
        case (_, .text(let s)):
            do {
                switch type {
                case .date: return .dateTime(try Timestamp(iso8601: s))
                case .decimal128: return .decimal128(try Decimal128(string: s))
                case .objectId: return .objectId(try ObjectId(string: s))
                case .uuid:
                    guard let u = UUIDCodec.parse(s) else { throw fail("TEXT holding a UUID (8-4-4-4-12 hex digits)") }
                    return .binary(Data(UUIDCodec.bytes(u)), subtype: 4)
                default: throw fail("a value")
                }
            } catch let error as PorterError {
                throw CellError(path: path, message: error.message)
            }
        default: throw fail("TEXT")
        }
    }

    /// A `mixed` value from its value cell and its `_type` cell.
    private func mixed(_ cell: SQLiteCell, _ typeCell: SQLiteCell, path: String) throws -> DocumentValue {
        guard case .text(let typeName) = typeCell else {
            if case .null = typeCell, case .null = cell { return .null }
            throw CellError(
                path: path + "_type", message: "expected TEXT naming the value's type, found \(Self.describe(typeCell))"
            )
        }
        if source.mixedIsExtendedJSON { return try extendedJSONMixed(cell, typeName, path: path) }
        switch (typeName, cell) {
        case ("link", .text(let text)):
            guard let colon = text.firstIndex(of: ":"), let target = layout.schema[String(text[..<colon])],
                !target.isEmbedded
            else {
                throw CellError(
                    path: path,
                    message: "expected 'Class:key' naming a top-level class of the schema, found \(Self.describe(cell))"
                )
            }
            let key = try keyScalar(
                .text(String(text[text.index(after: colon)...])), target.primaryKeyProperty?.type ?? .int,
                path: path)
            return .dbRef(className: target.name, id: key)
        case ("list", .text(let json)), ("dictionary", .text(let json)):
            let decoded = try decodeExtendedJSON(json, path: path)
            switch (typeName, decoded) {
            case ("list", .array), ("dictionary", .document): return decoded
            default:
                throw CellError(
                    path: path,
                    message:
                        "expected a JSON \(typeName == "list" ? "array" : "object") for a \(typeName), found \(decoded.kindDescription)"
                )
            }
        default:
            let type = try scalarType(typeName, path: path)
            if case .null = cell { throw CellError(path: path, message: "NULL with type '\(typeName)'") }
            return try scalar(cell, type, path: path)
        }
    }

    /// The scalar type a mixed value's `_type` names (not link, list or dictionary).
    private func scalarType(_ typeName: String, path: String) throws -> PropertyType {
        guard let type = PropertyType(rawValue: typeName), type != .mixed, type != .object, type != .linkingObjects
        else {
            throw CellError(
                path: path + "_type",
                message:
                    "unknown type '\(abbreviated(typeName))' (expected bool, int, float, double, string, data, date, decimal128, objectId, uuid, link, list or dictionary)"
            )
        }
        return type
    }

    /// Extended JSON text as a value; what is wrong with it, at `path`.
    private func decodeExtendedJSON(_ json: String, path: String) throws -> DocumentValue {
        do {
            return try ExtendedJSON.decode(try JSONValue.parse(json).documentTree)
        } catch let error as ExtendedJSON.Failure {
            throw CellError(path: path, message: "invalid Extended JSON: \(error.message)")
        } catch let error as PorterError {
            throw CellError(path: path, message: "invalid JSON: \(error.message)")
        }
    }

    /// A `mixed` value written as canonical Extended JSON whatever its type (PostgreSQL's `jsonb`),
    /// checked against the type named beside it.
    private func extendedJSONMixed(_ cell: SQLiteCell, _ typeName: String, path: String) throws -> DocumentValue {
        guard case .text(let json) = cell else {
            throw CellError(path: path, message: "expected Extended JSON text, found \(Self.describe(cell))")
        }
        let decoded = try decodeExtendedJSON(json, path: path)
        let matches: Bool
        switch (typeName, decoded) {
        case ("link", .dbRef(let className, id: _)):
            guard let target = layout.schema[className], !target.isEmbedded else {
                throw CellError(
                    path: path, message: "a link to '\(abbreviated(className))', not a top-level class of the schema")
            }
            matches = true
        case ("list", .array), ("dictionary", .document), ("bool", .bool), ("string", .string),
            ("int", .int64), ("int", .int32), ("float", .double), ("double", .double), ("date", .dateTime),
            ("decimal128", .decimal128), ("objectId", .objectId), ("data", .binary(_, subtype: 0)),
            ("uuid", .binary(_, subtype: 4)):
            matches = true
        default:
            _ = try scalarType(typeName, path: path)
            matches = false
        }
        guard matches else {
            throw CellError(path: path, message: "expected a \(typeName), found \(decoded.kindDescription)")
        }
        return decoded
    }

    /// A key written as text after `Class:` (an int key is digits).
    private func keyScalar(_ cell: SQLiteCell, _ type: PropertyType, path: String) throws -> DocumentValue {
        guard type == .int, case .text(let s) = cell else { return try scalar(cell, type, path: path) }
        guard let i = Int64(s) else {
            throw CellError(path: path, message: "expected an integer key after 'Class:', found '\(abbreviated(s))'")
        }
        return .int64(i)
    }

    /// A cell for messages: `INTEGER 7`, `TEXT 'abc'`, `a BLOB of 3 bytes`, `NULL`.
    static func describe(_ cell: SQLiteCell) -> String {
        switch cell {
        case .null: return "NULL"
        case .integer(let i): return "INTEGER \(i)"
        case .real(let d): return "REAL \(d)"
        case .text(let s): return "TEXT '\(abbreviated(s))'"
        case .blob(let d): return "a BLOB of \(d.count) bytes"
        }
    }
}
