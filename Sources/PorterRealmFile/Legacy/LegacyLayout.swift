/// The pre-cluster table layout of file formats 2–9 (realm-core 0.x–5.x): the group's top array
/// lists table names and table refs; a table is `[spec, columns]`; the spec is `[types, names,
/// attributes, subspecs?, enum keys?]`; each column is its own B+tree, and a column with a
/// search index is followed by its index in the columns array (realm-core v5.23.8 `spec.hpp`
/// 120-136, `spec.cpp` `get_column_ndx_in_parent`, `table.cpp` `create_empty_table`).
struct LegacyLayout {
    /// Old ColumnType values (v5.23.8 `column_type.hpp`).
    enum Kind {
        static let int = 0, bool = 1, string = 2, stringEnum = 3, binary = 4, table = 5, mixed = 6,
            oldDateTime = 7, timestamp = 8, float = 9, double = 10, link = 12, linkList = 13, backlink = 14
    }
    /// Old column attributes.
    enum Attr {
        static let indexed = 1, nullable = 16
    }

    /// One public column of a table.
    struct Column {
        /// The name after realm-core 6's upgrade rules (an empty name becomes `col_<n>`, a repeated
        /// one `<name>_<n>`: v6.1.4 `spec.cpp` `convert_column_attributes`).
        var name: String
        /// The name as stored.
        var storedName: String
        /// The old ColumnType.
        var type: Int
        var attrs: Int
        /// The column's root (a B+tree; a Timestamp column's `[seconds, nanoseconds]` top).
        var root: Int64
        /// Links: the group index of the target table.
        var target: Int?
        /// String enums: the keys (a string leaf).
        var enumKeys: Int64 = 0
        /// Subtables: the element type and nullability of the subtable's first column (realm-core
        /// 6 upgrades such a column into a list of that type).
        var element: (type: Int, nullable: Bool)?

        var isNullable: Bool { attrs & Attr.nullable != 0 }
        var isIndexed: Bool { attrs & Attr.indexed != 0 }
    }

    /// One table of the group.
    struct Table {
        var storedName: String
        /// The group index (what links name).
        var index: Int
        var columns: [Column]
        /// The number of rows (the first column's size; 0 without columns).
        var rowCount: Int
        /// A first column `!OID` (Realm's object ids of synced files before realm-core 6): not a
        /// property, but the object keys realm-core 6's upgrade gives the rows (v6.1.4
        /// `table.cpp` `migrate_objects`).
        var objectIds: Column?
    }

    let tables: [Table]
    let historyType: Int

    init(_ mem: Mem, topRef: Int64, format: Int) throws(RealmFault) {
        let top = try mem.array(topRef, minimum: 3, "the top array")
        guard top.count <= 12 else {
            throw RealmFault("the top array at \(hex(topRef)) has \(top.count) slots (expected 3 to 10)")
        }
        let logicalSize = try top.tagged(2)
        if logicalSize > Int64(mem.size) { throw RealmFault.truncated(expected: logicalSize, size: mem.size) }
        historyType = top.count > 7 ? Int(try top.tagged(7)) : 0
        let names = try StringLeaf(mem, ref: try top.ref(0), nullable: false)
        let tableRefs = try mem.array(try top.ref(1), minimum: 0, "the table list")
        guard names.count == tableRefs.count else {
            throw RealmFault("the group lists \(names.count) table names but \(tableRefs.count) tables")
        }
        // realm-core 6 upgrades a file table by table, in place, and sets the format last: tables
        // already in the cluster layout (12-slot tops) mean an upgrade was cut short.
        for i in 0..<tableRefs.count where try mem.node(try tableRefs.ref(i)).count > 2 {
            throw RealmFault(
                "the file was left in the middle of realm-core 6's upgrade (table \(try names.string(i, mem) ?? "") is "
                    + "already in the new layout, the header still says format \(format)): Porter does not read such a file yet"
            )
        }
        var tables: [Table] = []
        for i in 0..<tableRefs.count {
            let stored = try names.string(i, mem) ?? ""
            do {
                tables.append(try Self.table(mem, ref: try tableRefs.ref(i), storedName: stored, index: i))
            } catch {
                throw error.located("table \(stored)")
            }
        }
        self.tables = tables
    }

    static func table(_ mem: Mem, ref: Int64, storedName: String, index: Int) throws(RealmFault) -> Table {
        let top = try mem.array(ref, minimum: 2, "the table top")
        let spec = try mem.array(try top.ref(0), minimum: 3, "the spec")
        let columnRefs = try mem.array(try top.ref(1), minimum: 0, "the column list")
        var columns = try Self.columns(mem, spec: spec, columnRefs: columnRefs)
        var rowCount = 0
        if let first = columns.first { rowCount = try Self.size(mem, first) }
        var objectIds: Column?
        if let first = columns.first, first.storedName == "!OID", first.type == Kind.int {
            objectIds = first
            columns.removeFirst()
        }
        return Table(
            storedName: storedName, index: index, columns: columns, rowCount: rowCount, objectIds: objectIds)
    }

