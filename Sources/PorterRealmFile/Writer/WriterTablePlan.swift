import PorterModel

/// realm-core's `ColumnType` values (core `column_type.hpp`).
enum WriterColumnType: Int64 {
    case int = 0, bool = 1, string = 2, binary = 4, mixed = 6, timestamp = 8, float = 9, double = 10
    case decimal = 11, link = 12, backlink = 14, objectId = 15, typedLink = 16, uuid = 17

    /// The column type storing a property's base type.
    init(_ type: PropertyType) {
        switch type {
        case .int: self = .int
        case .bool: self = .bool
        case .string: self = .string
        case .data: self = .binary
        case .mixed: self = .mixed
        case .date: self = .timestamp
        case .float: self = .float
        case .double: self = .double
        case .decimal128: self = .decimal
        case .object, .linkingObjects: self = .link
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        }
    }
}

/// One column of a table as realm-core lays it out: a public property or a hidden backlink column.
struct WriterColumn {
    /// The property (nil for a backlink column).
    var property: Property?
    /// Index into the class's persisted properties (nil for a backlink column).
    var propertyIndex: Int?
    /// Slot in the cluster (`leafIndex + 1`), the search-index and opposite arrays.
    var leafIndex: Int
    var type: WriterColumnType
    /// ColKey attributes: Nullable 16, List 32, Dictionary 64, Set 128.
    var attributes: Int64
    /// Whether the column has a search index.
    var indexed: Bool
    /// Whether this is the primary-key column.
    var isPrimaryKey: Bool
    /// For links and backlinks: the other table and the other column's leaf index.
    var opposite: (table: Int, leafIndex: Int)?
    /// The full ColKey (leaf index, type, attributes, tag = table key).
    var colKey: Int64 = 0

    var isNullable: Bool { attributes & 16 != 0 }
}

/// One table of the file: `metadata` or `class_<Name>`.
struct WriterTable {
    var name: String
    /// The class (nil for `metadata`).
    var objectSchema: ObjectSchema?
    /// The table key (= its position in the group).
    var key: Int
    /// Columns in Spec order: public columns in creation order, then backlink columns.
    var columns: [WriterColumn] = []
    /// Spec positions by leaf index.
    var columnByLeaf: [Int] = []
    /// The class's persisted properties and, parallel, the column of each.
    var properties: [Property] = []
    var propertyColumns: [WriterColumn] = []

    var isEmbedded: Bool { objectSchema?.isEmbedded ?? false }
    var primaryKeyColumn: WriterColumn? { columns.first { $0.isPrimaryKey } }
    var leafCount: Int { columnByLeaf.count }

}

/// The layout realm-core's object store gives a schema: tables `metadata` then `class_<Name>` by
/// name; each table first gets its primary-key column, then every class (in name order) adds its
/// other properties in declared order, a link adding its backlink column to the target at once.
/// Leaf indexes are handed out in that creation order (core `Table::generate_col_key`).
struct WriterTablePlan {
    var tables: [WriterTable]
    /// Table index by class name.
    var tableByClass: [String: Int]

    /// The schema laid out.
    let schema: Schema
    /// Backlink leaf index in the target table of each (origin table, mixed column leaf, target table).
    var mixedBacklinks: [WriterMixedLink: Int] = [:]
    /// The file format written (22, 23 or 24; ``WriterFileFormat``).
    let fileFormat: Int
    /// Whether the strings of every set of mixed come in realm-core 13's collation order (the
    /// source is a file of format 23 or older): kept as given instead of refused.
    var mixedSetStringsInCoreOrder = false

