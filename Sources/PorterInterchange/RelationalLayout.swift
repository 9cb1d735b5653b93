import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// The tables of a relational export (`--format sqlite`, `--format postgres`), derived from the
/// schema alone so that the writers and the reader agree on every name: one layout, whose SQL types
/// are spelled by the ``RelationalDialect``.
///
/// - A top-level class is a table of its own name; its key column is the primary key as declared
///   (an `int` key is declared `INT`, not `INTEGER`, so it does not replace the rowid, which keeps
///   the objects' order) or `_key INTEGER PRIMARY KEY` (the Realm object key).
/// - A list, set or dictionary is a child table `<Table>_<property>` with `owner`, `position`
///   (lists) or `key` (dictionaries) and `value` (plus `value_type` for `mixed`).
/// - An embedded object is a row of `<Table>_<property>` with `_row INTEGER PRIMARY KEY`,
///   `_owner`, `_position` (lists) or `_map_key` (dictionaries), then its own columns.
/// - A `mixed` property is two columns, `<name>` and `<name>_type`.
final class RelationalTable {
    /// What a table holds.
    enum Kind {
        /// The objects of a top-level class.
        case topLevel
        /// Embedded objects reached through `property` of the owner table.
        case embedded
        /// The elements of a collection of values or links.
        case values
    }

    let name: String
    let kind: Kind
    /// The class whose objects are rows (top-level and embedded tables).
    let objectClass: ObjectSchema?
    /// The table owning this one's rows (child tables).
    weak var owner: RelationalTable?
    /// The owner's property this table holds (child tables).
    let property: Property?
    /// The column rows are known by: the primary key, `_key` or `_row`; nil for value tables.
    let keyColumn: String?
    /// The SQL type of ``keyColumn`` (and of the `owner` columns pointing at it).
    let keyType: String
    /// The class's stored properties, in schema order (object tables).
    let properties: [Property]
    /// Child tables by property name.
    var children: [String: RelationalTable] = [:] {
        didSet { columnProperties = Self.columns(properties, children) }
    }
    /// The properties that are columns of this table (not child tables), with their positions
    /// among ``properties``, computed once: the writer and reader walk them for every row.
    private(set) lazy var columnProperties: [(index: Int, property: Property)] = Self.columns(properties, children)
    /// The position of the class's primary key among ``properties``, found once (not per row).
    private(set) lazy var primaryKeyIndex: Int? = objectClass?.primaryKey.flatMap { pk in
        properties.firstIndex { $0.name == pk }
    }

    private static func columns(_ properties: [Property], _ children: [String: RelationalTable]) -> [(
        index: Int, property: Property
    )] {
        properties.enumerated().filter { $0.element.collection == .none && children[$0.element.name] == nil }
            .map { (index: $0.offset, property: $0.element) }
    }

    init(
        name: String, kind: Kind, objectClass: ObjectSchema?, owner: RelationalTable?, property: Property?,
        keyColumn: String?, keyType: String
    ) {
        self.name = name
        self.kind = kind
        self.objectClass = objectClass
        self.owner = owner
        self.property = property
        self.keyColumn = keyColumn
        self.keyType = keyType
        properties = objectClass?.persistedProperties ?? []
    }

    /// Whether the key may be null (an optional primary key: one object may have a null key).
    var keyIsOptional: Bool { kind == .topLevel && objectClass?.primaryKeyProperty?.isOptional == true }

    /// The column of the owner's key in a child table.
    var ownerColumn: String { kind == .embedded ? "_owner" : "owner" }

    /// The column of the position (lists) or map key (dictionaries) in a child table, if any.
    var slotColumn: String? {
        switch (kind, property?.collection) {
        case (.embedded, .list?): return "_position"
        case (.embedded, .map?): return "_map_key"
        case (.values, .list?): return "position"
        case (.values, .map?): return "key"
        default: return nil
        }
    }
}

/// The SQL database a relational export is for: the layout is the same, the column types differ.
enum RelationalDialect {
    /// SQLite (STRICT tables where available).
    case sqlite
    /// PostgreSQL (`uuid`, `bytea`, `boolean`, `timestamptz`, `numeric`, `jsonb`, …).
    case postgres

    /// The `--format` name, for messages.
    var formatName: String { self == .sqlite ? "sqlite" : "postgres" }
}

