import Foundation
import PorterModel

/// Where one property of a rewritten class gets its values.
public enum RealmColumnSource: Sendable {
    /// The source class's property of this name, values unchanged (a rename when the name differs).
    case copy(String)
    /// The same value for every object (a new property: its default or fill value).
    case constant(RealmValue)
    /// Computed from the source property's value of each object: `(value, object key) → value`.
    case convert(String, @Sendable (RealmValue, Int64) throws -> RealmValue)
}

/// How one class of the new file is made from a class of the source.
public struct RealmClassRewrite: Sendable {
    /// The source class (nil: a new, empty class).
    public var sourceClass: String?
    /// By property name of the new class; every persisted property needs one.
    public var columns: [String: RealmColumnSource]

    /// Creates a class rewrite.
    public init(sourceClass: String?, columns: [String: RealmColumnSource]) {
        self.sourceClass = sourceClass
        self.columns = columns
    }
}

/// Why a rewrite cannot be done column by column (the caller then takes the general path).
public struct RealmRewriteUnsupported: Error, Sendable, CustomStringConvertible {
    /// What stands in the way.
    public let reason: String
    /// A description for logs.
    public var description: String { reason }
}

/// Writes a new format-24 Realm file from one of formats 22–24 column by column, as realm-core
/// migrates a file in place: objects keep their keys, and the columns that do not change (with
/// their search indexes and backlinks) are copied node by node instead of decoded and encoded
/// again. Only the columns that change (converted, filled, new) are computed per object.
///
/// Written like ``RealmFileWriter`` writes: a temporary file beside the destination, fsync,
/// rename; never a partial file. Columns whose nodes changed between formats (sets, 22's
/// dictionaries, Decimal128 before 24) are re-encoded, search indexes of older files rebuilt,
/// backlink lists made B+trees. What a column copy cannot express (tombstones; formats 20 and 21; a
/// link whose target class is not the rewritten source of its target; a dictionary of embedded
/// objects whose table key changes) is refused with ``RealmRewriteUnsupported`` before anything
/// is written. Mixed values are copied while every table keeps its key (their links carry it), and
/// re-encoded otherwise; their backlink columns are laid out as the source has them.
public struct RealmFileRewriter {
    /// The schema of the new file.
    public let schema: Schema
    /// The schema version stored in its `metadata` table.
    public let schemaVersion: UInt64

    /// Creates a rewriter to `schema` at `schemaVersion`.
    public init(schema: Schema, schemaVersion: UInt64) {
        self.schema = schema
        self.schemaVersion = schemaVersion
    }

    /// Writes the new file to `path` from `source`, each class of the schema as `classes` says.
    /// `beforeReplacing` runs once the new file is complete and synced, just before it replaces
    /// `path` (a backup of the old file is made there); when it throws, `path` is untouched.
    /// - Throws: ``RealmRewriteUnsupported`` (nothing written), ``PorterError`` for a value that
    ///   does not fit its property or a conversion's own error, or a damaged source.
    public func write(to path: String, from source: RealmFile, classes: [String: RealmClassRewrite],
                      encryptionKey: [UInt8]? = nil, beforeReplacing: () throws -> Void = {}) throws {
        if let key = encryptionKey, key.count != 64 {
            throw PorterError(.invalidInput, "an encryption key must be 64 bytes, got \(key.count)", location: path)
        }
        var plan = try WriterTablePlan(schema: schema)
        var tables = try RewritePlan(plan: plan, source: source, classes: classes)
        // Links in mixed values have backlink columns of their own in the target tables
        // (realm-core adds one per mixed column and target): lay them out as the source has them.
        let mixedLinks = tables.mixedLinks(plan: plan)
        if !mixedLinks.isEmpty {
            plan = try WriterTablePlan(schema: schema, mixedLinks: mixedLinks)
            tables = try RewritePlan(plan: plan, source: source, classes: classes)
        }
        try RealmFileWriter.writeAtomically(to: path, encryptionKey: encryptionKey, beforeReplacing: beforeReplacing) { out in
            try out.append([UInt8](repeating: 0, count: 24))
            let leafEncoder = WriterLeafEncoder(out: out, tableKeys: plan.tableByClass)
            var copier = WriterNodeCopier(mem: source.mem, out: out)
            var tableRefs = Array(repeating: Int64(0), count: plan.tables.count)
            for t in 1..<plan.tables.count {
                var table = WriterTableRewrite(plan: plan, tableIndex: t, rewrite: tables.tables[t], newNames: tables.newNames,
                                               file: source, leafEncoder: leafEncoder)
                do {
                    tableRefs[t] = try table.write(copier: &copier)
                } catch {
                    throw source.porterError(error, place: plan.tables[t].objectSchema?.name)
                }
            }
            try WriterFileBuilder.finishGroup(plan: plan, out: out, leafEncoder: leafEncoder, tableRefs: tableRefs, schemaVersion: schemaVersion)
        }
    }
}

