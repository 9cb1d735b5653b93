import PorterCSQLite
import Foundation
import PorterModel

/// Inserts objects of one class through statements prepared once: the import fast path.
///
/// The caller has already validated every value (types, required values, 16 MB limits, map keys,
/// set uniqueness) and resolved every link to an existing object, so nothing is checked again: no
/// SQL is built per call, no savepoint is taken, no link target is looked up. Embedded objects
/// (`.object` values) are inserted with their parent. Use it inside one write transaction that is
/// rolled back on any error: a failed call may leave partial rows behind.
package final class BulkInserter {
    let database: Database
    let plan: ClassPlan
    private let insertStatement: SQLiteStatement
    /// One insert statement per collection property, parallel to `plan.collections`.
    private var collectionStatements: [SQLiteStatement] = []
    private var embedded: [String: BulkInserter] = [:]
    /// For each column, and each collection, its position in the class's declared properties.
    let columnPositions: [Int]
    private let collectionPositions: [Int]
    /// Column types, parallel to `plan.columns` (read for every value bound).
    let columnTypes: [PropertyType]
    /// The collection properties with their statements and positions.
    private var collections: [CollectionSlot] = []
    private let primaryKeyPosition: Int?
    /// The insert with an explicit object key, and a key probe, prepared on first use.
    private var insertWithKeyStatement: SQLiteStatement?
    private var existsStatement: SQLiteStatement?

    /// Prepares the statements for `className` (top-level or embedded).
    package init(database: Database, className: String) throws {
        self.database = database
        plan = try database.plan(for: className)
        insertStatement = try database.connection.prepare(plan.insertSQL)
        let declared = plan.schema.properties.map(\.name)
        columnPositions = plan.columns.map { column in declared.firstIndex(of: column.name) ?? 0 }
        collectionPositions = plan.collections.map { collection in declared.firstIndex(of: collection.name) ?? 0 }
        columnTypes = plan.columns.map(\.type)
        primaryKeyPosition = plan.primaryKey.flatMap { declared.firstIndex(of: $0.name) }
        for property in plan.collections {
            let table = plan.collectionTable(property)
            let sql: String
            switch property.collection {
            case .list: sql = "INSERT INTO \(table) (_owner, _pos, value) VALUES (?, ?, ?)"
            case .set: sql = "INSERT INTO \(table) (_owner, value) VALUES (?, ?)"
            case .map: sql = "INSERT INTO \(table) (_owner, _key, value) VALUES (?, ?, ?)"
            // `collections` holds only list, set and map properties.
            case .none: sql = "SELECT 1"
            }
            collectionStatements.append(try database.connection.prepare(sql))
        }
        collections = plan.collections.indices.map {
            CollectionSlot(
                property: plan.collections[$0], statement: collectionStatements[$0], position: collectionPositions[$0])
        }
    }

    /// Inserts one object: `fields` by position in the class's declared properties (as
    /// `ObjectSchema.properties` lists them; nil takes the default); returns its key.
    /// - Throws: ``PorterError/Code/duplicatePrimaryKey`` naming the value, or the SQLite error.
    package func insert(fields: [Value?]) throws -> ObjectKey {
        try insert(fields: fields, preferredKey: nil)
    }

    /// Inserts one object, under `preferredKey` when the class has no primary key and no object
    /// holds that key yet (so an object read from a Realm file keeps its object key, which exports
    /// write as `_key`); otherwise under a new key. Returns the key used.
    package func insert(fields: [Value?], preferredKey: Int64?) throws -> ObjectKey {
        try database.requireWrite()
        guard fields.count == plan.schema.properties.count else {
            throw PorterError(
                .usage,
                "expected \(plan.schema.properties.count) field values for \(plan.schema.name), got \(fields.count)")
        }
        if let preferredKey, plan.primaryKey == nil, try insertWithKey(fields, preferredKey) {
            // Inserted under the preferred key.
        } else {
            let statement = try statementForNewKey()
            try bindColumns(fields, to: statement)
            try step(statement, primaryKeyPosition.flatMap { fields[$0] })
        }
        database.noteObjectInserted(plan, database.connection.lastInsertRowID)
        let key = ObjectKey(database.connection.lastInsertRowID)
        for collection in collections {
            // `collection.property` is read in place: a local `Property` would copy its strings.
            let value = fields[collection.position] ?? Database.defaultValue(for: collection.property)
            try writeCollection(key, collection.property, value, collection.statement)
        }
        return key
    }

    /// Writes a list of links completed after its owner was inserted: `owner` was inserted by this
    /// inserter with `property` empty, and every element is a link the caller found to an existing
    /// object. Nothing is checked again; false (nothing written) unless `property` is a list of
    /// links to a top-level class and every element a link to that class.
    package func fillLinkList(_ owner: ObjectKey, _ property: String, _ elements: [Value]) throws -> Bool {
        guard let slot = collections.first(where: { $0.property.name == property }),
            slot.property.collection == .list, slot.property.type == .object,
            let target = slot.property.objectType, database.schema[target]?.isEmbedded == false,
            elements.allSatisfy({ if case .link(let link) = $0 { link.className == target } else { false } })
        else { return false }
        try database.requireWrite()
        for (position, element) in elements.enumerated() {
            slot.statement.bind(1, int: owner.rawValue)
            slot.statement.bind(2, int: Int64(position))
            StorageCodec.bind(element, type: .object, to: slot.statement, at: 3)
            try step(slot.statement, nil)
        }
        return true
    }

    /// Binds the column values (by position in the class's declared properties).
    private func bindColumns(_ fields: [Value?], to statement: SQLiteStatement) throws {
        // Indexes rather than `enumerated()`: iterating `Property` values would copy each one.
        for i in 0..<columnTypes.count {
            if let value = fields[columnPositions[i]] {
                if case .object = value {
                    try bind(value, plan.columns[i], statement, Int32(i + 1))
                } else {
                    StorageCodec.bind(value, type: columnTypes[i], to: statement, at: Int32(i + 1))
                }
            } else {
                try bind(Database.defaultValue(for: plan.columns[i]), plan.columns[i], statement, Int32(i + 1))
            }
        }
    }

    /// The insert for an object under a new key: SQLite's choice, or the class's key floor bound
    /// last when SQLite's choice could reuse a deleted object's key (see ``ObjectKeyAllocation``).
    func statementForNewKey() throws -> SQLiteStatement {
        guard let floor = try database.explicitObjectKey(plan) else { return insertStatement }
        if insertWithKeyStatement == nil {
            insertWithKeyStatement = try database.connection.prepare(plan.insertWithKeySQL)
        }
        guard let statement = insertWithKeyStatement else { return insertStatement }
        statement.bind(Int32(columnTypes.count + 1), int: floor)
        return statement
    }

    /// Inserts under an explicit key; false when the key is taken (nothing was inserted).
    private func insertWithKey(_ fields: [Value?], _ key: Int64) throws -> Bool {
        if insertWithKeyStatement == nil {
            insertWithKeyStatement = try database.connection.prepare(plan.insertWithKeySQL)
        }
        guard let statement = insertWithKeyStatement else { return false }
        // An embedded object bound as a column is inserted while binding: probe the key first so
        // a taken key never leaves one behind.
        guard try !exists(key) else { return false }
        try bindColumns(fields, to: statement)
        statement.bind(Int32(columnTypes.count + 1), int: key)
        try step(statement, nil)
        return true
    }

    private func exists(_ key: Int64) throws -> Bool {
        if existsStatement == nil { existsStatement = try database.connection.prepare(plan.existsSQL) }
        guard let statement = existsStatement else { return false }
        statement.bind(1, int: key)
        defer { sqlite3_reset(statement.handle) }
        return try statement.step()
    }

    /// Inserts one object: `values` by property name (missing ones take their default); returns its key.
    /// - Throws: ``PorterError/Code/duplicatePrimaryKey`` naming the value, or the SQLite error.
    package func insert(_ values: [String: Value]) throws -> ObjectKey {
        try database.requireWrite()
        let statement = try statementForNewKey()
        for (i, property) in plan.columns.enumerated() {
            try bind(values[property.name] ?? Database.defaultValue(for: property), property, statement, Int32(i + 1))
        }
        try step(statement, plan.primaryKey.flatMap { values[$0.name] })
        database.noteObjectInserted(plan, database.connection.lastInsertRowID)
        let key = ObjectKey(database.connection.lastInsertRowID)
        for (i, property) in plan.collections.enumerated() {
            try writeCollection(
                key, property, values[property.name] ?? Database.defaultValue(for: property), collectionStatements[i])
        }
        return key
    }

    private func writeCollection(_ owner: ObjectKey, _ property: Property, _ value: Value, _ statement: SQLiteStatement)
        throws
    {
        switch (property.collection, value) {
        case (.list, .list(let elements)), (.list, .set(let elements)):
            for (position, element) in elements.enumerated() {
                statement.bind(1, int: owner.rawValue)
                statement.bind(2, int: Int64(position))
                try bind(element, property, statement, 3)
                try step(statement, nil)
            }
        case (.set, .set(let elements)), (.set, .list(let elements)):
            for element in elements {
                statement.bind(1, int: owner.rawValue)
                try bind(element, property, statement, 2)
                try step(statement, nil)
            }
        case (.map, .map(let entries)):
            for key in entries.keys.sorted() {
                statement.bind(1, int: owner.rawValue)
                statement.bind(2, text: key)
                try bind(entries[key] ?? .null, property, statement, 3)
                try step(statement, nil)
            }
        default:
            throw PorterError(
                .invalidValue, "expected a \(property.collection.rawValue) but got \(value.kindName)",
                location: plan.path(property))
        }
    }

    /// Binds a value; an embedded object is inserted first and bound as its link.
    func bind(_ value: Value, _ property: Property, _ statement: SQLiteStatement, _ index: Int32) throws {
        if case .object(let fields) = value, let target = property.objectType {
            let child = try embeddedInserter(target).insert(fields)
            StorageCodec.bind(.link(ObjectLink(target, child)), type: property.type, to: statement, at: index)
        } else {
            StorageCodec.bind(value, type: property.type, to: statement, at: index)
        }
    }

    private func embeddedInserter(_ className: String) throws -> BulkInserter {
        if let inserter = embedded[className] { return inserter }
        let inserter = try BulkInserter(database: database, className: className)
        embedded[className] = inserter
        return inserter
    }

    /// Steps an insert; a unique-index failure on the primary key becomes a duplicate-key error.
    func step(_ statement: SQLiteStatement, _ primaryKey: Value?) throws {
        database.connection.steps &+= 1
        let rc = sqlite3_step(statement.handle)
        sqlite3_reset(statement.handle)
        guard rc != SQLITE_DONE else { return }
        if rc & 0xFF == SQLITE_CONSTRAINT, let pk = plan.primaryKey, let value = primaryKey {
            throw PorterError(
                .duplicatePrimaryKey,
                "duplicate primary key value \(database.describe(value)): an object with it already exists",
                location: plan.path(pk))
        }
        throw database.connection.error(rc, "inserting into \(plan.schema.name)")
    }
}

