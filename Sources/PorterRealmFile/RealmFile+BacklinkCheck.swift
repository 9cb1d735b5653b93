import PorterModel

/// The backlink counts check: every object's stored backlinks, per origin column, equal the links
/// that point at it (realm-core's `Table::verify` and `realm-oracle check`: "3 backlinks stored, 2
/// links point to it"). The links are counted during the check's one walk of the objects; the
/// stored counts are then read column by column, so the extra cost is one pass over backlink columns.
extension RealmFile {
    /// One backlink column: the target table and the origin table and column whose links it records.
    struct BacklinkSlot: Hashable {
        var target: UInt32
        var originTable: UInt32
        var originColumn: Int64
    }

    /// Links counted while the check walks the objects, per backlink column and target object key.
    /// Memory: one entry per object that some link points to, per origin column.
    struct LinkTally {
        var counts: [BacklinkSlot: [Int64: Int]] = [:]
        /// Origin tables whose walk stopped early: their counts are incomplete and not compared.
        var incomplete: Set<UInt32> = []

        mutating func add(target: UInt32, key: Int64, origin: (table: UInt32, column: Int64)) {
            counts[BacklinkSlot(target: target, originTable: origin.table, originColumn: origin.column), default: [:]][
                key, default: 0] += 1
        }
    }

    /// Compares every backlink column of the user classes with `tally`, noting each object whose
    /// stored count differs: `Many[key 73]: 3 backlinks stored from Many.links, 2 links point to it`.
    func checkBacklinkCounts(_ tally: LinkTally, note: (String) -> Void) {
        let walk = Walk(mem)
        for info in infos {
            for column in info.backlinks {
                guard let originKey = column.targetTable, let origin = infoByKey[originKey], !origin.isInternal,
                    !tally.incomplete.contains(originKey),
                    let originColumn = origin.columns.first(where: { $0.colKey == column.oppositeColKey })
                else { continue }
                let expected =
                    tally.counts[
                        BacklinkSlot(target: info.key, originTable: originKey, originColumn: column.oppositeColKey)]
                    ?? [:]
                let property = "\(origin.name).\(originColumn.name)"
                do {
                    try mem.forEachClusterLeaf(info.clusterRoot) { leaf in
                        let node = try mem.node(try leaf.columnRef(column.leafIndex))
                        guard node.count >= leaf.count else {
                            throw RealmFault(
                                "the backlink leaf at \(hex(Int64(node.ref))) holds \(node.count) values for \(leaf.count) objects"
                            )
                        }
                        for row in 0..<leaf.count {
                            let key = leaf.key(row)
                            let stored = try storedBacklinkCount(node.int(row), walk: walk)
                            let pointing = expected[key] ?? 0
                            if stored != pointing {
                                note(
                                    "\(info.name)[key \(key)]: \(stored) backlink\(stored == 1 ? "" : "s") stored from "
                                        + "\(property), \(pointing) link\(pointing == 1 ? " points" : "s point") to it")
                            }
                        }
                    }
                } catch {
                    note(message(error, "\(info.name) (backlinks from \(property))"))
                }
            }
        }
    }

    /// How many backlinks a backlink column value records: 0 for none, 1 for a tagged key, else
    /// the size of the key array or B+tree it refers to.
    private func storedBacklinkCount(_ stored: Int64, walk: Walk) throws -> Int {
        if stored == 0 { return 0 }
        if stored & 1 == 1 { return 1 }
        var count = 0
        try mem.forEachBPlusLeaf(stored) { keys in
            try walk.budget.spend(keys.count)
            count += keys.count
        }
        return count
    }
}