    /// The public columns of a spec whose column B+trees are in `columnRefs`.
    static func columns(_ mem: Mem, spec: Node, columnRefs: Node?) throws(RealmFault) -> [Column] {
        let types = try mem.node(try spec.ref(0))
        try types.requireIntegers("column types")
        let names = try StringLeaf(mem, ref: try spec.ref(1), nullable: false)
        let attrs = try mem.node(try spec.ref(2))
        try attrs.requireIntegers("column attributes")
        guard attrs.count == types.count, names.count <= types.count else {
            throw RealmFault(
                "the spec's arrays disagree: \(types.count) types, \(attrs.count) attributes, \(names.count) names")
        }
        let subspecsRef: Int64 = spec.count > 3 ? try spec.ref(3) : 0
        let subspecs: Node? = subspecsRef != 0 ? try mem.array(subspecsRef, minimum: 0, "the subspecs") : nil
        let enumRef: Int64 = spec.count > 4 ? try spec.ref(4) : 0
        let enumKeys: Node? = enumRef != 0 ? try mem.array(enumRef, minimum: 0, "the enum keys") : nil
        var columns: [Column] = []
        var slot = 0, subspec = 0, enumIndex = 0
        var seen: [String: Int] = [:]
        for i in 0..<types.count {
            let type = Int(types.int(i)), attr = Int(attrs.int(i))
            var column = Column(name: "", storedName: "", type: type, attrs: attr, root: 0)
            if let columnRefs {
                guard slot < columnRefs.count else {
                    throw RealmFault("the column list has no slot for column \(i)")
                }
                column.root = try columnRefs.ref(slot)
            }
            slot += attr & Attr.indexed != 0 ? 2 : 1
            func subspecEntry(_ k: Int) throws(RealmFault) -> Int64 {
                guard let subspecs, k < subspecs.count else {
                    throw RealmFault("column \(i) has no subspec entry")
                }
                return subspecs.int(k)
            }
            switch type {
            case Kind.link, Kind.linkList:
                let entry = try subspecEntry(subspec)
                guard entry & 1 == 1 else { throw RealmFault("column \(i) has no target table") }
                column.target = Int(entry >> 1)
                subspec += 1
            case Kind.backlink:
                subspec += 2
            case Kind.table:
                let entry = try subspecEntry(subspec)
                subspec += 1
                let sub = try mem.array(entry, minimum: 3, "the subtable spec")
                let subColumns = try Self.columns(mem, spec: sub, columnRefs: nil)
                if let first = subColumns.first {
                    column.element = (first.type, first.isNullable)
                }
            case Kind.stringEnum:
                guard let enumKeys, enumIndex < enumKeys.count else {
                    throw RealmFault("the string enum column \(i) has no keys")
                }
                column.enumKeys = try enumKeys.ref(enumIndex)
                enumIndex += 1
            default: break
            }
            guard type != Kind.backlink else { continue }
            guard i < names.count else { throw RealmFault("column \(i) has no name") }
            let stored = try names.string(i, mem) ?? ""
            column.storedName = stored
            // realm-core 6's upgrade names: an empty name is `col_<n>`, a repeated one `<name>_<n>`.
            column.name = stored.isEmpty ? "col_\(i)" : seen[stored] != nil ? "\(stored)_\(i)" : stored
            if seen[stored] == nil { seen[stored] = i }
            columns.append(column)
        }
        return columns
    }

    /// The number of values of a column (its B+tree's size).
    static func size(_ mem: Mem, _ column: Column) throws(RealmFault) -> Int {
        var root = column.root
        var nullableInts = false
        switch column.type {
        case Kind.timestamp:
            root = try mem.array(column.root, minimum: 2, "the timestamp column").ref(0)
            nullableInts = true
        case Kind.int, Kind.bool, Kind.oldDateTime:
            nullableInts = column.isNullable
        default: break
        }
        let node = try mem.node(root)
        if node.isInner {
            guard node.hasRefs, node.count >= 2 else {
                throw RealmFault("the inner B+tree node at \(hex(root)) is malformed")
            }
            let total = try node.tagged(node.count - 1)
            guard total >= 0, total <= Int64(mem.size) * 64 else {
                throw RealmFault("the B+tree at \(hex(root)) claims \(total) values")
            }
            return Int(total)
        }
        if nullableInts { return max(node.count - 1, 0) }
        // String and binary leaves of the medium and big kinds hold their count in a sub-array.
        if (column.type == Kind.string || column.type == Kind.binary) && node.hasRefs {
            return try StringLeaf(mem, node: node).count
        }
        return node.count
    }
}
