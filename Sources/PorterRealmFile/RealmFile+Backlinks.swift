import PorterModel

/// Linking objects, read from the backlink columns realm-core keeps beside every link column.
extension RealmFile {
    /// The keys of the objects of `originClass` whose `originProperty` links to the object `key` of
    /// `table`, in key order, once per link (a list holding the object twice names its owner twice),
    /// as a Porter database answers `linkingObjects`; empty when the object has none or does not exist.
    /// Read from the target's backlink column (realm-core `obj.cpp` `add_backlink`: 0 for none, a
    /// tagged key for one, else a ref to a B+tree of keys), so the origin class is not scanned.
    /// - Throws: `PorterError` (`notFound` when no link column `originClass.originProperty` points
    ///   at `table`'s class, `notADatabase` for damage).
    public func backlinks(in table: RealmTable, key: Int64, originClass: String, originProperty: String) throws
        -> [Int64]
    {
        let info = try self.info(table)
        guard
            let column = info.backlinks.first(where: { column in
                guard let originKey = column.targetTable, let origin = infoByKey[originKey],
                    origin.name == originClass
                else { return false }
                return origin.columns.contains { $0.colKey == column.oppositeColKey && $0.name == originProperty }
            })
        else {
            throw PorterError(
                .notFound, "no link \(originClass).\(originProperty) points to class \(table.name) in this file",
                location: path)
        }
        do {
            guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key), let row = leaf.row(of: key) else {
                return []
            }
            let node = try mem.node(try leaf.columnRef(column.leafIndex))
            guard row < node.count else {
                throw RealmFault("the backlink leaf at \(hex(Int64(node.ref))) has no value for row \(row)")
            }
            let stored = node.int(row)
            if stored == 0 { return [] }
            if stored & 1 == 1 { return [stored >> 1] }
            var keys: [Int64] = []
            let walk = Walk(mem)
            try mem.forEachBPlusLeaf(stored) { keysLeaf in
                try walk.budget.spend(keysLeaf.count)
                for i in 0..<keysLeaf.count { keys.append(keysLeaf.int(i)) }
            }
            return keys.sorted()
        } catch {
            throw porterError(error, place: "\(info.name) (backlinks from \(originClass).\(originProperty))")
        }
    }
}
