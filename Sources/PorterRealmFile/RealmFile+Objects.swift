import PorterModel

/// Streaming and finding objects.
extension RealmFile {
    /// The leaves of every column of one cluster, decoded once per cluster.
    func columnLeaves(_ info: TableInfo, _ leaf: ClusterLeaf, only: Int? = nil) throws -> [Leaf?] {
        var out: [Leaf?] = []
        out.reserveCapacity(info.columns.count)
        for (c, column) in info.columns.enumerated() {
            if let only, only != c { out.append(nil); continue }
            do {
                let node = try mem.node(try leaf.columnRef(column.leafIndex))
                let decoded = try Leaf(mem, node: node, spec: column.valueSpec, collectionRefs: column.isCollection)
                guard decoded.count >= leaf.count else {
                    throw RealmFault(
                        "the column leaf at \(hex(Int64(node.ref))) holds \(decoded.count) values for \(leaf.count) objects"
                    )
                }
                out.append(decoded)
            } catch let fault as RealmFault {
                throw fault.located("\(info.name).\(column.name)")
            }
        }
        return out
    }

    /// The value of column `c` in `row`.
    /// The value of column `c` at `row` of a run of objects: a collection through ``columnValue``,
    /// any other value through its leaf, a damaged one located as `Class.property`. `collection`
    /// and `target` are the column's, looked up once per run by the caller.
    @inline(__always)
    func rowValue(
        _ info: TableInfo, _ c: Int, _ leaf: Leaf, _ row: Int, walk: Walk, collection: Bool, target: UInt32?
    ) throws -> RealmValue {
        if collection { return try columnValue(info, c, leaf, row, walk: walk) }
        do {
            return try value(leaf, row, walk: walk, target: target)
        } catch let fault as RealmFault {
            throw fault.located("\(info.name).\(info.columns[c].name)")
        }
    }

    func columnValue(_ info: TableInfo, _ c: Int, _ leaf: Leaf, _ row: Int, walk: Walk) throws -> RealmValue {
        let column = info.columns[c]
        do {
            if column.isCollection {
                guard case .refs(let refs) = leaf else { throw RealmFault("collection refs expected") }
                return try collection(refs.int(row), column, walk: walk)
            }
            return try value(leaf, row, walk: walk, target: column.targetTable)
        } catch let fault as RealmFault {
            throw fault.located("\(info.name).\(column.name)")
        }
    }

    /// The values of the object `key` of `info`, or nil when it does not exist.
    func objectValues(_ info: TableInfo, key: Int64, walk: Walk) throws -> [RealmValue]? {
        guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key), let row = leaf.row(of: key) else {
            return nil
        }
        let leaves = try columnLeaves(info, leaf)
        try walk.budget.spend(leaves.count)
        var values: [RealmValue] = []
        values.reserveCapacity(leaves.count)
        for (c, l) in leaves.enumerated() {
            guard let l else { continue }
            values.append(try columnValue(info, c, l, row, walk: walk))
        }
        return values
    }

    /// Streams the live objects (tombstones never) of a table in object-key order, one at a
    /// time, in bounded memory.
    public func forEachObject(in table: RealmTable, _ body: (RealmObject) throws -> Void) throws {
        let info = try self.info(table)
        do {
            var previous: Int64?
            var leafCount = 0
            let walk = Walk(mem)
            defer { mapping.releaseResidentPages() }
            // Per column, what each value needs, read once rather than copied out of the
            // column's description for every value (profiled: those copies cost more than decoding).
            let collections = info.columns.map(\.isCollection)
            let targets = info.columns.map(\.targetTable)
            try mem.forEachClusterLeaf(info.clusterRoot) { leaf in
                // Bounded memory on large files: the mapping's pages are dropped now and then.
                leafCount += 1
                if leafCount % 128 == 0 { mapping.releaseResidentPages() }
                let leaves = try columnLeaves(info, leaf)
                try walk.budget.spend(leaf.count * max(leaves.count, 1))
                for row in 0..<leaf.count {
                    let key = leaf.key(row)
                    if let previous, key <= previous {
                        throw RealmFault("object keys are out of order (\(key) after \(previous))")
                    }
                    previous = key
                    var values: [RealmValue] = []
                    values.reserveCapacity(leaves.count)
                    for c in 0..<leaves.count {
                        guard case .some(let l) = leaves[c] else { continue }
                        values.append(
                            try rowValue(info, c, l, row, walk: walk, collection: collections[c], target: targets[c]))
                    }
                    try body(RealmObject(key: key, values: values))
                }
            }
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// Streams one property's values of every live object of a table in object-key order,
    /// decoding only that column.
    /// - Throws: `PorterError` (`notFound` for an unknown property, `notADatabase` for damage).
    public func forEachValue(
        in table: RealmTable, property: String, _ body: (_ key: Int64, _ value: RealmValue) throws -> Void
    ) throws {
        let info = try self.info(table)
        guard let c = info.columns.firstIndex(where: { $0.name == property }) else {
            throw PorterError(.notFound, "class \(table.name) has no property \(property)", location: path)
        }
        do {
            let walk = Walk(mem)
            defer { mapping.releaseResidentPages() }
            try mem.forEachClusterLeaf(info.clusterRoot) { leaf in
                guard let l = try columnLeaves(info, leaf, only: c)[c] else { return }
                try walk.budget.spend(leaf.count)
                for row in 0..<leaf.count { try body(leaf.key(row), try columnValue(info, c, l, row, walk: walk)) }
            }
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// The number of live objects of a table.
    public func objectCount(in table: RealmTable) throws -> Int {
        let info = try self.info(table)
        var count = 0
        do {
            try mem.forEachClusterLeaf(info.clusterRoot) { count += $0.count }
        } catch {
            throw porterError(error, place: info.name)
        }
        return count
    }

    /// Finds one object by key (cluster-tree descent, not a scan); nil when absent.
    public func object(in table: RealmTable, key: Int64) throws -> RealmObject? {
        let info = try self.info(table)
        do {
            return try objectValues(info, key: key, walk: Walk(mem)).map { RealmObject(key: key, values: $0) }
        } catch {
            throw porterError(error, place: info.name)
        }
    }

    /// The primary-key value of an object without decoding the other columns; nil when the
    /// class has no primary key or the object does not exist.
    public func primaryKeyValue(in table: RealmTable, key: Int64) throws -> RealmValue? {
        let info = try self.info(table)
        guard let pk = info.primaryKeyColumn else { return nil }
        do {
            guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: key), let row = leaf.row(of: key) else {
                return nil
            }
            guard let l = try columnLeaves(info, leaf, only: pk)[pk] else { return nil }
            return try columnValue(info, pk, l, row, walk: Walk(mem))
        } catch {
            throw porterError(error, place: info.name)
        }
    }
}
