import PorterModel

/// The structural check (what realm_trawler and realm-core's `verify` rely on, for a reader).
extension RealmFile {
    /// Structural check: every ref in bounds and 8-aligned, no cycles (depth limits), sizes and
    /// counts consistent, every link resolves (unresolved keys read as null), each embedded
    /// object has exactly one parent, every object's stored backlinks equal the links to it. Returns one line per problem (empty = OK); throws only
    /// when the file cannot be opened at all (the initializer already did that).
    public func check() throws -> [String] {
        var problems: [String] = []
        let limit = 1000
        func note(_ line: String) {
            if problems.count < limit {
                problems.append(line)
            } else if problems.count == limit {
                problems.append("… more problems not listed")
            }
        }
        var parents: [UInt32: [Int64: Int]] = [:]
        var tally = LinkTally()
        for (table, info) in zip(tables, infos) {
            do {
                let counted = try countClusterTree(info.clusterRoot)
                let leaves = try objectCount(in: table)
                if counted != leaves {
                    note("\(info.name): the cluster tree says \(counted) objects but its leaves hold \(leaves)")
                }
                if info.tombstoneRoot != 0 { _ = try countClusterTree(info.tombstoneRoot) }
            } catch {
                note(message(error, "\(info.name)"))
                tally.incomplete.insert(info.key)
                continue
            }
            if info.tableType == 1 {  // embedded objects are checked through their parents
                checkSearchIndexes(table, info, note: note)
                continue
            }
            // The index lookups ride on the walk that checks the values: one decoding of every
            // object, not one more per indexed column.
            var indexChecks = searchIndexChecks(table, info, note: note)
            let tableKeys = indexChecks.isEmpty ? [:] : tableKeysByName
            do {
                try forEachObject(in: table) { object in
                    if !indexChecks.isEmpty {
                        checkSearchIndexes(of: object, &indexChecks, tableKeys: tableKeys, note: note)
                    }
                    for (c, (p, value)) in zip(table.properties, object.values).enumerated() {
                        if case .set(let items) = value, let problem = setOrderProblem(items, property: p) {
                            note("\(info.name)[key \(object.key)].\(p.name): \(problem)")
                        }
                        try checkValue(
                            value, place: "\(info.name)[key \(object.key)].\(p.name)",
                            origin: (info.key, info.columns[c].colKey), parents: &parents, tally: &tally, note: note)
                    }
                }
                finishSearchIndexChecks(indexChecks, info, note: note)
            } catch {
                // An object that cannot be read is the object walk's finding, not the index's.
                note(message(error, info.name))
                tally.incomplete.insert(info.key)
            }
        }
        for (table, info) in zip(tables, infos) where info.tableType == 1 {
            let seen = parents[info.key] ?? [:]
            do {
                try mem.forEachClusterLeaf(info.clusterRoot) { leaf in
                    for row in 0..<leaf.count {
                        let key = leaf.key(row)
                        let count = seen[key] ?? 0
                        if count != 1 {
                            note("\(table.name)[key \(key)]: embedded object has \(count) parents (expected exactly 1)")
                        }
                    }
                }
            } catch {
                note(message(error, info.name))
            }
        }
        // Embedded objects are reached only through their parents: any walk that stopped leaves
        // their counts incomplete.
        if !tally.incomplete.isEmpty {
            for info in infos where info.tableType == 1 { tally.incomplete.insert(info.key) }
        }
        checkBacklinkCounts(tally, note: note)
        return problems
    }

    func message(_ error: Error, _ place: String) -> String {
        if let fault = error as? RealmFault {
            return fault.message.hasPrefix(place) ? fault.message : "\(place): \(fault.message)"
        }
        if let porter = error as? PorterError { return porter.message }
        return "\(place): \(error)"
    }

    /// Checks one value of the column `origin` (table key, column key): links resolve (and are
    /// counted in `tally` for the backlink check), embedded objects counted as children.
    /// `place` is made only when there is something to say: building "Class[key 7].property"
    /// for every value of every object cost the check of a clean file a tenth of its time.
    private func checkValue(
        _ value: RealmValue, place: @autoclosure () -> String, origin: (table: UInt32, column: Int64),
        parents: inout [UInt32: [Int64: Int]], tally: inout LinkTally, note: (String) -> Void
    ) throws {
        switch value {
        case .link(let className, let key):
            guard let target = table(named: className) else {
                note("\(place()): links to unknown class \(className)"); return
            }
            let info = try self.info(target)
            if try mem.findClusterLeaf(info.clusterRoot, key: key)?.row(of: key) == nil {
                note("\(place()): link to \(className) key \(key) does not resolve")
            } else {
                tally.add(target: target.key, key: key, origin: origin)
            }
        case .embedded(let className, let key, let values):
            guard let target = table(named: className) else { return }
            parents[target.key, default: [:]][key, default: 0] += 1
            tally.add(target: target.key, key: key, origin: origin)
            let columns = try self.info(target).columns
            for (c, (p, v)) in zip(target.properties, values).enumerated() {
                if case .set(let items) = v, let problem = setOrderProblem(items, property: p) {
                    note("\(place()).\(p.name): \(problem)")
                }
                try checkValue(
                    v, place: "\(place()).\(p.name)", origin: (target.key, columns[c].colKey), parents: &parents,
                    tally: &tally, note: note)
            }
        case .list(let items), .set(let items):
            for item in items {
                try checkValue(item, place: place(), origin: origin, parents: &parents, tally: &tally, note: note)
            }
        case .dictionary(let entries):
            for e in entries {
                try checkValue(
                    e.value, place: "\(place())[\(e.key)]", origin: origin, parents: &parents, tally: &tally, note: note
                )
            }
        default:
            break
        }
    }

    /// Walks a cluster tree checking every inner node's recorded size against its children.
    func countClusterTree(_ root: Int64) throws -> Int {
        guard root != 0 else { return 0 }
        var visited = Set<Int64>()
        func walk(_ ref: Int64, depth: Int) throws -> Int {
            guard depth <= maximumDepth else {
                throw RealmFault("the node at \(hex(ref)) nests deeper than \(maximumDepth) levels")
            }
            guard visited.insert(ref).inserted else {
                throw RealmFault("the node at \(hex(ref)) is reached twice (a cycle or shared subtree)")
            }
            let node = try mem.node(ref)
            guard node.isInner else { return try mem.clusterLeaf(node, offset: 0).count }
            let inner = try InnerCluster(mem, node)
            var sum = 0
            for i in 0..<inner.childCount { sum += try walk(try inner.child(i), depth: depth + 1) }
            let recorded = try node.tagged(2)
            if recorded != Int64(sum) {
                throw RealmFault(
                    "the inner cluster node at \(hex(ref)) records \(recorded) objects but its children hold \(sum)")
            }
            return sum
        }
        return try walk(root, depth: 0)
    }
}