/// The layout of a whole export: every table, and how a link names its target.
final class RelationalLayout {
    let schema: Schema
    /// The SQL dialect of the column types.
    let dialect: RelationalDialect
    /// Top-level tables in schema order.
    private(set) var topLevel: [RelationalTable] = []
    /// Every table, parents before children.
    private(set) var all: [RelationalTable] = []
    /// The top-level classes that are tables of this export (links to others get no foreign key).
    let exported: Set<String>

    /// Columns Porter adds to object tables; a property of the same name cannot be exported.
    static let reservedColumns: Set<String> = ["_key", "_row", "_owner", "_position", "_map_key"]
    /// The table holding the schema.
    static let schemaTable = PlainSQLiteFile.exportSchemaTable
    /// The table listing null entries of dictionaries of embedded objects (which have no row).
    static let nullEntriesTable = "_porter_null_entries"

    /// Lays out `classes` (top-level classes of `schema`).
    /// - Throws: ``PorterError`` (`usage`) for what SQLite tables cannot hold: a cycle of embedded
    ///   classes, two tables of one name, a property named as a column Porter adds.
    init(schema: Schema, classes: [ObjectSchema], dialect: RelationalDialect = .sqlite) throws {
        self.schema = schema
        self.dialect = dialect
        exported = Set(classes.map(\.name))
        var names = Set(schema.classes.filter { !$0.isEmbedded }.map(\.name))
        names.formUnion([Self.schemaTable, Self.nullEntriesTable])
        for cls in classes {
            let (column, type) = Self.key(of: cls, dialect: dialect)
            let table = RelationalTable(
                name: cls.name, kind: .topLevel, objectClass: cls, owner: nil, property: nil,
                keyColumn: column, keyType: type)
            try checkNameLength(cls.name, what: "the table of \(cls.name)")
            topLevel.append(table)
            all.append(table)
            try addChildren(of: table, names: &names, path: [])
        }
    }

    /// The key column and its SQL type for a top-level class.
    static func key(of cls: ObjectSchema, dialect: RelationalDialect = .sqlite) -> (String, String) {
        guard let pk = cls.primaryKeyProperty else { return ("_key", dialect == .sqlite ? "INTEGER" : "bigint") }
        switch (dialect, pk.type) {
        case (.sqlite, .int): return (pk.name, "INT")
        case (.sqlite, _): return (pk.name, "TEXT")
        case (.postgres, .int): return (pk.name, "bigint")
        case (.postgres, .uuid): return (pk.name, "uuid")
        case (.postgres, _): return (pk.name, "text")
        }
    }

    /// The key column and SQL type of a top-level class by name (link targets).
    func targetKey(_ className: String) -> (column: String, type: String)? {
        guard let cls = schema[className] else { return nil }
        return Self.key(of: cls, dialect: dialect)
    }

    /// The SQL type of embedded tables' `_row` and `_key` columns.
    var rowType: String { dialect == .sqlite ? "INTEGER" : "bigint" }

    /// PostgreSQL cuts identifiers longer than 63 bytes (two long names would become one): refused.
    private func checkNameLength(_ name: String, what: String) throws {
        guard dialect == .postgres, name.utf8.count > 63 else { return }
        throw PorterError(
            .usage,
            "--format postgres: \(what) would be named '\(name)', longer than the 63 bytes of a PostgreSQL name")
    }

