import Foundation
import PorterModel

/// Writes one table of a rewrite: per source cluster leaf, a new leaf with the same keys whose
/// columns are copied, computed or filled; then the table's tree, indexes and top array.
struct WriterTableRewrite {
    let plan: WriterTablePlan
    let tableIndex: Int
    let rewrite: RewritePlan.Table
    /// New class names by source class name.
    let newNames: [String: String]
    let file: RealmFile
    let leafEncoder: WriterLeafEncoder
    private var preparer: WriterValuePreparer

    init(
        plan: WriterTablePlan, tableIndex: Int, rewrite: RewritePlan.Table, newNames: [String: String], file: RealmFile,
        leafEncoder: WriterLeafEncoder
    ) {
        self.plan = plan
        self.tableIndex = tableIndex
        self.rewrite = rewrite
        self.newNames = newNames
        self.file = file
        self.leafEncoder = leafEncoder
        var resolver = WriterKeyResolver()
        resolver.keepsAllKeys = true
        preparer = WriterValuePreparer(plan: plan, resolver: resolver, collectEmbedded: true)
    }

    private var table: WriterTable { plan.tables[tableIndex] }
    private var className: String { table.objectSchema!.name }

    mutating func write(copier: inout WriterNodeCopier) throws -> Int64 {
        var builder = WriterTableBuilder(
            plan: plan, tableIndex: tableIndex, leaf: leafEncoder,
            compact: try isCompact(), backlinks: [:])
        // Indexes of copied columns of a format-24 file are copied whole; the others are built from the values.
        var copiedIndexes: [Int: Int64] = [:]
        for column in table.columns where column.indexed {
            // A full-text index is another structure: the new column gets a plain one, built.
            if file.fileFormat == 24, case .raw(let c)? = rewrite.columns[column.leafIndex], c.hasSearchIndex,
                c.indexRef != 0,
                c.attrs & ColumnInfo.Attr.fullText == 0,
                (c.attrs & ColumnInfo.Attr.list != 0) == (column.property?.collection == .list)
            {
                copiedIndexes[column.leafIndex] = try copier.copy(c.indexRef)
            }
        }
        if let source = rewrite.source {
            let walk = Walk(file.mem)
            var leafCount = 0
            defer { file.mapping.releaseResidentPages() }
            try file.mem.forEachClusterLeaf(source.clusterRoot) { leaf in
                leafCount += 1
                if leafCount % 128 == 0 { file.mapping.releaseResidentPages() }
                try writeLeaf(
                    leaf, source: source, builder: &builder, copier: &copier, copiedIndexes: copiedIndexes, walk: walk)
            }
        }
        return try builder.finish(copiedIndexes: copiedIndexes)
    }

    /// Whether the source's keys are 0..<n in full leaves of 256 (the compact form, no key arrays).
    private func isCompact() throws -> Bool {
        guard let source = rewrite.source else { return true }
        var expected: Int64 = 0, compact = true, lastWasShort = false
        try file.mem.forEachClusterLeaf(source.clusterRoot) { leaf in
            guard compact else { return }
            if lastWasShort || leaf.count == 0 || leaf.key(0) != expected
                || leaf.key(leaf.count - 1) != expected + Int64(leaf.count - 1)
            {
                compact = false
                return
            }
            lastWasShort = leaf.count != WriterTableBuilder.clusterSize
            expected += Int64(leaf.count)
        }
        return compact
    }

    private mutating func writeLeaf(
        _ leaf: ClusterLeaf, source: TableInfo, builder: inout WriterTableBuilder,
        copier: inout WriterNodeCopier, copiedIndexes: [Int: Int64], walk: Walk
    ) throws {
        guard leaf.count > 0 else { return }
        let keys = (0..<leaf.count).map(leaf.key)
        guard keys[0] > builder.lastKey else {
            throw RealmFault("object keys are out of order (\(keys[0]) after \(builder.lastKey))")
        }
        var slots = Array(repeating: Int64(0), count: table.leafCount)
        for column in table.columns {
            if column.type == .backlink {
                if let copied = rewrite.backlinks[column.leafIndex] {
                    let ref = try leaf.columnRef(copied.leafIndex)
                    slots[column.leafIndex] =
                        file.fileFormat == 24 ? try copier.copy(ref) : try copyLegacyBacklinks(ref, copier: &copier)
                } else {
                    slots[column.leafIndex] = try leafEncoder.out.append(
                        WriterNode.integers(Array(repeating: 0, count: leaf.count), flags: .init(hasRefs: true)))
                }
                continue
            }
            var values: [RealmValue]?
            switch rewrite.columns[column.leafIndex]! {
            case .raw(let c):
                // Checked as the reader checks it before copying: a damaged leaf is refused, not carried over.
                _ = try sourceLeaf(c, leaf, source: source)
                slots[column.leafIndex] = try copier.copy(try leaf.columnRef(c.leafIndex))
                if column.indexed && copiedIndexes[column.leafIndex] == nil {
                    values = try sourceValues(c, leaf, source: source, walk: walk)
                }
            case .computed(let c, let convert):
                var computed = try sourceValues(c, leaf, source: source, walk: walk)
                if let convert {
                    for i in computed.indices { computed[i] = try convert(computed[i], keys[i]) }
                }
                try encode(&computed, column: column, keys: keys, slots: &slots)
                values = computed
            case .constant(let value):
                var filled = Array(repeating: value, count: leaf.count)
                try encode(&filled, column: column, keys: keys, slots: &slots)
                values = filled
            }
            if column.indexed, copiedIndexes[column.leafIndex] == nil, let values {
                for (value, key) in zip(values, keys) {
                    try builder.addIndexEntries(
                        value, leafIndex: column.leafIndex, propertyIndex: column.propertyIndex!, key: key)
                }
            }
        }
        let first = keys[0]
        if builder.compact {
            slots.insert(WriterNode.tagged(Int64(keys.count)), at: 0)
        } else {
            slots.insert(try leafEncoder.out.append(WriterNode.integers(keys.map { $0 - first })), at: 0)
        }
        builder.leaves.append(
            (
                try leafEncoder.out.append(WriterNode.integers(slots, flags: .init(hasRefs: true))), first,
                Int64(keys.count)
            ))
        builder.objectCount += Int64(keys.count)
        builder.lastKey = keys[keys.count - 1]
    }

