import PorterModel
import PorterStore

/// The tables of the relational export (``RelationalLayout``, SQLite) as common table expressions
/// over a Porter database's own tables (``StorageLayout``), so that a WHERE clause translated for
/// the export (``SQLQueryTranslator``) runs unchanged on the database: `--query` of an export from
/// a Porter database into PostgreSQL selects its objects with the same translation
/// `porter query translate` prints, in SQLite, reading only what matches.
///
/// Each export table becomes a view of the rows it would hold: a class table with its key column
/// (the primary key, or `_key`) and its columns; an embedded object's table joined from its owner's
/// link or collection; a collection's table from the database's `class_C.p` table. Values are
/// presented as the export writes them wherever a translated clause compares them
/// (``StorageSQL``), and links as the target's key column, so the joins the translator writes hold.
/// Every view is `NOT MATERIALIZED`: SQLite folds it into the query, using the tables' indexes.
enum StorageRelationalView {
    /// `WITH …` naming every table of `layout` (a layout over the whole schema).
    static func withClause(_ layout: RelationalLayout) -> String {
        let views = layout.all.map { table in
            "\(quote(table.name)) AS NOT MATERIALIZED (\(select(table, layout.schema)))"
        }
        return "WITH " + views.joined(separator: ", ")
    }

    /// The SELECT presenting one export table.
    private static func select(_ table: RelationalTable, _ schema: Schema) -> String {
        switch table.kind {
        case .topLevel:
            let cls = table.objectClass!
            var columns = ["r.\"_key\" AS \"_key\""]
            columns += objectColumns(table, schema)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(quote(StorageLayout.table(cls.name))) AS r"
        case .embedded:
            let owner = table.owner!
            let property = table.property!
            let ownerClass = owner.objectClass!.name
            let target = quote(StorageLayout.table(table.objectClass!.name))
            var columns = ["r.\"_key\" AS \"_row\""]
            var from: String
            if property.collection == .none {
                columns.append("\(ownerKey(owner, "o")) AS \"_owner\"")
                from =
                    "\(quote(StorageLayout.table(ownerClass))) AS o JOIN \(target) AS r ON r.\"_key\" = o.\(quote(property.name))"
            } else {
                from =
                    "\(quote(StorageLayout.collectionTable(ownerClass, property.name))) AS l JOIN \(target) AS r ON r.\"_key\" = l.\"value\""
                columns.append("\(ownerKey(owner, "l", &from)) AS \"_owner\"")
                if let slot = table.slotColumn {
                    columns.append("l.\(property.collection == .list ? "\"_pos\"" : "\"_key\"") AS \(quote(slot))")
                }
            }
            columns += objectColumns(table, schema)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from)"
        case .values:
            let owner = table.owner!
            let property = table.property!
            var from = "\(quote(StorageLayout.collectionTable(owner.objectClass!.name, property.name))) AS l"
            var columns = ["\(ownerKey(owner, "l", &from)) AS \"owner\""]
            if let slot = table.slotColumn {
                columns.append("l.\(property.collection == .list ? "\"_pos\"" : "\"_key\"") AS \(quote(slot))")
            }
            columns += valueColumns("l.\"value\"", "value", property, schema)
            return "SELECT \(columns.joined(separator: ", ")) FROM \(from)"
        }
    }

    /// The export's key of the owner of the object row `ref` (a top-level class with a primary
    /// key names its objects by it, every other table by the database's key).
    private static func ownerKey(_ owner: RelationalTable, _ ref: String) -> String {
        guard owner.kind == .topLevel, let column = owner.keyColumn, column != "_key" else { return "\(ref).\"_key\"" }
        return "\(ref).\(quote(column))"
    }

    /// The export's key of the owner of the collection row `ref` (its `_owner`), joining the owner's
    /// table into `from` when the export names it by its primary key.
    private static func ownerKey(_ owner: RelationalTable, _ ref: String, _ from: inout String) -> String {
        guard owner.kind == .topLevel, let column = owner.keyColumn, column != "_key" else {
            return "\(ref).\"_owner\""
        }
        from += " JOIN \(quote(StorageLayout.table(owner.objectClass!.name))) AS o ON o.\"_key\" = \(ref).\"_owner\""
        return "o.\(quote(column))"
    }

    /// The columns of an object table's single values, read from the object row `r`.
    private static func objectColumns(_ table: RelationalTable, _ schema: Schema) -> [String] {
        table.columnProperties.flatMap {
            valueColumns("r.\(quote($0.property.name))", $0.property.name, $0.property, schema)
        }
    }

    /// The export's column (and `_type` column for mixed) of one stored value.
    private static func valueColumns(_ stored: String, _ name: String, _ property: Property, _ schema: Schema)
        -> [String]
    {
        switch property.type {
        case .float, .double: return ["\(StorageSQL.number(stored)) AS \(quote(name))"]
        case .mixed:
            return [
                "\(StorageSQL.mixedValue(stored)) AS \(quote(name))",
                "\(StorageSQL.mixedKind(stored)) AS \(quote(name + "_type"))",
            ]
        case .object:
            // A link is the target's key column: its primary key when it has one.
            guard let target = property.objectType.flatMap({ schema[$0] }), let pk = target.primaryKey else {
                return ["\(stored) AS \(quote(name))"]
            }
            return [
                "(SELECT t.\(quote(pk)) FROM \(quote(StorageLayout.table(target.name))) AS t WHERE t.\"_key\" = \(stored)) AS \(quote(name))"
            ]
        default: return ["\(stored) AS \(quote(name))"]
        }
    }
}
