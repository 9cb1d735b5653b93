import Foundation
import PorterModel

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
                guard info.tombstoneRoot == 0 else {
                    throw unsupported("\(name) has tombstones (objects deleted while still linked)")
                }
                guard (info.tableType == 1) == cls.isEmbedded else {
                    throw unsupported("\(cls.name) changes between embedded and top-level")
                }
                sourceOf[cls.name] = info
                newNames[name] = cls.name
                tables[t].source = info
            }
        }
        // Mixed values and dictionaries of links carry table keys: stable when every class keeps its key.
        let stableTableKeys =
            (1..<plan.tables.count).allSatisfy { t in
                tables[t].source.map { Int($0.key) == t } ?? true
            } && source.infos.allSatisfy { info in sourceOf.values.contains { $0.key == info.key } || info.isInternal }
        for t in 1..<plan.tables.count {
            let table = plan.tables[t]
            let cls = table.objectSchema!
            let rewrite = classes[cls.name]!
            for column in table.columns where column.type != .backlink {
                let property = column.property!
                guard let how = rewrite.columns[property.name] else {
                    throw unsupported("no source for \(cls.name).\(property.name)")
                }
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
                            Self.sameLayout(c, column)
                        else {
                            throw unsupported(
                                "\(cls.name).\(property.name) does not link to the rewritten source of its target")
                        }
                        // A dictionary's links are typed: they carry the target's table key, which
                        // may change (tables are laid out by name): then they are written anew.
                        if property.collection == .map
                            && (Int(targetSource.key) != plan.tableByClass[target] || format < 23)
                        {
                            guard targetSource.tableType != 1 else {
                                throw unsupported(
                                    "\(cls.name).\(property.name) is a dictionary of embedded objects whose table key or layout changes"
                                )
                            }
                            tables[t].columns[column.leafIndex] = .computed(c, nil)
                        } else {
                            tables[t].columns[column.leafIndex] = .raw(c)
                        }
                    } else if c.type == Int(column.type.rawValue) && Self.sameLayout(c, column) && c.enumKeysRef == 0
                        && (property.type != .mixed || stableTableKeys) && Self.sameLeaves(c, format: format)
                    {
                        tables[t].columns[column.leafIndex] = .raw(c)
                    } else {
                        tables[t].columns[column.leafIndex] = .computed(c, nil)
                    }
                case .convert(let name, let convert):
                    guard property.type != .object else {
                        throw unsupported("\(cls.name).\(property.name) converts links")
                    }
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
                    let copied = source.backlinks.first(where: {
                        $0.targetTable == originTable.key && $0.oppositeColKey == originColumn.colKey
                    })
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
                        targetSource.backlinks.contains(where: {
                            $0.targetTable == originSource.key && $0.oppositeColKey == sourceColumn.colKey
                        })
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
