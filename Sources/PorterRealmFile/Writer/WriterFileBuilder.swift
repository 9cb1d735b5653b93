import Foundation
import PorterModel

/// Runs the passes of one write: (1) object keys of link targets and of classes without a
/// primary key, (2) links, to know every backlink before its table is written, (3) the tables,
/// the `metadata` table and the group, then the file header.
struct WriterFileBuilder {
    private(set) var plan: WriterTablePlan
    let source: RealmWriteSource
    let out: WriterOutput
    let schemaVersion: UInt64

    private var resolver = WriterKeyResolver()
    /// Classes without a primary key whose source order is not key order (read into memory and sorted).
    private var unsorted: Set<Int> = []
    /// Classes without a primary key whose keys are exactly 0..<n.
    private var sequential: Set<Int> = []
    /// Object counts seen by the first pass (checked again when writing: the source must repeat itself).
    private var counts: [Int: Int64] = [:]

    init(plan: WriterTablePlan, source: RealmWriteSource, out: WriterOutput, schemaVersion: UInt64) {
        self.plan = plan
        self.source = source
        self.out = out
        self.schemaVersion = schemaVersion
    }

    private var topLevelTables: [Int] { (1..<plan.tables.count).filter { !plan.tables[$0].isEmbedded } }

    mutating func build() throws {
        try out.append([UInt8](repeating: 0, count: 24))
        try resolveKeys()
        var linkPass = WriterValuePreparer(plan: plan, resolver: resolver, collectEmbedded: false)
        for t in topLevelTables
        where plan.tables[t].properties.contains(where: { $0.type == .object || $0.type == .mixed }) {
            try forEachObject(table: t) { key, sourceKey, values in
                _ = try linkPass.prepare(table: t, key: key, values: values, sourceKey: sourceKey)
            }
        }
        if !linkPass.mixedEdges.isEmpty {
            // Mixed values link to these tables: add their backlink columns, file the links under them.
            let inCoreOrder = plan.mixedSetStringsInCoreOrder
            plan = try WriterTablePlan(
                schema: plan.schema, mixedLinks: Array(linkPass.mixedEdges.keys), fileFormat: plan.fileFormat)
            plan.mixedSetStringsInCoreOrder = inCoreOrder
            for (link, edges) in linkPass.mixedEdges {
                linkPass.backlinks[link.target][plan.mixedBacklinks[link]!, default: []].append(contentsOf: edges)
            }
            linkPass.mixedEdges = [:]
        }
        let leafEncoder = WriterLeafEncoder(
            out: out, tableKeys: plan.tableByClass, fileFormat: plan.fileFormat,
            mixedSetStringsInCoreOrder: plan.mixedSetStringsInCoreOrder)
        var writePass = WriterValuePreparer(plan: plan, resolver: resolver, collectEmbedded: true)
        var tableRefs = Array(repeating: Int64(0), count: plan.tables.count)
        for t in topLevelTables {
            var builder = WriterTableBuilder(
                plan: plan, tableIndex: t, leaf: leafEncoder,
                compact: plan.tables[t].primaryKeyColumn != nil || sequential.contains(t),
                backlinks: linkPass.backlinks[t])
            linkPass.backlinks[t] = [:]
            try forEachObject(table: t) { key, sourceKey, values in
                try builder.add(
                    key: key, values: try writePass.prepare(table: t, key: key, values: values, sourceKey: sourceKey))
            }
            if let expected = counts[t], expected != builder.objectCount {
                throw PorterError(
                    .invalidInput,
                    "the source gave \(expected) objects, then \(builder.objectCount): it must give the same objects on every call",
                    location: plan.tables[t].objectSchema!.name)
            }
            tableRefs[t] = try builder.finish()
        }
        // Embedded objects were all met while writing their parents (nested ones too).
        for t in 1..<plan.tables.count where plan.tables[t].isEmbedded {
            var builder = WriterTableBuilder(
                plan: plan, tableIndex: t, leaf: leafEncoder, compact: true,
                backlinks: writePass.backlinks[t].merging(linkPass.backlinks[t]) { $0 + $1 })
            for object in writePass.embedded[t] { try builder.add(key: object.key, values: object.values) }
            writePass.embedded[t] = []
            tableRefs[t] = try builder.finish()
        }
        try Self.finishGroup(
            plan: plan, out: out, leafEncoder: leafEncoder, tableRefs: tableRefs, schemaVersion: schemaVersion)
    }