/// Finds objects by primary key through one prepared statement (no SQL built per lookup).
package final class PrimaryKeyLookup {
    let database: Database
    let property: Property
    private let byValue: SQLiteStatement
    private let byNull: SQLiteStatement

    /// Prepares the lookup for a class with a primary key.
    /// - Throws: ``PorterError/Code/usage`` when the class has none.
    package init(database: Database, className: String) throws {
        self.database = database
        let plan = try database.plan(for: className)
        guard let pk = plan.primaryKey else {
            throw PorterError(.usage, "class '\(className)' has no primary key", location: className)
        }
        property = pk
        let column = quoteIdentifier(pk.name)
        byValue = try database.connection.prepare("SELECT _key FROM \(plan.table) WHERE \(column) = ? LIMIT 1")
        byNull = try database.connection.prepare("SELECT _key FROM \(plan.table) WHERE \(column) IS NULL LIMIT 1")
    }

    /// The object whose primary key is `value` (typed as the primary-key property), if any.
    package func key(_ value: Value) throws -> ObjectKey? {
        let statement = value.isNull ? byNull : byValue
        if !value.isNull { StorageCodec.bind(value, type: property.type, to: statement, at: 1) }
        defer { sqlite3_reset(statement.handle) }
        return try statement.step() ? ObjectKey(statement.int64(0)) : nil
    }
}

/// One collection property of a ``BulkInserter``: what inserting its elements needs.
private final class CollectionSlot {
    let property: Property
    let statement: SQLiteStatement
    let position: Int

    init(property: Property, statement: SQLiteStatement, position: Int) {
        self.property = property
        self.statement = statement
        self.position = position
    }
}
