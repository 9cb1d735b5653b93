import PorterModel

/// The search-index part of `porter check` (what realm-core's `StringIndex::verify` and
/// `Table::verify` make sure of): every live object of an indexed column is filed in the index
/// exactly once, under the keys of its current value, and each index node's keys ascend.
extension RealmFile {
    /// Sub-indexes go 4 bytes deeper each, up to realm-core's 200-byte limit, under a few inner levels.
    static let indexDepthLimit = 80

    /// One indexed column's check, filled in as the table's objects are walked.
    struct SearchIndexCheck {
        let property: Int
        let place: String
        let indexRef: Int64
        let entries: Int
        var objects = 0
        var skipped = false
        var missing = 0
        var fault: String?
    }

    /// The search-index checks of one table's single-value columns, each index walked once for its
    /// shape and key order (a fault noted, and that column left out), ready to look up every
    /// object's value in the walk ``checkSearchIndexes(of:_:)`` is given.
    func searchIndexChecks(_ table: RealmTable, _ info: TableInfo, note: (String) -> Void) -> [SearchIndexCheck] {
        var checks: [SearchIndexCheck] = []
        for column in info.columns
        where column.hasSearchIndex && column.indexRef != 0 && !column.isCollection
            && column.attrs & ColumnInfo.Attr.fullText == 0
        {
            let place = "\(info.name).\(column.name)"
            // Values come in the table's property order, which need not be the Spec's.
            guard let p = table.properties.firstIndex(where: { $0.name == column.name }) else { continue }
            var entries = 0
            do {
                try countIndexEntries(column.indexRef, depth: 0, total: &entries)
            } catch {
                note(Self.indexFault(place, error))
                continue
            }
            checks.append(SearchIndexCheck(property: p, place: place, indexRef: column.indexRef, entries: entries))
        }
        return checks
    }

    private static func indexFault(_ place: String, _ error: any Error) -> String {
        "\(place): the search index cannot be read: \((error as? RealmFault)?.message ?? "\(error)")"
    }

    /// Looks `object`'s value of each indexed column up in its index (realm-core's lookups by
    /// primary key and by indexed value), noting the first three objects an index misses.
    func checkSearchIndexes(
        of object: RealmObject, _ checks: inout [SearchIndexCheck], tableKeys: [String: Int], note: (String) -> Void
    ) {
        for i in checks.indices where checks[i].fault == nil {
            guard let value = WriterIndexValue(object.values[checks[i].property], tableKeys: tableKeys) else {
                checks[i].skipped = true
                continue
            }
            checks[i].objects += 1
            let holds: Bool
            do {
                holds = try indexHolds(checks[i].indexRef, value, offset: 0, key: object.key, depth: 0)
            } catch {
                checks[i].fault = Self.indexFault(checks[i].place, error)
                continue
            }
            if !holds {
                checks[i].missing += 1
                if checks[i].missing <= 3 {
                    note(
                        "\(checks[i].place): the search index does not hold the object with key \(object.key) "
                            + "under its value \(value.text)")
                }
            }
        }
    }

    /// What the walk found, once it went through every object: faults, the misses past three, and
    /// entries that belong to no object.
    func finishSearchIndexChecks(_ checks: [SearchIndexCheck], _ info: TableInfo, note: (String) -> Void) {
        for check in checks {
            if let fault = check.fault {
                note(fault)
                continue
            }
            if check.missing > 3 {
                note("\(check.place): \(check.missing - 3) more objects missing from the search index")
            }
            // realm-core keeps the primary keys of tombstones (deleted link targets) indexed.
            let tombstones = info.tombstoneRoot != 0 ? ((try? countClusterTree(info.tombstoneRoot)) ?? 0) : 0
            if !check.skipped, check.entries != check.objects + tombstones {
                note(
                    "\(check.place): the search index holds \(check.entries) entries but the class has \(check.objects) objects"
                )
            }
        }
    }

    /// The table keys by class name, for typed links a mixed value holds.
    var tableKeysByName: [String: Int] {
        var keys: [String: Int] = [:]
        for (t, i) in zip(tables, infos) { keys[t.name] = Int(i.key) }
        return keys
    }

