import Foundation
import PorterModel

/// Streams the objects of one table into cluster leaves (256 objects each, core
/// `ClusterTree` leaf size), then writes the cluster tree, the search indexes, the Spec and the
/// table's top array. Objects must arrive in ascending object-key order.
struct WriterTableBuilder {
    static let clusterSize = 256

    let plan: WriterTablePlan
    let tableIndex: Int
    let leaf: WriterLeafEncoder
    /// Whether the keys are exactly 0, 1, 2…: compact leaves and inner nodes (no key arrays).
    let compact: Bool
    /// Backlinks by leaf index: (target key, origin key), sorted by target then origin.
    private var backlinks: [Int: [(target: Int64, origin: Int64)]]
    private var backlinkCursor: [Int: Int] = [:]

    private var keys: [Int64] = []
    private var rows: [[RealmValue]] = []
    var leaves: [(ref: Int64, first: Int64, count: Int64)] = []
    var indexEntries: [Int: [(value: WriterIndexValue, key: Int64)]] = [:]
    /// Values of indexed mixed columns parallel to their entries, by leaf index.
    private var mixedIndexValues: [Int: [RealmValue]] = [:]
    var objectCount: Int64 = 0
    var lastKey: Int64 = -1

    let table: WriterTable
    /// (leaf index, property index) of the indexed columns.
    private let indexed: [(leaf: Int, property: Int)]
    var out: WriterOutput { leaf.out }

    init(
        plan: WriterTablePlan, tableIndex: Int, leaf: WriterLeafEncoder, compact: Bool,
        backlinks: [Int: [(target: Int64, origin: Int64)]]
    ) {
        self.plan = plan
        self.tableIndex = tableIndex
        self.leaf = leaf
        self.compact = compact
        table = plan.tables[tableIndex]
        indexed = table.columns.filter(\.indexed).map { ($0.leafIndex, $0.propertyIndex!) }
        var sorted = backlinks
        for (k, edges) in sorted {
            sorted[k] = edges.enumerated().sorted {
                $0.element.target != $1.element.target ? $0.element.target < $1.element.target : $0.offset < $1.offset
            }.map(\.element)
        }
        self.backlinks = sorted
        for column in plan.tables[tableIndex].columns where column.indexed {
            indexEntries[column.leafIndex] = []
        }
    }

    /// Adds one object (values checked, links translated, parallel to the persisted properties).
    mutating func add(key: Int64, values: [RealmValue]) throws {
        guard key > lastKey else {
            // Only an inconsistent source gets here (the first pass saw another order).
            throw PorterError(
                .invalidInput,
                "the source gave object key \(key) after \(lastKey): it must give the same objects in the same order on every call",
                location: table.objectSchema?.name ?? table.name)
        }
        lastKey = key
        for (leafIndex, propertyIndex) in indexed {
            try addIndexEntries(values[propertyIndex], leafIndex: leafIndex, propertyIndex: propertyIndex, key: key)
        }
        keys.append(key)
        rows.append(values)
        objectCount += 1
        if rows.count == Self.clusterSize { try flushLeaf() }
    }

    /// Files `value` of an indexed column under `key` in its search index. A list column indexes
    /// each distinct element (realm-core 14 indexes `string[]` that way).
    mutating func addIndexEntries(_ value: RealmValue, leafIndex: Int, propertyIndex: Int, key: Int64) throws {
        var elements: [RealmValue] = [value]
        // A mixed holding a list is one value (see `WriterIndexValue`), not a list column.
        if case .list(let items) = value, table.properties[propertyIndex].type != .mixed {
            elements = []
            for item in items where !elements.contains(item) { elements.append(item) }
        }
        for element in elements {
            guard let indexValue = WriterIndexValue(element, tableKeys: leaf.tableKeys) else {
                let property = table.properties[propertyIndex]
                throw PorterError(
                    .invalidSchema, "the writer cannot index a \(property.typeShorthand) property",
                    location: "\(table.objectSchema?.name ?? table.name).\(property.name)")
            }
            indexEntries[leafIndex]!.append((indexValue, key))
            if table.properties[propertyIndex].type == .mixed {
                mixedIndexValues[leafIndex, default: []].append(element)
            }
        }
    }

    private mutating func backlinkSlot(leafIndex: Int, key: Int64) throws -> Int64 {
        guard let edges = backlinks[leafIndex] else { return 0 }
        var i = backlinkCursor[leafIndex] ?? 0
        while i < edges.count && edges[i].target < key { i += 1 }
        var origins: [Int64] = []
        while i < edges.count && edges[i].target == key {
            origins.append(edges[i].origin)
            i += 1
        }
        backlinkCursor[leafIndex] = i
        switch origins.count {
        case 0: return 0
        case 1: return WriterNode.tagged(origins[0])
        // Format 24 keeps a backlink list in a B+tree; before, it is one plain array of keys.
        default:
            return plan.fileFormat < 24
                ? try out.append(WriterNode.integers(origins)) : try WriterBPlusTree.integers(origins, out: out)
        }
    }