/// The source of every column of every table, checked before anything is written.
struct RewritePlan {
    /// One per writer table (index 0, `metadata`, unused).
    struct Table {
        var source: TableInfo?
        /// Per public column (by leaf index): how its values are made.
        var columns: [Int: Column] = [:]
        /// Per backlink column (by leaf index): the source backlink column copied, if any.
        var backlinks: [Int: ColumnInfo] = [:]
    }

    enum Column {
        /// The source column's nodes, copied as they are.
        case raw(ColumnInfo)
        /// Decoded from the source column, computed per object, encoded.
        case computed(ColumnInfo, (@Sendable (RealmValue, Int64) throws -> RealmValue)?)
        case constant(RealmValue)

        /// The source column whose values this column holds unchanged (copied or re-encoded).
        var unchangedSource: ColumnInfo? {
            switch self {
            case .raw(let c), .computed(let c, nil): return c
            default: return nil
            }
        }
    }

    var tables: [Table]
    /// The new name of each source class that is rewritten (links decoded from the source name their old class).
    let newNames: [String: String]

    init(plan: WriterTablePlan, source: RealmFile, classes: [String: RealmClassRewrite]) throws {
        func unsupported(_ reason: String) -> RealmRewriteUnsupported { RealmRewriteUnsupported(reason: reason) }
        guard (22...24).contains(source.fileFormat) else {
            throw unsupported("the source is of file format \(source.fileFormat); formats 22 to 24 are copied")
        }
        let format = source.fileFormat
        let infoByName = Dictionary(source.infos.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var tables = Array(repeating: Table(), count: plan.tables.count)
        // Source table of each new class, to check that links keep their targets.
        var sourceOf: [String: TableInfo] = [:]
        var newNames: [String: String] = [:]
        for t in 1..<plan.tables.count {
            let cls = plan.tables[t].objectSchema!
            guard let rewrite = classes[cls.name] else { throw unsupported("no rewrite for class \(cls.name)") }
            if let name = rewrite.sourceClass {
                guard let info = infoByName[name] else { throw unsupported("the source has no class \(name)") }
                guard info.tombstoneRoot == 0 else { throw unsupported("\(name) has tombstones (objects deleted while still linked)") }
                guard (info.tableType == 1) == cls.isEmbedded else { throw unsupported("\(cls.name) changes between embedded and top-level") }
                sourceOf[cls.name] = info
                newNames[name] = cls.name
                tables[t].source = info
            }
        }
        // Mixed values and dictionaries of links carry table keys: stable when every class keeps its key.
        let stableTableKeys = (1..<plan.tables.count).allSatisfy { t in
            tables[t].source.map { Int($0.key) == t } ?? true
        } && source.infos.allSatisfy { info in sourceOf.values.contains { $0.key == info.key } || info.isInternal }
        for t in 1..<plan.tables.count {
            let table = plan.tables[t]
            let cls = table.objectSchema!
            let rewrite = classes[cls.name]!
            for column in table.columns where column.type != .backlink {
                let property = column.property!
                guard let how = rewrite.columns[property.name] else { throw unsupported("no source for \(cls.name).\(property.name)") }
                func sourceColumn(_ name: String) throws -> ColumnInfo {
                    guard let info = tables[t].source, let c = info.columns.first(where: { $0.name == name }) else {
                        throw unsupported("the source has no property \(rewrite.sourceClass ?? "?").\(name)")
                    }
                    return c
                }
                switch how {
                case .copy(let name):
                    let c = try sourceColumn(name)
                    if property.type == .object {
                        // Links are only ever copied: their keys stay valid because every object keeps its key.
                        guard let target = property.objectType, let targetSource = sourceOf[target],
                              c.type == ColumnInfo.Kind.link, c.targetTable == targetSource.key,
                              Self.sameLayout(c, column) else {
                            throw unsupported("\(cls.name).\(property.name) does not link to the rewritten source of its target")
                        }
                        // A dictionary's links are typed: they carry the target's table key, which
                        // may change (tables are laid out by name): then they are written anew.
                        if property.collection == .map && (Int(targetSource.key) != plan.tableByClass[target] || format < 23) {
                            guard targetSource.tableType != 1 else {
                                throw unsupported("\(cls.name).\(property.name) is a dictionary of embedded objects whose table key or layout changes")
                            }
                            tables[t].columns[column.leafIndex] = .computed(c, nil)
                        } else {
                            tables[t].columns[column.leafIndex] = .raw(c)
                        }
                    } else if c.type == Int(column.type.rawValue) && Self.sameLayout(c, column) && c.enumKeysRef == 0
                                && (property.type != .mixed || stableTableKeys) && Self.sameLeaves(c, format: format) {
                        tables[t].columns[column.leafIndex] = .raw(c)
                    } else {
                        tables[t].columns[column.leafIndex] = .computed(c, nil)
                    }
                case .convert(let name, let convert):
                    guard property.type != .object else { throw unsupported("\(cls.name).\(property.name) converts links") }
                    tables[t].columns[column.leafIndex] = .computed(try sourceColumn(name), convert)
                case .constant(let value):
                    if property.type == .object {
                        switch value {
                        case .null, .list([]), .set([]), .dictionary([]): break
                        default: throw unsupported("\(cls.name).\(property.name) fills links")
                        }
                    }
                    tables[t].columns[column.leafIndex] = .constant(value)
                }
            }
        }
        // A backlink column is copied when its origin column is a copy of the source column the
        // source's backlink column answers; otherwise (a new link property) it starts empty.
        for t in 1..<plan.tables.count {
            for column in plan.tables[t].columns where column.type == .backlink {
                guard let source = tables[t].source, let opposite = column.opposite,
                      let originColumn = tables[opposite.table].columns[opposite.leafIndex]?.unchangedSource,
                      let originTable = tables[opposite.table].source,
                      let copied = source.backlinks.first(where: { $0.targetTable == originTable.key && $0.oppositeColKey == originColumn.colKey })
                else { continue }
                tables[t].backlinks[column.leafIndex] = copied
            }
        }
        self.tables = tables
        self.newNames = newNames
    }

    /// The mixed columns of the new file whose source columns have backlinks in the source, and
    /// to which tables: the backlink columns the new file needs for the links they hold.
    func mixedLinks(plan: WriterTablePlan) -> [WriterMixedLink] {
        var links: [WriterMixedLink] = []
        for origin in 1..<plan.tables.count {
            guard let originSource = tables[origin].source else { continue }
            for column in plan.tables[origin].columns where column.property?.type == .mixed {
                guard let sourceColumn = tables[origin].columns[column.leafIndex]?.unchangedSource else { continue }
                for target in 1..<plan.tables.count {
                    guard let targetSource = tables[target].source,
                          targetSource.backlinks.contains(where: { $0.targetTable == originSource.key && $0.oppositeColKey == sourceColumn.colKey })
                    else { continue }
                    links.append(WriterMixedLink(origin: origin, originLeaf: column.leafIndex, target: target))
                }
            }
        }
        return links
    }

    /// Whether a column of file format `format` holds the nodes format 24 would: formats 22 and 23
    /// differ in set order (23 and 24 re-sorted strings, binaries and mixed values), the dictionary
    /// layout (a cluster tree in 22) and Decimal128 leaves (always 16 bytes before 24).
    static func sameLeaves(_ c: ColumnInfo, format: Int) -> Bool {
        if format == 24 { return true }
        if c.isSet || c.type == ColumnInfo.Kind.decimal { return false }
        return !c.isDictionary || format >= 23
    }

    /// Whether the source column stores values exactly as the new column does (nullability and collection kind).
    static func sameLayout(_ c: ColumnInfo, _ column: WriterColumn) -> Bool {
        let mask = ColumnInfo.Attr.nullable | ColumnInfo.Attr.list | ColumnInfo.Attr.dictionary | ColumnInfo.Attr.set
        return c.attrs & mask == Int(column.attributes) & mask
    }
}

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