    /// `mixedLinks`: the mixed columns that hold links, and to which tables. realm-core adds a
    /// backlink column to the target the first time a mixed value links there; the writer adds
    /// them after the schema's columns, in (origin table, column, target table) order.
    init(schema: Schema, mixedLinks: [WriterMixedLink] = [], fileFormat: Int = WriterFileFormat.current) throws {
        var tables = [WriterTable(name: "metadata", objectSchema: nil, key: 0)]
        var byClass: [String: Int] = [:]
        for objectSchema in schema.classes {
            // A damaged source file can name two classes, or two properties of one, alike.
            guard byClass[objectSchema.name] == nil else {
                throw PorterError(
                    .invalidSchema, "two classes are named '\(objectSchema.name)'", location: objectSchema.name)
            }
            var names = Set<String>()
            for property in objectSchema.persistedProperties where !names.insert(property.name).inserted {
                throw PorterError(
                    .invalidSchema, "two properties are named '\(property.name)'",
                    location: "\(objectSchema.name).\(property.name)")
            }
            byClass[objectSchema.name] = tables.count
            tables.append(
                WriterTable(name: "class_" + objectSchema.name, objectSchema: objectSchema, key: tables.count))
        }
        var publicColumns = Array(repeating: [WriterColumn](), count: tables.count)
        var backlinkColumns = Array(repeating: [WriterColumn](), count: tables.count)
        var nextLeaf = Array(repeating: 0, count: tables.count)
        publicColumns[0].append(
            WriterColumn(
                property: Property(name: "version", type: .int), propertyIndex: 0, leafIndex: 0,
                type: .int, attributes: 0, indexed: false, isPrimaryKey: false))
        nextLeaf[0] = 1

        func makeColumn(_ property: Property, index: Int, table: Int, isPrimaryKey: Bool) throws -> WriterColumn {
            var attributes: Int64 = 0
            let nullable =
                property.type == .object
                ? (property.collection == .none || property.collection == .map) : property.isOptional
            if nullable { attributes |= 16 }
            switch property.collection {
            case .none: break
            case .list: attributes |= 32
            case .map: attributes |= 64
            case .set: attributes |= 128
            }
            let leaf = nextLeaf[table]
            nextLeaf[table] += 1
            if property.isIndexed || isPrimaryKey {
                // What the object store accepts (`Property::type_is_indexable`, lists of strings).
                let indexable: Set<PropertyType> = [.int, .bool, .string, .date, .objectId, .uuid, .mixed]
                guard indexable.contains(property.type),
                    property.collection == .none
                        || (property.collection == .list && property.type == .string && !isPrimaryKey)
                else {
                    throw PorterError(
                        .invalidSchema, "Realm cannot index a \(property.typeShorthand) property",
                        location: "\(tables[table].objectSchema!.name).\(property.name)")
                }
                try WriterFileFormat.checkIndex(
                    property, fileFormat: fileFormat, location: "\(tables[table].objectSchema!.name).\(property.name)")
            }
            return WriterColumn(
                property: property, propertyIndex: index, leafIndex: leaf, type: WriterColumnType(property.type),
                attributes: attributes,
                indexed: isPrimaryKey
                    || (property.isIndexed && (property.collection == .none || property.collection == .list)),
                isPrimaryKey: isPrimaryKey)
        }

        for t in 1..<tables.count {
            let objectSchema = tables[t].objectSchema!
            let persisted = objectSchema.persistedProperties
            if let pk = objectSchema.primaryKey, let index = persisted.firstIndex(where: { $0.name == pk }) {
                publicColumns[t].append(try makeColumn(persisted[index], index: index, table: t, isPrimaryKey: true))
            }
        }
        for t in 1..<tables.count {
            let objectSchema = tables[t].objectSchema!
            for (index, property) in objectSchema.persistedProperties.enumerated()
            where property.name != objectSchema.primaryKey {
                var column = try makeColumn(property, index: index, table: t, isPrimaryKey: false)
                if property.type == .object {
                    guard let target = property.objectType.flatMap({ byClass[$0] }) else {
                        throw PorterError(
                            .invalidSchema, "link to unknown class '\(property.objectType ?? "")'",
                            location: "\(objectSchema.name).\(property.name)")
                    }
                    let backLeaf = nextLeaf[target]
                    nextLeaf[target] += 1
                    backlinkColumns[target].append(
                        WriterColumn(
                            property: nil, propertyIndex: nil, leafIndex: backLeaf, type: .backlink,
                            attributes: 0, indexed: false, isPrimaryKey: false,
                            opposite: (t, column.leafIndex)))
                    column.opposite = (target, backLeaf)
                }
                publicColumns[t].append(column)
            }
        }
        var mixedBacklinks: [WriterMixedLink: Int] = [:]
        for link in mixedLinks.sorted() {
            let backLeaf = nextLeaf[link.target]
            nextLeaf[link.target] += 1
            backlinkColumns[link.target].append(
                WriterColumn(
                    property: nil, propertyIndex: nil, leafIndex: backLeaf, type: .backlink,
                    attributes: 0, indexed: false, isPrimaryKey: false,
                    opposite: (link.origin, link.originLeaf)))
            mixedBacklinks[link] = backLeaf
        }
        self.mixedBacklinks = mixedBacklinks
        for t in 0..<tables.count {
            var columns = publicColumns[t] + backlinkColumns[t]
            for i in columns.indices {
                let c = columns[i]
                columns[i].colKey =
                    Int64(c.leafIndex) | WriterFileFormat.columnType(c, fileFormat: fileFormat) << 16
                    | c.attributes << 22 | Int64(tables[t].key) << 30
            }
            var byLeaf = Array(repeating: 0, count: nextLeaf[t])
            for (i, c) in columns.enumerated() { byLeaf[c.leafIndex] = i }
            tables[t].columns = columns
            tables[t].columnByLeaf = byLeaf
            tables[t].properties =
                tables[t].objectSchema?.persistedProperties ?? [Property(name: "version", type: .int)]
            tables[t].propertyColumns = tables[t].properties.indices.map { i in columns.first { $0.propertyIndex == i }!
            }
        }
        self.tables = tables
        self.tableByClass = byClass
        self.schema = schema
        self.fileFormat = fileFormat
    }

    /// The ColKey of the column at `leafIndex` in table `table`.
    func colKey(table: Int, leafIndex: Int) -> Int64 {
        let t = tables[table]
        return t.columns[t.columnByLeaf[leafIndex]].colKey
    }
}

/// A mixed column holding links to a table: (origin table, the column's leaf index, target table).
struct WriterMixedLink: Hashable, Comparable {
    var origin: Int
    var originLeaf: Int
    var target: Int

    static func < (a: WriterMixedLink, b: WriterMixedLink) -> Bool {
        (a.origin, a.originLeaf, a.target) < (b.origin, b.originLeaf, b.target)
    }
}
