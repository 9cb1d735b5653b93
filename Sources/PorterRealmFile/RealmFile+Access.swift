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

    /// The live objects whose keys lie in `low...high`, in key order, with the values of
    /// `properties` (indexes in `table.properties` order), decoding each cluster's columns once
    /// (rather than once per object as ``object(in:key:)`` does).
    public func objects(
        in table: RealmTable, from low: Int64, through high: Int64, properties: [Int]
    ) throws -> [RealmObject] {
        let info = try self.info(table)
        var out: [RealmObject] = []
        do {
            let walk = Walk(mem)
            // Per column, what each value needs, read once (as ``forEachObject(in:_:)`` does:
            // copying the column's description per value cost more than decoding the value).
            let collections = info.columns.map(\.isCollection)
            let targets = info.columns.map(\.targetTable)
            var next = low
            while next <= high {
                guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: next), leaf.count > 0 else { break }
                let last = leaf.key(leaf.count - 1)
                // A key past this cluster's last: the descent found no cluster holding it.
                guard last >= next else { break }
                let leaves = try columnLeaves(info, leaf)
                for row in 0..<leaf.count {
                    let key = leaf.key(row)
                    guard key >= next, key <= high else { continue }
                    var values: [RealmValue] = []
                    values.reserveCapacity(properties.count)
                    for c in properties {
                        guard leaves.indices.contains(c), case .some(let l) = leaves[c] else {
                            throw PorterError(
                                .notFound, "class \(table.name) has no property number \(c)", location: path)
                        }
                        values.append(
                            try rowValue(info, c, l, row, walk: walk, collection: collections[c], target: targets[c]))
                    }
                    out.append(RealmObject(key: key, values: values))
                }
                if last == Int64.max { break }
                next = last + 1
            }
        } catch {
            throw porterError(error, place: info.name)
        }
        return out
    }

    /// Drops the pages of the file mapped so far (clean pages: they are read again when needed),
    /// so that reading objects one by one over a large file stays in bounded memory.
    public func releaseMappedPages() {
        mapping.releaseResidentPages()
    }
}