    /// Writes the `metadata` table (the schema version), the group's top array and the header,
    /// once every class table is written (`tableRefs`, slot 0 for `metadata`).
    static func finishGroup(
        plan: WriterTablePlan, out: WriterOutput, leafEncoder: WriterLeafEncoder, tableRefs: [Int64],
        schemaVersion: UInt64
    ) throws {
        var tableRefs = tableRefs
        var metadata = WriterTableBuilder(plan: plan, tableIndex: 0, leaf: leafEncoder, compact: true, backlinks: [:])
        try metadata.add(key: 0, values: [.int(Int64(bitPattern: schemaVersion))])
        tableRefs[0] = try metadata.finish()

        let names = plan.tables.map { Array($0.name.utf8) }
        let namesRef = try out.append(WriterLeafEncoder.shortStrings(names, longest: names.map(\.count).max() ?? 0))
        let tablesRef = try out.append(WriterNode.integers(tableRefs, flags: .init(hasRefs: true)))
        // The group's top array: [table names, tables, logical file size] (no history), 64-bit wide
        // so that its own size is known before it is written.
        let topRef = out.position
        let fileSize = topRef + 8 + 3 * 8
        try out.append(
            WriterNode.integers(
                [namesRef, tablesRef, WriterNode.tagged(fileSize)], width: 64, flags: .init(hasRefs: true)))
        var header = [UInt8]()
        withUnsafeBytes(of: UInt64(topRef).littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: [UInt8](repeating: 0, count: 8))
        header.append(contentsOf: Array("T-DB".utf8))
        header.append(contentsOf: [UInt8(plan.fileFormat), UInt8(plan.fileFormat), 0, 0])
        try out.overwrite(at: 0, header)
    }

    /// First pass: object keys of classes without a primary key (kept; must be unique and
    /// non-negative) and the source keys of link targets with one.
    private mutating func resolveKeys() throws {
        var targets = Set<Int>()
        if plan.tables.contains(where: { $0.properties.contains { $0.type == .mixed } }) {
            // Any top-level class may be the target of a link in a mixed value.
            targets.formUnion(topLevelTables)
        }
        for table in plan.tables {
            for column in table.columns where column.property?.type == .object {
                if let o = column.opposite, !plan.tables[o.table].isEmbedded { targets.insert(o.table) }
            }
        }
        for t in topLevelTables {
            let className = plan.tables[t].objectSchema!.name
            if plan.tables[t].primaryKeyColumn != nil {
                guard targets.contains(t) else { continue }
                var map: [Int64: Int64] = [:]
                var position: Int64 = 0
                try source.forEachObject(of: className) { key, _ in
                    guard map.updateValue(position, forKey: key) == nil else {
                        throw PorterError(.invalidInput, "two objects have the source key \(key)", location: className)
                    }
                    position += 1
                }
                resolver.positional[t] = map
                counts[t] = position
            } else {
                var keys: [Int64] = []
                var ascending = true
                try source.forEachObject(of: className) { key, _ in
                    guard key >= 0, key < 1 << 62 else {
                        throw PorterError(.invalidInput, "object key \(key) is outside 0..<2^62", location: className)
                    }
                    if let last = keys.last, key <= last { ascending = false }
                    keys.append(key)
                }
                if !ascending {
                    keys.sort()
                    unsorted.insert(t)
                    for i in keys.indices.dropFirst() where keys[i] == keys[i - 1] {
                        throw PorterError(
                            .invalidInput, "two objects have the object key \(keys[i])", location: className)
                    }
                }
                if keys.last.map({ $0 == Int64(keys.count - 1) }) ?? true { sequential.insert(t) }
                if targets.contains(t) { resolver.kept[t] = keys }
                counts[t] = Int64(keys.count)
            }
        }
    }

    /// The objects of a top-level table in object-key order: (object key, source key, values).
    private func forEachObject(table t: Int, _ body: (Int64, Int64, [RealmValue]) throws -> Void) throws {
        let className = plan.tables[t].objectSchema!.name
        if plan.tables[t].primaryKeyColumn != nil {
            var position: Int64 = 0
            try source.forEachObject(of: className) { key, values in
                try body(position, key, values)
                position += 1
            }
        } else if unsorted.contains(t) {
            var objects: [(Int64, [RealmValue])] = []
            try source.forEachObject(of: className) { key, values in objects.append((key, values)) }
            objects.sort { $0.0 < $1.0 }
            for (key, values) in objects { try body(key, key, values) }
        } else {
            try source.forEachObject(of: className) { key, values in try body(key, key, values) }
        }
    }
}