    /// A backlink column of format 22 or 23: an object's several origins are a plain key array,
    /// where format 24 has a B+tree of keys. An array of up to 1,000 keys is such a B+tree already
    /// (one leaf); a longer one is written as one.
    private func copyLegacyBacklinks(_ ref: Int64, copier: inout WriterNodeCopier) throws -> Int64 {
        let node = try file.mem.array(ref, minimum: 0, "a backlink column")
        var slots: [Int64] = []
        slots.reserveCapacity(node.count)
        for i in 0..<node.count {
            let slot = node.int(i)
            guard slot != 0, slot & 1 == 0 else { slots.append(slot); continue }
            let keys = try file.mem.node(slot)
            try keys.requireIntegers("backlinks")
            if keys.count <= WriterBPlusTree.nodeSize {
                slots.append(try copier.copy(slot))
            } else {
                slots.append(try WriterBPlusTree.integers((0..<keys.count).map(keys.int), out: leafEncoder.out))
            }
        }
        return try leafEncoder.out.append(WriterNode.integers(slots, flags: .init(hasRefs: true)))
    }

    /// A source column's leaf in one cluster, decoded and checked as the reader does (a leaf
    /// holding fewer values than the cluster's objects is refused), with the column's position.
    private func sourceLeaf(_ c: ColumnInfo, _ leaf: ClusterLeaf, source: TableInfo) throws -> (Int, Leaf) {
        guard let index = source.columns.firstIndex(where: { $0.colKey == c.colKey }),
            let decoded = try file.columnLeaves(source, leaf, only: index)[index]
        else {
            throw RealmFault("the column \(c.name) is missing").located(source.name)
        }
        return (index, decoded)
    }

    /// The values of a source column in one leaf, as the reader gives them.
    private func sourceValues(_ c: ColumnInfo, _ leaf: ClusterLeaf, source: TableInfo, walk: Walk) throws
        -> [RealmValue]
    {
        let (index, decoded) = try sourceLeaf(c, leaf, source: source)
        var values: [RealmValue] = []
        values.reserveCapacity(leaf.count)
        for row in 0..<leaf.count {
            values.append(renamed(try file.columnValue(source, index, decoded, row, walk: walk)))
        }
        return values
    }

    /// Links named by their class's new name.
    private func renamed(_ value: RealmValue) -> RealmValue {
        switch value {
        case .link(let className, let key): return .link(className: newNames[className] ?? className, key: key)
        case .list(let items): return .list(items.map(renamed))
        case .set(let items): return .set(items.map(renamed))
        case .dictionary(let entries):
            return .dictionary(entries.map { RealmDictionaryEntry(key: $0.key, value: renamed($0.value)) })
        default: return value
        }
    }

    /// Checks the values against the new property (as the writer checks a source's) and writes the column's leaf.
    private mutating func encode(
        _ values: inout [RealmValue], column: WriterColumn, keys: [Int64], slots: inout [Int64]
    ) throws {
        let property = column.property!
        for i in values.indices
        where !(property.collection == .none && WriterValuePreparer.isPlainMatch(values[i], property.type)) {
            let location = WriterLocation(className: className, sourceKey: keys[i], property: property.name)
            values[i] = try preparer.prepare(
                values[i], property: property, column: column, table: tableIndex, key: keys[i], location: location)
        }
        if property.isCollection {
            let collections = WriterCollectionEncoder(leaf: leafEncoder)
            var refs: [Int64] = []
            refs.reserveCapacity(values.count)
            for value in values { refs.append(try collections.write(value, column: column)) }
            slots[column.leafIndex] = try leafEncoder.out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
        } else {
            slots[column.leafIndex] = try leafEncoder.write(
                ArraySlice(values), type: column.type, nullable: column.isNullable)
        }
    }
}
