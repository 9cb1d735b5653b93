import PorterModel

/// Rebuilding the Realm schema from the tables (object-store `object_schema.cpp` 74-163).
extension RealmFile {
    /// The PorterModel schema of the user classes; version from the `metadata` table (0 if none).
    public var schema: Schema {
        Schema(
            version: schemaVersion.map { UInt64(bitPattern: $0) } ?? 0,
            classes: tables.map {
                ObjectSchema(
                    name: $0.name, properties: $0.properties, primaryKey: $0.primaryKey, embedded: $0.isEmbedded)
            })
    }

    static func makeTable(_ info: TableInfo, byKey: [UInt32: TableInfo]) -> RealmTable {
        let properties = info.columns.enumerated().map { c, column in
            property(column, isPrimaryKey: c == info.primaryKeyColumn, byKey: byKey)
        }
        return RealmTable(
            name: info.name, storedName: info.storedName, key: info.key, isEmbedded: info.tableType == 1,
            isAsymmetric: info.tableType == 2, primaryKey: info.primaryKeyColumn.map { info.columns[$0].name },
            properties: properties)
    }

    static func property(_ column: ColumnInfo, isPrimaryKey: Bool, byKey: [UInt32: TableInfo]) -> Property {
        let K = ColumnInfo.Kind.self
        let type: PropertyType
        var objectType: String?
        switch column.type {
        case K.int: type = .int
        case K.bool: type = .bool
        case K.string: type = .string
        case K.binary: type = .data
        case K.timestamp: type = .date
        case K.float: type = .float
        case K.double: type = .double
        case K.decimal: type = .decimal128
        case K.objectId: type = .objectId
        case K.uuid: type = .uuid
        case K.link:
            type = .object
            objectType = column.targetTable.flatMap { byKey[$0]?.name }
        default: type = .mixed  // Mixed, and TypedLink columns (any class: only a mixed says that)
        }
        let collection: CollectionKind =
            column.isList ? .list : column.isSet ? .set : column.isDictionary ? .map : .none
        var optional = column.isNullable
        // Realm's normalisations: to-one links and maps of links are nullable, lists/sets of links not.
        if type == .object { optional = collection == .none || collection == .map }
        // A primary key is always indexed: Porter's schemas (like realm-js's) do not repeat it, so
        // a diff against the app's schema file shows no index change there.
        let indexed =
            !isPrimaryKey
            && (column.hasSearchIndex || column.attrs & (ColumnInfo.Attr.indexed | ColumnInfo.Attr.fullText) != 0)
        return Property(
            name: column.name, type: type, objectType: objectType, optional: optional, collection: collection,
            indexed: indexed)
    }
}
