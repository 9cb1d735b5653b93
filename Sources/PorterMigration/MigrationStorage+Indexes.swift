import Foundation
import PorterModel
import PorterStore

/// Index primitives of the migration runtime. SQLite cannot drop or rename an indexed column,
/// and Porter's index names carry class and property names, so a migration drops the indexes a
/// step invalidates and makes every missing one afterwards.
extension MigrationStorage {
    /// Drops every index on a class's table and collection tables (SQLite cannot drop or rename
    /// an indexed column, and index names follow class and property names).
    package func dropIndexes(_ className: String) throws {
        var tables = [StorageLayout.table(className)]
        tables += try collectionProperties(className).map { StorageLayout.collectionTable(className, $0) }
        for table in tables {
            let stmt = try connection.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
            stmt.bind(1, text: table)
            var names: [String] = []
            while try stmt.step() { names.append(stmt.text(0)) }
            for name in names { try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(name))") }
        }
    }

    /// Drops only a class's primary-key index (so duplicates may exist while a migration runs).
    package func dropPrimaryKeyIndex(_ className: String) throws {
        try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.primaryKeyIndex(className)))")
    }

    /// Creates the indexes `cls` declares (primary key, indexed and link columns, and, with
    /// `collections`, those of its collection tables). Existing class-table indexes are kept.
    package func createIndexes(_ cls: ObjectSchema, collections: Bool = true) throws {
        try ddl.createIndexes(cls)
        for property in cls.persistedProperties where property.isCollection && collections {
            try ddl.createCollectionIndexes(cls.name, property)
        }
    }

    /// Drops the indexes named after a property (its column index, or its collection table's).
    package func dropPropertyIndexes(_ className: String, _ property: String) throws {
        try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.index(className, property)))")
        try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.ownerIndex(className, property)))")
    }

    /// Whether an index with this name exists.
    package func hasIndex(_ name: String) throws -> Bool { try database.hasIndex(name) }

    /// Whether the class's unique primary-key index exists.
    package func hasPrimaryKeyIndex(_ className: String) throws -> Bool { try database.hasPrimaryKeyIndex(className) }

    /// The names of the indexes of `table` that include `column`.
    func indexes(onColumn column: String, of table: String) throws -> [String] {
        let list = try connection.prepare("SELECT name FROM pragma_index_list(?) WHERE origin = 'c'")
        list.bind(1, text: table)
        var names: [String] = []
        while try list.step() { names.append(list.text(0)) }
        return try names.filter { name in
            let info = try connection.prepare("SELECT 1 FROM pragma_index_info(?) WHERE name = ?")
            info.bind(1, text: name)
            info.bind(2, text: column)
            return try info.step()
        }
    }
}
