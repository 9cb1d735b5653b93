/// One column of a table as the Spec and the table top describe it (realm-core `spec.hpp`,
/// `keys.hpp` 116-190, `table.hpp` 860-875).
struct ColumnInfo: Sendable {
    /// ColumnType values (`column_type.hpp` 27-46).
    enum Kind {
        static let int = 0, bool = 1, string = 2, binary = 4, mixed = 6, timestamp = 8, float = 9,
            double = 10, decimal = 11, link = 12, linkList = 13, backlink = 14, objectId = 15,
            typedLink = 16, uuid = 17
    }
    /// Column attributes (`column_type.hpp` 155-187).
    enum Attr {
        static let indexed = 1, nullable = 16, list = 32, dictionary = 64, set = 128, fullText = 256
    }

    /// The column's name (empty for backlink columns).
    var name: String
    /// The position in the Spec.
    var specIndex: Int
    /// The full ColKey.
    var colKey: Int64
    /// The cluster slot is `leafIndex + 1`; also indexes search indexes and opposite tables.
    var leafIndex: Int
    /// ColumnType, with LinkList folded into Link + list.
    var type: Int
    /// Attributes from the ColKey, plus Indexed/FullText from the Spec.
    var attrs: Int
    /// The link/backlink target (opposite) table key.
    var targetTable: UInt32?
    /// The opposite column key (backlinks: the origin column).
    var oppositeColKey: Int64
    /// Spec slot 4: the enum keys of an enum-optimised string column (0 if none).
    var enumKeysRef: Int64
    /// Whether a search index exists.
    var hasSearchIndex: Bool
    /// The search index's root (0 if none).
    var indexRef: Int64 = 0

    var isNullable: Bool { attrs & Attr.nullable != 0 }
    var isList: Bool { attrs & Attr.list != 0 }
    var isSet: Bool { attrs & Attr.set != 0 }
    var isDictionary: Bool { attrs & Attr.dictionary != 0 }
    var isCollection: Bool { attrs & (Attr.list | Attr.set | Attr.dictionary) != 0 }
    var isBacklink: Bool { type == Kind.backlink }
}

/// One table of the file.
struct TableInfo: Sendable {
    var storedName: String
    /// The class name (`class_` removed).
    var name: String
    var key: UInt32
    var clusterRoot: Int64
    var tombstoneRoot: Int64
    /// Public columns in Spec order.
    var columns: [ColumnInfo]
    /// Backlink columns.
    var backlinks: [ColumnInfo]
    var primaryKeyColumn: Int?
    /// 0 top-level, 1 embedded, 2 asymmetric (`table.hpp` 94-95).
    var tableType: Int
    var isInternal: Bool
}
