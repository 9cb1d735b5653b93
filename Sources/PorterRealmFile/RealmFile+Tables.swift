/// Loading the group's tables: the top array (realm-core `group.hpp` 520-583), each table's top
/// array (`table.hpp` 860-875) and its Spec (`spec.hpp` 88-104).
extension RealmFile {
    /// Internal tables that are never user classes (`object_store.cpp`, sync schemas).
    static let internalTableNames: Set<String> = [
        "metadata", "pk", "sync_internal_schemas", "flx_metadata", "flx_subscription_sets", "flx_subscriptions",
        "client_reset_metadata", "flx_migration", "schema_metadata",
    ]

    static func isInternalTable(_ stored: String) -> Bool {
        if stored.hasPrefix("class_") { return false }
        return internalTableNames.contains(stored) || stored.hasPrefix("flx_") || stored.hasPrefix("sync_")
            || stored.hasPrefix("!")
    }

    struct Group {
        var tables: [TableInfo]
        var historyType: Int
    }

    static func loadGroup(_ mem: Mem, topRef: Int64, allowingShortFile: Bool = false) throws(RealmFault) -> Group {
        let top = try mem.array(topRef, minimum: 3, "the top array")
        guard [3, 5, 7, 9, 10, 11, 12].contains(top.count) else {
            throw RealmFault(
                "the top array at \(hex(topRef)) has \(top.count) slots (expected 3, 5, 7, 9, 10, 11 or 12)")
        }
        let logicalSize = try top.tagged(2)
        if logicalSize > Int64(mem.size) && !allowingShortFile {
            throw RealmFault.truncated(expected: logicalSize, size: mem.size)
        }
        guard logicalSize >= 0 else {
            throw RealmFault(
                "the top array says the file is \(logicalSize) bytes but it has \(mem.size); the file may have changed while reading: copy it with the app closed"
            )
        }
        let historyType = top.count > 7 ? Int(try top.tagged(7)) : 0
        let names = try StringLeaf(mem, ref: try top.ref(0), nullable: false)
        let tableRefs = try mem.array(try top.ref(1), minimum: 0, "the table list")
        guard names.count == tableRefs.count else {
            throw RealmFault("the group lists \(names.count) table names but \(tableRefs.count) tables")
        }
        var tables: [TableInfo] = []
        for i in 0..<tableRefs.count {
            let entry = tableRefs.int(i)
            if entry & 1 == 1 || entry == 0 { continue }  // a freed slot (deleted table)
            let stored = try names.string(i, mem) ?? ""
            do {
                tables.append(try loadTable(mem, ref: entry, storedName: stored))
            } catch {
                throw error.located("table \(stored)")
            }
        }
        return Group(tables: tables, historyType: historyType)
    }