    private mutating func flushLeaf() throws {
        var slots: [Int64] = []
        let first = keys.first ?? 0
        if compact {
            slots.append(WriterNode.tagged(Int64(keys.count)))
        } else {
            slots.append(try out.append(WriterNode.integers(keys.map { $0 - first })))
        }
        let collections = WriterCollectionEncoder(leaf: leaf)
        for leafIndex in 0..<table.leafCount {
            let column = table.columns[table.columnByLeaf[leafIndex]]
            if column.type == .backlink {
                var refs: [Int64] = []
                for key in keys { refs.append(try backlinkSlot(leafIndex: leafIndex, key: key)) }
                slots.append(try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true))))
                continue
            }
            let p = column.propertyIndex!
            if column.property!.isCollection {
                var refs: [Int64] = []
                for row in rows { refs.append(try collections.write(row[p], column: column)) }
                slots.append(try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true))))
            } else {
                slots.append(
                    try leaf.write(ArraySlice(rows.map { $0[p] }), type: column.type, nullable: column.isNullable))
            }
        }
        leaves.append(
            (try out.append(WriterNode.integers(slots, flags: .init(hasRefs: true))), first, Int64(keys.count)))
        keys.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }

    /// Cluster inner nodes (`ClusterNodeInner`): [key offsets or 0 (compact), tagged depth,
    /// tagged size, children…]; offsets are relative to the node's own offset (0 for the root).
    func writeTree() throws -> Int64 {
        try Self.writeClusterTree(leaves, compact: compact, out: out)
    }

    /// The cluster tree over `leaves` (ref, first key, object count), in key order; returns the root.
    static func writeClusterTree(
        _ leaves: [(ref: Int64, first: Int64, count: Int64)], compact: Bool, out: WriterOutput
    ) throws -> Int64 {
        var level = leaves
        if level.count == 1 && level[0].first == 0 { return level[0].ref }
        var depth: Int64 = 1
        repeat {
            var next: [(ref: Int64, first: Int64, count: Int64)] = []
            let isRoot = level.count <= Self.clusterSize
            var start = 0
            while start < level.count {
                let chunk = level[start..<min(start + Self.clusterSize, level.count)]
                let base = isRoot ? 0 : chunk.first!.first
                let offsets: Int64 = compact ? 0 : try out.append(WriterNode.integers(chunk.map { $0.first - base }))
                let size = chunk.reduce(0) { $0 + $1.count }
                var node = [offsets, WriterNode.tagged(depth), WriterNode.tagged(size)]
                node.append(contentsOf: chunk.map(\.ref))
                next.append(
                    (try out.append(WriterNode.integers(node, flags: .init(isInner: true, hasRefs: true))), base, size))
                start += Self.clusterSize
            }
            level = next
            depth += 1
        } while level.count > 1
        return level[0].ref
    }

    /// Writes what is left and the table's top array; returns its ref. `copiedIndexes`: search
    /// indexes already written (copied from another file), by leaf index.
    mutating func finish(copiedIndexes: [Int: Int64] = [:]) throws -> Int64 {
        if !rows.isEmpty || leaves.isEmpty { try flushLeaf() }
        let clusterRef = try writeTree()
        let t = table
        var indexRefs = Array(repeating: Int64(0), count: t.leafCount)
        for column in t.columns where column.indexed {
            if let copied = copiedIndexes[column.leafIndex] {
                indexRefs[column.leafIndex] = copied
                continue
            }
            let location = "\(t.objectSchema?.name ?? t.name).\(column.property!.name)"
            var index = WriterSearchIndex(
                out: out, entries: indexEntries[column.leafIndex]!, originals: mixedIndexValues[column.leafIndex])
            index.exact = column.property!.collection == .list
            indexRefs[column.leafIndex] = try index.write(unique: column.isPrimaryKey, location: location)
            indexEntries[column.leafIndex] = nil
        }
        var oppositeTables = Array(repeating: Int64(0x7FFF_FFFF), count: t.leafCount)
        var oppositeColumns = Array(repeating: Int64.max, count: t.leafCount)
        for column in t.columns {
            if let o = column.opposite {
                oppositeTables[column.leafIndex] = Int64(plan.tables[o.table].key)
                oppositeColumns[column.leafIndex] = plan.colKey(table: o.table, leafIndex: o.leafIndex)
            }
        }
        let spec = try writeSpec()
        let keySequence = max(objectCount, lastKey + 1)
        let pk = t.primaryKeyColumn.map { WriterNode.tagged($0.colKey) } ?? 0
        let top: [Int64] = [
            spec, 0, clusterRef, WriterNode.tagged(Int64(t.key)),
            try out.append(WriterNode.integers(indexRefs, flags: .init(hasRefs: true))),
            WriterNode.tagged(0), WriterNode.tagged(tableIndex == 0 ? 1 : 2),
            try out.append(WriterNode.integers(oppositeTables)),
            try out.append(WriterNode.integers(oppositeColumns)),
            WriterNode.tagged(keySequence), 0, pk, WriterNode.tagged(t.isEmbedded ? 1 : 0), 0,
        ]
        return try out.append(WriterNode.integers(top, flags: .init(hasRefs: true)))
    }

    /// Spec: [column types, public names, attributes, 0, 0, column keys].
    private func writeSpec() throws -> Int64 {
        let t = table
        let types = t.columns.map { c in
            WriterFileFormat.columnType(c, fileFormat: plan.fileFormat) | (c.attributes & 64 != 0 ? 2 << 16 : 0)
        }
        let names = t.columns.compactMap { $0.property.map { Array($0.name.utf8) } }
        let attributes = t.columns.map { c in c.attributes | (c.indexed && !c.isPrimaryKey ? 1 : 0) }
        let refs: [Int64] = [
            try out.append(WriterNode.integers(types)),
            try out.append(WriterLeafEncoder.shortStrings(names, longest: names.map(\.count).max() ?? 0)),
            try out.append(WriterNode.integers(attributes)),
            0, 0,
            try out.append(WriterNode.integers(t.columns.map(\.colKey))),
        ]
        return try out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
    }
}