    /// `path`: the embedded classes on the way from the top-level table (a cycle has no end of tables).
    private func addChildren(of table: RelationalTable, names: inout Set<String>, path: [String]) throws {
        let format = "--format \(dialect.formatName)"
        for property in table.properties {
            // PostgreSQL writes a date's nanoseconds below the microsecond in `<date>_ns`.
            let added = dialect == .sqlite ? ["_type"] : ["_type", "_ns"]
            if Self.reservedColumns.contains(property.name)
                || property.name.hasSuffix("_type")
                    && table.properties.contains(where: { $0.type == .mixed && $0.name + "_type" == property.name })
                || dialect == .postgres && property.name.hasSuffix("_ns")
                    && table.properties.contains(where: { $0.type == .date && $0.name + "_ns" == property.name })
            {
                throw PorterError(
                    .usage,
                    "\(format): \(table.name).\(property.name) has the name of a column Porter adds to tables (\(Self.reservedColumns.sorted().joined(separator: ", ")), \(added.map { ($0 == "_ns" ? "<date>" : "<mixed>") + $0 }.joined(separator: ", ")))"
                )
            }
            try checkNameLength(
                property.name + (property.type == .mixed ? "_type" : property.type == .date ? "_ns" : ""),
                what: "the column of \(table.name).\(property.name)")
            let embeddedTarget =
                property.type == .object
                ? property.objectType.flatMap { schema[$0] }.flatMap { $0.isEmbedded ? $0 : nil } : nil
            guard property.collection != .none || embeddedTarget != nil else { continue }
            let name = table.name + "_" + property.name
            guard names.insert(name).inserted else {
                throw PorterError(
                    .usage,
                    "\(format): the table '\(name)' for \(table.name).\(property.name) has the name of another table"
                )
            }
            try checkNameLength(name, what: "the table of \(table.name).\(property.name)")
            let child: RelationalTable
            if let embeddedTarget {
                child = RelationalTable(
                    name: name, kind: .embedded, objectClass: embeddedTarget, owner: table, property: property,
                    keyColumn: "_row", keyType: rowType)
            } else {
                child = RelationalTable(
                    name: name, kind: .values, objectClass: nil, owner: table, property: property,
                    keyColumn: nil, keyType: "")
            }
            table.children[property.name] = child
            all.append(child)
            if let embeddedTarget {
                if path.contains(embeddedTarget.name) {
                    let cycle = (path + [embeddedTarget.name]).joined(separator: " → ")
                    throw PorterError(
                        .usage,
                        "\(format): embedded classes form a cycle (\(cycle)), which nested tables cannot hold")
                }
                try addChildren(of: child, names: &names, path: path + [embeddedTarget.name])
            }
        }
    }

    /// The SQL type of a scalar property type (`ANY` for mixed).
    ///
    /// Floating-point columns are `ANY` holding REAL values in STRICT tables: a column of type REAL
    /// would turn NaN into NULL and store -0.0 as the integer 0 (read back as +0.0), losing data.
    /// A NaN is kept as the TEXT `NaN`.
    static func sqlType(_ type: PropertyType) -> String {
        switch type {
        case .bool, .int: return "INTEGER"
        case .float, .double: return PlainSQLiteFile.supportsStrictTables ? "ANY" : "REAL"
        case .data: return "BLOB"
        case .mixed: return "ANY"
        default: return "TEXT"
        }
    }

    /// The PostgreSQL type of a scalar property type where it holds every value exactly (the
    /// writer falls back to `text` or `bytea` per column where it does not: ``RelationalColumnTypes``).
    static func postgresType(_ type: PropertyType) -> String {
        switch type {
        case .bool: return "boolean"
        case .int: return "bigint"
        case .float: return "real"
        case .double: return "double precision"
        case .data: return "bytea"
        case .uuid: return "uuid"
        case .decimal128: return "numeric"
        case .date: return "timestamptz"
        case .mixed: return "jsonb"
        default: return "text"
        }
    }

    /// One column's SQL pieces: its definitions (two for `mixed`, and for PostgreSQL dates), and
    /// the table and key column its foreign key points to.
    private func valueColumn(
        _ table: RelationalTable, _ column: String, _ property: Property, notNull: Bool, types: RelationalColumnTypes
    ) -> (definitions: [String], reference: (table: String, column: String)?) {
        let postgres = dialect == .postgres
        if property.type == .mixed {
            let type = postgres ? types.type(table.name, column) ?? "jsonb" : "ANY"
            return (["\(quote(column)) \(type)", "\(quote(column + "_type")) \(postgres ? "text" : "TEXT")"], nil)
        }
        var definition: String
        if property.type == .object, let target = property.objectType, let key = targetKey(target) {
            definition = "\(quote(column)) \(types.type(table.name, column) ?? key.type)"
            if notNull { definition += " NOT NULL" }
            return ([definition], exported.contains(target) ? (target, key.column) : nil)
        }
        let type =
            postgres
            ? types.type(table.name, column) ?? Self.postgresType(property.type) : Self.sqlType(property.type)
        definition = "\(quote(column)) \(type)"
        if notNull { definition += " NOT NULL" }
        if postgres && property.type == .date {
            // timestamptz holds microseconds: the nanoseconds below them, 0–999, beside it.
            return ([definition, "\(quote(column + "_ns")) smallint" + (notNull ? " NOT NULL" : "")], nil)
        }
        return ([definition], nil)
    }