    static func loadTable(_ mem: Mem, ref: Int64, storedName: String) throws(RealmFault) -> TableInfo {
        let top = try mem.array(ref, minimum: 4, "the table top")
        func slotRef(_ i: Int) throws(RealmFault) -> Int64 { i < top.count ? try top.ref(i) : 0 }
        let spec = try mem.array(try top.ref(0), minimum: 3, "the spec")
        let types = try mem.node(try spec.ref(0))
        try types.requireIntegers("column types")
        let names = try StringLeaf(mem, ref: try spec.ref(1), nullable: false)
        let attrs = try mem.node(try spec.ref(2))
        try attrs.requireIntegers("column attributes")
        let enumKeys = spec.count > 4 ? try spec.ref(4) : 0
        let enumArray: Node? = enumKeys != 0 ? try mem.array(enumKeys, minimum: 0, "the enum keys") : nil
        guard spec.count > 5 else { throw RealmFault("the spec has no column keys (a pre-2019 file format)") }
        let colKeys = try mem.node(try spec.ref(5))
        try colKeys.requireIntegers("column keys")
        guard colKeys.count == types.count, attrs.count == types.count, names.count <= types.count else {
            throw RealmFault(
                "the spec's arrays disagree: \(types.count) types, \(attrs.count) attributes, \(names.count) names, \(colKeys.count) column keys"
            )
        }
        let key = UInt32(truncatingIfNeeded: try top.tagged(3))
        let searchIndexes: Node? =
            try slotRef(4) != 0 ? try mem.array(try slotRef(4), minimum: 0, "the search indexes") : nil
        let oppositeTables: Node? = try slotRef(7) != 0 ? try mem.node(try slotRef(7)) : nil
        let oppositeColumns: Node? = try slotRef(8) != 0 ? try mem.node(try slotRef(8)) : nil
        try oppositeTables?.requireIntegers("opposite tables")
        try oppositeColumns?.requireIntegers("opposite columns")
        // Tagged when the table has a primary key (a ColKey may be 0); untagged 0 means none.
        let pkKey: Int64? = top.count > 11 && top.int(11) & 1 == 1 ? top.int(11) >> 1 : nil
        let tableType = top.count > 12 ? Int((top.int(12) & 1 == 1 ? top.int(12) >> 1 : 0) & 3) : 0
        let tombstones = top.count > 13 ? try top.ref(13) : 0

        var columns: [ColumnInfo] = [], backlinks: [ColumnInfo] = []
        var primaryKeyColumn: Int?
        var seenLeaves = Set<Int>()
        for i in 0..<types.count {
            let colKey = colKeys.int(i)
            let leafIndex = Int(colKey & 0xFFFF)
            var type = Int((colKey >> 16) & 0x3F)
            var attr =
                Int((colKey >> 22) & 0xFF)
                | Int(attrs.int(i) & Int64(ColumnInfo.Attr.indexed | ColumnInfo.Attr.fullText))
            if type == ColumnInfo.Kind.linkList { type = ColumnInfo.Kind.link; attr |= ColumnInfo.Attr.list }
            guard seenLeaves.insert(leafIndex).inserted else {
                throw RealmFault("two columns share the leaf index \(leafIndex)")
            }
            let targetTable: UInt32? =
                (oppositeTables.map { leafIndex < $0.count ? UInt32(truncatingIfNeeded: $0.int(leafIndex)) : nil })
                ?? nil
            let opposite: Int64 = (oppositeColumns.map { leafIndex < $0.count ? $0.int(leafIndex) : 0 }) ?? 0
            var indexed = false
            var indexRef: Int64 = 0
            if let searchIndexes, leafIndex < searchIndexes.count {
                indexed = searchIndexes.int(leafIndex) != 0 && searchIndexes.int(leafIndex) & 1 == 0
                if indexed { indexRef = searchIndexes.int(leafIndex) }
            }
            let enumRef: Int64 = enumArray.map { i < $0.count && $0.int(i) & 1 == 0 ? $0.int(i) : 0 } ?? 0
            let name = i < names.count ? (try names.string(i, mem) ?? "") : ""
            let column = ColumnInfo(
                name: name, specIndex: i, colKey: colKey, leafIndex: leafIndex, type: type, attrs: attr,
                targetTable: targetTable, oppositeColKey: opposite, enumKeysRef: enumRef, hasSearchIndex: indexed,
                indexRef: indexRef)
            if type == ColumnInfo.Kind.backlink {
                backlinks.append(column)
            } else {
                guard i < names.count else { throw RealmFault("column \(i) has no name") }
                if colKey == pkKey { primaryKeyColumn = columns.count }
                columns.append(column)
            }
        }
        let name = storedName.hasPrefix("class_") ? String(storedName.dropFirst(6)) : storedName
        let tree = try top.ref(2)
        return TableInfo(
            storedName: storedName, name: name, key: key, clusterRoot: tree, tombstoneRoot: tombstones,
            columns: columns, backlinks: backlinks, primaryKeyColumn: primaryKeyColumn,
            tableType: tableType, isInternal: isInternalTable(storedName))
    }
}
