import PorterModel

/// Names of the SQLite tables, columns and indexes that hold a schema's objects.
///
/// Each class `C` is a table `class_C` with an `_key INTEGER PRIMARY KEY` (never reused: see
/// ``ObjectKeyAllocation``; tables of older files are `AUTOINCREMENT`) and one column per
/// non-collection stored property. A list, set or map property `p`
/// is a table `class_C.p` (`_owner`, then `_pos` or `_key` for lists and maps, then `value`). Class
/// names cannot contain `.`, so these names never collide.
package enum StorageLayout {
    /// Table of a class.
    package static func table(_ className: String) -> String { "class_" + className }
    /// Table of a collection property.
    package static func collectionTable(_ className: String, _ property: String) -> String {
        "class_" + className + "." + property
    }
    /// Index on a column (or on a collection table's values).
    package static func index(_ className: String, _ property: String) -> String {
        "index:" + className + "." + property
    }
    /// The unique index that enforces a primary key.
    package static func primaryKeyIndex(_ className: String) -> String { "pk:" + className }
    /// Index from a collection table's owner.
    package static func ownerIndex(_ className: String, _ property: String) -> String {
        "owner:" + className + "." + property
    }
}

/// DDL for classes and properties, shared by database creation, automatic schema changes and the
/// migration runtime.
package struct SchemaDDL {
    let connection: SQLiteConnection

    /// DDL run on `connection`.
    package init(connection: SQLiteConnection) { self.connection = connection }

    /// Creates the table, collection tables and indexes of one class.
    package func createClass(_ cls: ObjectSchema) throws {
        let columns = cls.persistedProperties.filter { !$0.isCollection }.map { quoteIdentifier($0.name) }
        let body = (["_key INTEGER PRIMARY KEY"] + columns).joined(separator: ", ")
        try connection.execute("CREATE TABLE \(quoteIdentifier(StorageLayout.table(cls.name))) (\(body))")
        for property in cls.persistedProperties where property.isCollection {
            try createCollectionTable(cls.name, property)
        }
        try createIndexes(cls)
    }

    /// The side table of a list, set or map property.
    package func createCollectionTable(_ className: String, _ property: Property) throws {
        let table = quoteIdentifier(StorageLayout.collectionTable(className, property.name))
        switch property.collection {
        case .list:
            try connection.execute(
                "CREATE TABLE \(table) (_owner INTEGER NOT NULL, _pos INTEGER NOT NULL, value, PRIMARY KEY (_owner, _pos)) WITHOUT ROWID"
            )
        case .set:
            try connection.execute("CREATE TABLE \(table) (_owner INTEGER NOT NULL, value)")
        case .map:
            try connection.execute(
                "CREATE TABLE \(table) (_owner INTEGER NOT NULL, _key TEXT NOT NULL, value, PRIMARY KEY (_owner, _key)) WITHOUT ROWID"
            )
        case .none:
            return
        }
        try createCollectionIndexes(className, property)
    }

    /// Indexes of a collection table (those missing): owner+value for sets (uniqueness checks), and values for
    /// links, mixed and indexed lists (reverse lookups when a target is deleted, linkingObjects).
    package func createCollectionIndexes(_ className: String, _ property: Property) throws {
        let table = quoteIdentifier(StorageLayout.collectionTable(className, property.name))
        if property.collection == .set {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(StorageLayout.ownerIndex(className, property.name))) ON \(table) (_owner, value)"
            )
        }
        if property.type == .object || property.type == .mixed || property.isIndexed {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(StorageLayout.index(className, property.name))) ON \(table) (value)"
            )
        }
    }

    /// Drops a collection table's indexes (before a rename, so the names follow the property).
    package func dropCollectionIndexes(_ className: String, _ property: Property) throws {
        try connection.execute(
            "DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.ownerIndex(className, property.name)))")
        try connection.execute("DROP INDEX IF EXISTS \(quoteIdentifier(StorageLayout.index(className, property.name)))")
    }

    /// Indexes of a class: the unique primary-key index, declared indexes, and link columns.
    package func createIndexes(_ cls: ObjectSchema) throws {
        let table = quoteIdentifier(StorageLayout.table(cls.name))
        if let pk = cls.primaryKey {
            try connection.execute(
                "CREATE UNIQUE INDEX IF NOT EXISTS \(quoteIdentifier(StorageLayout.primaryKeyIndex(cls.name))) ON \(table) (\(quoteIdentifier(pk)))"
            )
        }
        for property in cls.persistedProperties where !property.isCollection && needsColumnIndex(property, in: cls) {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(StorageLayout.index(cls.name, property.name))) ON \(table) (\(quoteIdentifier(property.name)))"
            )
        }
    }

    /// Whether a non-collection column gets a (non-unique) index: declared, a link, or a mixed that may hold a link.
    func needsColumnIndex(_ property: Property, in cls: ObjectSchema) -> Bool {
        guard property.name != cls.primaryKey else { return false }
        return property.isIndexed || property.type == .object || property.type == .mixed
    }

    /// Adds a stored property to an existing class (existing objects read NULL until filled).
    package func addProperty(_ className: String, _ property: Property) throws {
        if property.isCollection {
            try createCollectionTable(className, property)
        } else {
            try connection.execute(
                "ALTER TABLE \(quoteIdentifier(StorageLayout.table(className))) ADD COLUMN \(quoteIdentifier(property.name))"
            )
        }
    }
}