    /// The statements creating one table: its `CREATE TABLE` (primary keys and unique constraints
    /// inline), its secondary indexes' columns and its foreign keys.
    private func tableStatement(_ table: RelationalTable, types: RelationalColumnTypes) -> (
        create: String, indexed: [String], references: [(column: String, table: String, key: String)]
    )? {
        let postgres = dialect == .postgres
        var columns: [String] = []
        var constraints: [String] = []
        var indexed: [String] = []
        // PostgreSQL adds foreign keys after the data; SQLite declares them inline.
        var references: [(column: String, table: String, key: String)] = []
        func refer(_ definition: String, _ column: String, _ target: String, _ key: String) -> String {
            if postgres {
                references.append((column, target, key))
                return definition
            }
            return definition + " REFERENCES \(quote(target))(\(quote(key)))"
        }
        // A child table's column holding its owner's key.
        func ownerColumn(_ column: String, _ owner: RelationalTable, _ ownerKey: String) -> String {
            let type = types.type(table.name, column) ?? owner.keyType
            return refer(
                "\(quote(column)) \(type)\(owner.keyIsOptional ? "" : " NOT NULL")", column, owner.name, ownerKey)
        }
        let integer = postgres ? "bigint" : "INTEGER"
        let text = postgres ? "text" : "TEXT"
        switch table.kind {
        case .topLevel:
            if table.keyColumn == "_key" { columns.append("\"_key\" \(integer) PRIMARY KEY") }
        case .embedded:
            guard let owner = table.owner, let ownerKey = owner.keyColumn else { return nil }
            columns.append("\"_row\" \(integer) PRIMARY KEY")
            columns.append(ownerColumn("_owner", owner, ownerKey))
            if let slot = table.slotColumn {
                columns.append("\(quote(slot)) \(slot == "_position" ? integer : text) NOT NULL")
                constraints.append("UNIQUE (\"_owner\", \(quote(slot)))")
            } else {
                constraints.append("UNIQUE (\"_owner\")")
            }
        case .values:
            guard let owner = table.owner, let ownerKey = owner.keyColumn, let property = table.property else {
                return nil
            }
            columns.append(ownerColumn("owner", owner, ownerKey))
            if let slot = table.slotColumn {
                columns.append("\(quote(slot)) \(slot == "position" ? integer : text) NOT NULL")
                constraints.append("PRIMARY KEY (\"owner\", \(quote(slot)))")
            }
            let value = valueColumn(
                table, "value", property, notNull: !property.isOptional && property.type != .mixed, types: types)
            if let target = value.reference {
                columns.append(refer(value.definitions[0], "value", target.table, target.column))
            } else {
                columns += value.definitions
            }
            if property.collection == .set {
                let second =
                    property.type == .mixed ? "value_type" : postgres && property.type == .date ? "value_ns" : nil
                constraints.append(
                    second.map { "UNIQUE (\"owner\", \"value\", \(quote($0)))" } ?? "UNIQUE (\"owner\", \"value\")")
            }
            if value.reference != nil { indexed.append("value") }
        }
        let pk = table.kind == .topLevel ? table.objectClass?.primaryKey : nil
        for property in table.properties where property.collection == .none && table.children[property.name] == nil {
            let column = valueColumn(
                table, property.name, property, notNull: !property.isOptional && property.type != .mixed, types: types)
            var definitions = column.definitions
            if property.name == pk {
                // A STRICT table's primary key is NOT NULL: an optional key (Realm allows one
                // object whose key is null) is UNIQUE instead, which foreign keys accept too.
                definitions = [
                    "\(quote(pk ?? "")) \(types.type(table.name, pk ?? "") ?? table.keyType)"
                        + (property.isOptional ? " UNIQUE" : " NOT NULL PRIMARY KEY")
                ]
            }
            if let target = column.reference, property.name != pk {
                columns.append(refer(definitions[0], property.name, target.table, target.column))
            } else {
                columns += definitions
            }
            if property.name != pk && (property.isIndexed || column.reference != nil) { indexed.append(property.name) }
        }
        let strict = !postgres && PlainSQLiteFile.supportsStrictTables ? " STRICT" : ""
        let create = "CREATE TABLE \(quote(table.name)) (\((columns + constraints).joined(separator: ", ")))\(strict)"
        return (create, indexed, references)
    }