    /// Checks the search indexes of one table in a walk of its own (for the tables whose objects
    /// the main walk does not visit: embedded ones, reached through their parents).
    func checkSearchIndexes(_ table: RealmTable, _ info: TableInfo, note: (String) -> Void) {
        var checks = searchIndexChecks(table, info, note: note)
        guard !checks.isEmpty else { return }
        let tableKeys = tableKeysByName
        do {
            try forEachObject(in: table) { object in
                checkSearchIndexes(of: object, &checks, tableKeys: tableKeys, note: note)
            }
        } catch {
            // An object that cannot be read is the object walk's finding, not the index's.
            return
        }
        finishSearchIndexChecks(checks, info, note: note)
    }

    /// Whether a ref in an index leaf is a sub-index rather than a list of object keys: the context
    /// flag alone tells them apart (realm-core 14, src/realm/index_string.cpp,
    /// `IndexArray::index_string` reads `get_context_flag_from_header`). A sub-index of more than
    /// 1,000 keys has an inner root (realm-core's upgrade test file has one: 10,001 ObjectIds
    /// sharing their first 8 bytes); taken for a list, half its objects looked missing.
    static func isSubIndex(_ node: Node) -> Bool { node.context && node.hasRefs }

    /// The 32-bit keys of an index node (its first slot), checked to ascend.
    private func indexKeys(_ node: Node) throws -> Node {
        guard node.hasRefs, node.count >= 1 else {
            throw RealmFault("the index node at \(hex(Int64(node.ref))) is malformed")
        }
        let keys = try mem.node(try node.ref(0))
        guard keys.count == node.count - 1, keys.widthType == 0 else {
            throw RealmFault("the keys of the index node at \(hex(Int64(node.ref))) do not match its slots")
        }
        for i in 1..<max(1, keys.count) where keys.int(i - 1) >= keys.int(i) {
            throw RealmFault("the keys of the index node at \(hex(Int64(node.ref))) are out of order at \(i)")
        }
        return keys
    }

    /// Adds the object keys filed under the index node at `ref` to `total`.
    private func countIndexEntries(_ ref: Int64, depth: Int, total: inout Int) throws {
        guard depth <= Self.indexDepthLimit else { throw RealmFault("the search index nests too deep") }
        let node = try mem.node(ref)
        _ = try indexKeys(node)
        for i in 1..<node.count {
            let slot = try node.get(i)
            if slot & 1 == 1 {
                total += 1
                continue
            }
            let child = try mem.node(slot)
            if node.isInner || Self.isSubIndex(child) {
                try countIndexEntries(slot, depth: depth + 1, total: &total)
            } else {
                try mem.forEachBPlusLeaf(slot) { leaf in total += leaf.count }
            }
        }
    }

    /// Whether the index at `ref` files object `key` under `value` (from byte `offset` on).
    private func indexHolds(_ ref: Int64, _ value: WriterIndexValue, offset: Int, key: Int64, depth: Int) throws
        -> Bool
    {
        guard depth <= Self.indexDepthLimit else { throw RealmFault("the search index nests too deep") }
        let node = try mem.node(ref)
        // The keys' order was checked on every node of this index by `countIndexEntries` before
        // any lookup (a lookup runs only once the index walked clean), so each lookup checks the
        // shape alone and searches by halves: checking the order on every lookup made the check
        // of a 200,000-object file spend half its time re-reading the same keys.
        guard node.hasRefs, node.count >= 1 else {
            throw RealmFault("the index node at \(hex(Int64(node.ref))) is malformed")
        }
        let keys = try mem.node(try node.ref(0))
        guard keys.count == node.count - 1, keys.widthType == 0 else {
            throw RealmFault("the keys of the index node at \(hex(Int64(node.ref))) do not match its slots")
        }
        let wanted = Int64(value.key(at: offset))
        // Inner nodes hold each child's last key: the first key not below the wanted one.
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys.int(middle) < wanted { low = middle + 1 } else { high = middle }
        }
        let i = low
        guard i < keys.count else { return false }
        let slot = try node.get(i + 1)
        if node.isInner { return try indexHolds(slot, value, offset: offset, key: key, depth: depth + 1) }
        guard keys.int(i) == wanted else { return false }
        if slot & 1 == 1 { return slot >> 1 == key }
        let child = try mem.node(slot)
        if Self.isSubIndex(child) {
            return try indexHolds(slot, value, offset: offset + 4, key: key, depth: depth + 1)
        }
        var found = false
        try mem.forEachBPlusLeaf(slot) { leaf in
            for j in 0..<leaf.count where leaf.int(j) == key { found = true }
        }
        return found
    }
}
