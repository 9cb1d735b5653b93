import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// The tables of a relational SQLite export (`--format sqlite`), derived from the schema alone so
/// that the writer and the reader agree on every name.
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

/// The layout of a whole export: every table, and how a link names its target.
final class RelationalLayout {
    let schema: Schema
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
    init(schema: Schema, classes: [ObjectSchema]) throws {
        self.schema = schema
        exported = Set(classes.map(\.name))
        var names = Set(schema.classes.filter { !$0.isEmbedded }.map(\.name))
        names.formUnion([Self.schemaTable, Self.nullEntriesTable])
        for cls in classes {
            let (column, type) = try Self.key(of: cls)
            let table = RelationalTable(
                name: cls.name, kind: .topLevel, objectClass: cls, owner: nil, property: nil,
                keyColumn: column, keyType: type)
            topLevel.append(table)
            all.append(table)
            try addChildren(of: table, names: &names, path: [])
        }
    }

    /// The key column and its SQL type for a top-level class.
    static func key(of cls: ObjectSchema) throws -> (String, String) {
        guard let pk = cls.primaryKeyProperty else { return ("_key", "INTEGER") }
        return (pk.name, pk.type == .int ? "INT" : "TEXT")
    }

    /// The key column and SQL type of a top-level class by name (link targets).
    func targetKey(_ className: String) -> (column: String, type: String)? {
        guard let cls = schema[className] else { return nil }
        return try? Self.key(of: cls)
    }

    /// `path`: the embedded classes on the way from the top-level table (a cycle has no end of tables).
    private func addChildren(of table: RelationalTable, names: inout Set<String>, path: [String]) throws {
        for property in table.properties {
            if Self.reservedColumns.contains(property.name)
                || property.name.hasSuffix("_type")
                    && table.properties.contains(where: { $0.type == .mixed && $0.name + "_type" == property.name })
            {
                throw PorterError(
                    .usage,
                    "--format sqlite: \(table.name).\(property.name) has the name of a column Porter adds to tables (\(Self.reservedColumns.sorted().joined(separator: ", ")), <mixed>_type)"
                )
            }
            let embeddedTarget =
                property.type == .object
                ? property.objectType.flatMap { schema[$0] }.flatMap { $0.isEmbedded ? $0 : nil } : nil
            guard property.collection != .none || embeddedTarget != nil else { continue }
            let name = table.name + "_" + property.name
            guard names.insert(name).inserted else {
                throw PorterError(
                    .usage,
                    "--format sqlite: the table '\(name)' for \(table.name).\(property.name) has the name of another table"
                )
            }
            let child: RelationalTable
            if let embeddedTarget {
                child = RelationalTable(
                    name: name, kind: .embedded, objectClass: embeddedTarget, owner: table, property: property,
                    keyColumn: "_row", keyType: "INTEGER")
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
                        "--format sqlite: embedded classes form a cycle (\(cycle)), which nested tables cannot hold")
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

    /// The column definition of a value (a property or a collection's `value`), with its foreign key.
    private func valueColumn(_ column: String, _ property: Property, notNull: Bool) -> [String] {
        if property.type == .mixed {
            return ["\(quote(column)) ANY", "\(quote(column + "_type")) TEXT"]
        }
        var definition: String
        if property.type == .object, let target = property.objectType, let key = targetKey(target) {
            definition = "\(quote(column)) \(key.type)"
            if notNull { definition += " NOT NULL" }
            if exported.contains(target) { definition += " REFERENCES \(quote(target))(\(quote(key.column)))" }
            return [definition]
        }
        definition = "\(quote(column)) \(Self.sqlType(property.type))"
        if notNull { definition += " NOT NULL" }
        return [definition]
    }

    /// The `CREATE TABLE` and `CREATE INDEX` statements of every table.
    func createStatements() -> [String] {
        let strict = PlainSQLiteFile.supportsStrictTables ? " STRICT" : ""
        var statements: [String] = []
        for table in all {
            var columns: [String] = []
            var constraints: [String] = []
            var indexes: [String] = []
            switch table.kind {
            case .topLevel:
                if table.keyColumn == "_key" { columns.append("\"_key\" INTEGER PRIMARY KEY") }
            case .embedded:
                guard let owner = table.owner, let ownerKey = owner.keyColumn else { continue }
                columns.append("\"_row\" INTEGER PRIMARY KEY")
                columns.append(
                    "\"_owner\" \(owner.keyType)\(owner.keyIsOptional ? "" : " NOT NULL") REFERENCES \(quote(owner.name))(\(quote(ownerKey)))"
                )
                if let slot = table.slotColumn {
                    columns.append("\(quote(slot)) \(slot == "_position" ? "INTEGER" : "TEXT") NOT NULL")
                    constraints.append("UNIQUE (\"_owner\", \(quote(slot)))")
                } else {
                    constraints.append("UNIQUE (\"_owner\")")
                }
            case .values:
                guard let owner = table.owner, let ownerKey = owner.keyColumn, let property = table.property else {
                    continue
                }
                columns.append(
                    "\"owner\" \(owner.keyType)\(owner.keyIsOptional ? "" : " NOT NULL") REFERENCES \(quote(owner.name))(\(quote(ownerKey)))"
                )
                if let slot = table.slotColumn {
                    columns.append("\(quote(slot)) \(slot == "position" ? "INTEGER" : "TEXT") NOT NULL")
                    constraints.append("PRIMARY KEY (\"owner\", \(quote(slot)))")
                }
                columns += valueColumn("value", property, notNull: !property.isOptional && property.type != .mixed)
                if property.collection == .set {
                    constraints.append(
                        property.type == .mixed
                            ? "UNIQUE (\"owner\", \"value\", \"value_type\")"
                            : "UNIQUE (\"owner\", \"value\")")
                }
                if property.type == .object, let target = property.objectType, exported.contains(target) {
                    indexes.append("CREATE INDEX \(quote(table.name + "_value")) ON \(quote(table.name)) (\"value\")")
                }
            }
            let pk = table.kind == .topLevel ? table.objectClass?.primaryKey : nil
            for property in table.properties where property.collection == .none && table.children[property.name] == nil
            {
                var definitions = valueColumn(
                    property.name, property, notNull: !property.isOptional && property.type != .mixed)
                if property.name == pk {
                    // A STRICT table's primary key is NOT NULL: an optional key (Realm allows one
                    // object whose key is null) is UNIQUE instead, which foreign keys accept too.
                    definitions = [
                        "\(quote(pk ?? "")) \(table.keyType)"
                            + (property.isOptional ? " UNIQUE" : " NOT NULL PRIMARY KEY")
                    ]
                }
                columns += definitions
                let linked = property.type == .object && property.objectType.map(exported.contains) == true
                if property.name != pk && (property.isIndexed || linked) {
                    indexes.append(
                        "CREATE INDEX \(quote(table.name + "_" + property.name)) ON \(quote(table.name)) (\(quote(property.name)))"
                    )
                }
            }
            statements.append(
                "CREATE TABLE \(quote(table.name)) (\((columns + constraints).joined(separator: ", ")))\(strict)")
            statements += indexes
        }
        return statements
    }
}

/// SQL quoting of an identifier.
func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