    /// The `CREATE TABLE` and `CREATE INDEX` statements of every table (foreign keys inline).
    func createStatements() -> [String] {
        var statements: [String] = []
        for table in all {
            guard let made = tableStatement(table, types: RelationalColumnTypes()) else { continue }
            statements.append(made.create)
            statements += made.indexed.map {
                "CREATE INDEX \(quote(table.name + "_" + $0)) ON \(quote(table.name)) (\(quote($0)))"
            }
        }
        return statements
    }

    /// PostgreSQL's statements, in the order a load runs them: the tables (before the data), then
    /// the secondary indexes and foreign keys (after it, checked once over the loaded rows).
    /// - Parameter types: the columns whose values PostgreSQL's own type would not hold exactly.
    func postgresStatements(types: RelationalColumnTypes) -> (tables: [String], after: [String]) {
        var tables: [String] = []
        var after: [String] = []
        for table in all {
            guard let made = tableStatement(table, types: types) else { continue }
            tables.append(made.create)
            // Unnamed: PostgreSQL picks a free name (tables and indexes share one namespace).
            after += made.indexed.map { "CREATE INDEX ON \(quote(table.name)) (\(quote($0)))" }
            after += made.references.map {
                "ALTER TABLE \(quote(table.name)) ADD FOREIGN KEY (\(quote($0.column))) REFERENCES \(quote($0.table)) (\(quote($0.key)))"
            }
        }
        return (tables, after)
    }
}

extension RelationalLayout {
    /// PostgreSQL's columns of `table` in order, each with the top-level class whose key it
    /// holds (its own primary key, an owner's key, a link's target), if any.
    func postgresColumns(_ table: RelationalTable) -> [(name: String, keyOf: String?)] {
        var columns: [(name: String, keyOf: String?)] = []
        let ownerClass = table.owner.flatMap { $0.kind == .topLevel ? $0.objectClass?.name : nil }
        func add(_ name: String, _ property: Property) {
            switch property.type {
            case .mixed: columns += [(name, nil), (name + "_type", nil)]
            case .date: columns += [(name, nil), (name + "_ns", nil)]
            case .object where table.children[property.name] == nil || table.kind == .values:
                columns.append((name, property.objectType))
            default: columns.append((name, nil))
            }
        }
        switch table.kind {
        case .topLevel:
            if table.keyColumn == "_key" { columns.append(("_key", nil)) }
        case .embedded:
            columns += [("_row", nil), ("_owner", ownerClass)]
            if let slot = table.slotColumn { columns.append((slot, nil)) }
        case .values:
            columns.append(("owner", ownerClass))
            if let slot = table.slotColumn { columns.append((slot, nil)) }
            if let property = table.property { add("value", property) }
        }
        let pk = table.kind == .topLevel ? table.objectClass?.primaryKey : nil
        for (_, property) in table.columnProperties {
            if property.name == pk {
                columns.append((property.name, table.objectClass?.name))
            } else {
                add(property.name, property)
            }
        }
        return columns
    }
}

/// The column types a PostgreSQL export settles once it has seen every value: a column where
/// PostgreSQL's own type would lose something becomes `text` (a decimal128 `numeric` cannot hold
/// exactly, a date outside `timestamptz`'s years, a mixed value holding U+0000, which `jsonb`
/// refuses) or `bytea` (a string holding U+0000, which `text` refuses: its UTF-8 bytes).
struct RelationalColumnTypes {
    /// `table` → column → type.
    private(set) var overrides: [String: [String: String]] = [:]

    /// The type set for a column, if any.
    func type(_ table: String, _ column: String) -> String? { overrides[table]?[column] }

    /// Sets a column's type.
    mutating func set(_ table: String, _ column: String, _ type: String) {
        overrides[table, default: [:]][column] = type
    }
}

/// SQL quoting of an identifier.
func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