    init(plan: WriterTablePlan, tableIndex: Int, rewrite: RewritePlan.Table, newNames: [String: String], file: RealmFile,
         leafEncoder: WriterLeafEncoder) {
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
        var builder = WriterTableBuilder(plan: plan, tableIndex: tableIndex, leaf: leafEncoder,
                                         compact: try isCompact(), backlinks: [:])
        // Indexes of copied columns of a format-24 file are copied whole; the others are built from the values.
        var copiedIndexes: [Int: Int64] = [:]
        for column in table.columns where column.indexed {
            // A full-text index is another structure: the new column gets a plain one, built.
            if file.fileFormat == 24, case .raw(let c)? = rewrite.columns[column.leafIndex], c.hasSearchIndex, c.indexRef != 0,
               c.attrs & ColumnInfo.Attr.fullText == 0,
               (c.attrs & ColumnInfo.Attr.list != 0) == (column.property?.collection == .list) {
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
                try writeLeaf(leaf, source: source, builder: &builder, copier: &copier, copiedIndexes: copiedIndexes, walk: walk)
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
            if lastWasShort || leaf.count == 0 || leaf.key(0) != expected || leaf.key(leaf.count - 1) != expected + Int64(leaf.count - 1) {
                compact = false
                return
            }
            lastWasShort = leaf.count != WriterTableBuilder.clusterSize
            expected += Int64(leaf.count)
        }
        return compact
    }

    private mutating func writeLeaf(_ leaf: ClusterLeaf, source: TableInfo, builder: inout WriterTableBuilder,
                                    copier: inout WriterNodeCopier, copiedIndexes: [Int: Int64], walk: Walk) throws {
        guard leaf.count > 0 else { return }
        let keys = (0..<leaf.count).map(leaf.key)
        guard keys[0] > builder.lastKey else { throw RealmFault("object keys are out of order (\(keys[0]) after \(builder.lastKey))") }
        var slots = Array(repeating: Int64(0), count: table.leafCount)
        for column in table.columns {
            if column.type == .backlink {
                if let copied = rewrite.backlinks[column.leafIndex] {
                    let ref = try leaf.columnRef(copied.leafIndex)
                    slots[column.leafIndex] = file.fileFormat == 24 ? try copier.copy(ref) : try copyLegacyBacklinks(ref, copier: &copier)
                } else {
                    slots[column.leafIndex] = try leafEncoder.out.append(WriterNode.integers(Array(repeating: 0, count: leaf.count), flags: .init(hasRefs: true)))
                }
                continue
            }
            var values: [RealmValue]?
            switch rewrite.columns[column.leafIndex]! {
            case .raw(let c):
                let ref = try leaf.columnRef(c.leafIndex)
                // Checked as the reader checks it before copying: a damaged leaf is refused, not carried over.
                let decoded = try Leaf(file.mem, node: try file.mem.node(ref), spec: c.valueSpec, collectionRefs: c.isCollection)
                guard decoded.count >= leaf.count else {
                    throw RealmFault("the column leaf at \(hex(ref)) holds \(decoded.count) values for \(leaf.count) objects").located("\(source.name).\(c.name)")
                }
                slots[column.leafIndex] = try copier.copy(ref)
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
                    try builder.addIndexEntries(value, leafIndex: column.leafIndex, propertyIndex: column.propertyIndex!, key: key)
                }
            }
        }
        let first = keys[0]
        if builder.compact {
            slots.insert(WriterNode.tagged(Int64(keys.count)), at: 0)
        } else {
            slots.insert(try leafEncoder.out.append(WriterNode.integers(keys.map { $0 - first })), at: 0)
        }
        builder.leaves.append((try leafEncoder.out.append(WriterNode.integers(slots, flags: .init(hasRefs: true))), first, Int64(keys.count)))
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

    /// The values of a source column in one leaf, as the reader gives them.
    private func sourceValues(_ c: ColumnInfo, _ leaf: ClusterLeaf, source: TableInfo, walk: Walk) throws -> [RealmValue] {
        guard let index = source.columns.firstIndex(where: { $0.colKey == c.colKey }),
              let decoded = try file.columnLeaves(source, leaf, only: index)[index] else {
            throw RealmFault("the column \(c.name) is missing").located(source.name)
        }
        var values: [RealmValue] = []
        values.reserveCapacity(leaf.count)
        for row in 0..<leaf.count { values.append(renamed(try file.columnValue(source, index, decoded, row, walk: walk))) }
        return values
    }

    /// Links named by their class's new name.
    private func renamed(_ value: RealmValue) -> RealmValue {
        switch value {
        case .link(let className, let key): return .link(className: newNames[className] ?? className, key: key)
        case .list(let items): return .list(items.map(renamed))
        case .set(let items): return .set(items.map(renamed))
        case .dictionary(let entries): return .dictionary(entries.map { RealmDictionaryEntry(key: $0.key, value: renamed($0.value)) })
        default: return value
        }
    }

    /// Checks the values against the new property (as the writer checks a source's) and writes the column's leaf.
    private mutating func encode(_ values: inout [RealmValue], column: WriterColumn, keys: [Int64], slots: inout [Int64]) throws {
        let property = column.property!
        for i in values.indices where !(property.collection == .none && WriterValuePreparer.isPlainMatch(values[i], property.type)) {
            let location = WriterLocation(className: className, sourceKey: keys[i], property: property.name)
            values[i] = try preparer.prepare(values[i], property: property, column: column, table: tableIndex, key: keys[i], location: location)
        }
        if property.isCollection {
            let collections = WriterCollectionEncoder(leaf: leafEncoder)
            var refs: [Int64] = []
            refs.reserveCapacity(values.count)
            for value in values { refs.append(try collections.write(value, column: column)) }
            slots[column.leafIndex] = try leafEncoder.out.append(WriterNode.integers(refs, flags: .init(hasRefs: true)))
        } else {
            slots[column.leafIndex] = try leafEncoder.write(ArraySlice(values), type: column.type, nullable: column.isNullable)
        }
    }
}
