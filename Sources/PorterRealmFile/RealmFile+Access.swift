import PorterModel

/// Random access to objects by key, for readers that keep no copy of the file (Porter's typed API
/// on a Realm file): cluster-tree descents and single-column reads, never a scan of other classes.
extension RealmFile {
    /// The object keys of a table, in key order (the order objects are streamed in).
    public func objectKeys(in table: RealmTable) throws -> [Int64] {
        let info = try self.info(table)
        var keys: [Int64] = []
        do {
            // No reserveCapacity per leaf: reserving exactly count + leaf.count reallocates on
            // every leaf (copying all keys so far), where append grows geometrically.
            try mem.forEachClusterLeaf(info.clusterRoot) { leaf in
                for row in 0..<leaf.count { keys.append(leaf.key(row)) }
            }
        } catch {
            throw porterError(error, place: info.name)
        }
        return keys
    }

    /// Whether the table has a live object with this key.
    public func containsObject(in table: RealmTable, key: Int64) throws -> Bool {
        let info = try self.info(table)
        do {
            guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key) else { return false }
            return leaf.row(of: key) != nil
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// The value of property `index` (in `table.properties` order) of one object, decoding only
    /// that column; nil when the object does not exist.
    public func value(in table: RealmTable, key: Int64, property index: Int) throws -> RealmValue? {
        let info = try self.info(table)
        guard info.columns.indices.contains(index) else {
            throw PorterError(.notFound, "class \(table.name) has no property number \(index)", location: path)
        }
        do {
            guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key), let row = leaf.row(of: key),
                let l = try columnLeaves(info, leaf, only: index)[index]
            else { return nil }
            return try columnValue(info, index, l, row, walk: Walk(mem))
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// The values of properties `properties` (indexes in `table.properties` order) of one object,
    /// in that order, decoding no other collection; nil when the object does not exist.
    public func values(in table: RealmTable, key: Int64, properties: [Int]) throws -> [RealmValue]? {
        let info = try self.info(table)
        do {
            guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key), let row = leaf.row(of: key) else {
                return nil
            }
            let leaves = try columnLeaves(info, leaf)
            let walk = Walk(mem)
            return try properties.map { c in
                guard leaves.indices.contains(c), let l = leaves[c] else {
                    throw PorterError(.notFound, "class \(table.name) has no property number \(c)", location: path)
                }
                return try columnValue(info, c, l, row, walk: walk)
            }
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// Drops the pages of the file mapped so far (clean pages: they are read again when needed),
    /// so that reading objects one by one over a large file stays in bounded memory.
    public func releaseMappedPages() {
        mapping.releaseResidentPages()
    }
}
