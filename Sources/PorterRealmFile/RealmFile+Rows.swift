import PorterModel

extension RealmFile {
    /// The live objects whose keys lie in `low...high`, in key order, handed out as calls: `row`
    /// with each object's key, then `value` with its values of `properties` (indexes in
    /// `table.properties` order), in that order: a run of rows for the typed API. Each cluster's
    /// column leaves are found once, and no array is made per object (an array of values per
    /// object, made and freed, was about a sixth of reading a flat object).
    public func forEachRow(
        in table: RealmTable, from low: Int64, through high: Int64, properties: [Int],
        row: (Int64) throws -> Void, value: (RealmValue) throws -> Void
    ) throws {
        var decoded: [RealmValue] = []
        try forEachCluster(in: table, from: low, through: high, properties: properties) { rows, decode in
            let width = properties.count
            decoded.removeAll(keepingCapacity: true)
            decoded.append(contentsOf: repeatElement(.null, count: rows.count * width))
            try decode({ _, _ in false }) { n, i, value in decoded[n * width + i] = value }
            for (n, r) in rows.enumerated() {
                try row(r.key)
                for i in 0..<width { try value(decoded[n * width + i]) }
            }
        }
    }

    /// The rows of ``forEachRow(in:from:through:properties:row:value:)`` as the typed API reads
    /// them: their keys appended to `keys`, their values, converted by
    /// ``RealmValues/rowValue(_:)``, appended to `values` row after row. No value is handed out
    /// through a closure or kept twice (that cost about a tenth of reading a flat object).
    package func appendRows(
        in table: RealmTable, from low: Int64, through high: Int64, properties: [Int],
        keys: inout [ObjectKey], values: inout [Value]
    ) throws {
        try forEachCluster(in: table, from: low, through: high, properties: properties) { rows, decode in
            let width = properties.count
            let base = values.count
            values.append(contentsOf: repeatElement(.null, count: rows.count * width))
            try decode({ i, leaf throws(RealmFault) in
                try values.withUnsafeMutableBufferPointer { buffer throws(RealmFault) in
                    try leaf.storeScalars(rows, mem, into: buffer, start: base + i, stride: width)
                }
            }) { n, i, value in values[base + n * width + i] = RealmValues.rowValue(value) }
            for r in rows { keys.append(ObjectKey(r.key)) }
        }
    }

    /// Walks the clusters holding the live objects whose keys lie in `low...high`: per cluster,
    /// `body` gets its rows in range and a function that decodes their values of `properties`
    /// column by column: a column its first argument takes whole (returning true) is done, else
    /// each value is handed to its second argument with the row's and the property's index.
    /// Always inlined, so that each caller's closures are inlined into the loop over values.
    @inline(__always) private func forEachCluster(
        in table: RealmTable, from low: Int64, through high: Int64, properties: [Int],
        _ body: (
            _ rows: [(row: Int, key: Int64)],
            _ decode: (
                _ column: (_ property: Int, _ leaf: Leaf) throws(RealmFault) -> Bool,
                _ value: (_ row: Int, _ property: Int, _ value: RealmValue) throws -> Void
            ) throws -> Void
        ) throws -> Void
    ) throws {
        let info = try self.info(table)
        do {
            let walk = Walk(mem)
            let collections = properties.map { info.columns.indices.contains($0) && info.columns[$0].isCollection }
            let targets = properties.map { info.columns.indices.contains($0) ? info.columns[$0].targetTable : nil }
            var next = low
            while next <= high {
                guard let leaf = try mem.findClusterLeaf(info.clusterRoot, key: next), leaf.count > 0 else { break }
                let last = leaf.key(leaf.count - 1)
                // A key past this cluster's last: the descent found no cluster holding it.
                guard last >= next else { break }
                let leaves = try columnLeaves(info, leaf)
                // The cluster's rows in range, then their values decoded column by column (a leaf
                // is copied once per column, not once per value: copying one cost more than
                // decoding most values), handed out row by row.
                var rows: [(row: Int, key: Int64)] = []
                rows.reserveCapacity(leaf.count)
                for r in 0..<leaf.count {
                    let key = leaf.key(r)
                    if key >= next, key <= high { rows.append((r, key)) }
                }
                try body(rows) { column, store in
                    for (i, c) in properties.enumerated() {
                        guard leaves.indices.contains(c), case .some(let l) = leaves[c] else {
                            throw PorterError(
                                .notFound, "class \(table.name) has no property number \(c)", location: path)
                        }
                        if !collections[i] {
                            do throws(RealmFault) {
                                if try column(i, l) { continue }
                            } catch {
                                throw error.located("\(info.name).\(info.columns[c].name)")
                            }
                        }
                        for (n, r) in rows.enumerated() {
                            try store(
                                n, i,
                                rowValue(info, c, l, r.row, walk: walk, collection: collections[i], target: targets[i]))
                        }
                    }
                }
                if last == Int64.max { break }
                next = last + 1
            }
        } catch {
            throw porterError(error, place: info.name)
        }
    }
}
