import PorterModel

/// Everything the object operations need to know about one class, computed once per schema:
/// which properties are columns and which are collection tables, and the SQL to use.
final class ClassPlan {
    let schema: ObjectSchema
    let table: String
    /// Non-collection stored properties, in declared order: the columns after `_key`.
    let columns: [Property]
    /// List, set and map properties, in declared order.
    let collections: [Property]
    /// All stored properties in declared order (columns and collections).
    let persisted: [Property]
    /// Position of each stored property in `persisted`.
    let persistedIndex: [String: Int]
    /// Position of each column property in `columns`.
    let columnIndex: [String: Int]
    /// The type of each column, parallel to `columns` (binding needs only that).
    let columnTypes: [PropertyType]
    /// Whether a column holds links (checking a value may then create objects).
    let hasLinkColumns: Bool
    let primaryKey: Property?
    /// The position of ``primaryKey`` in `columns` (looked up once, not per object added).
    let primaryKeyColumn: Int?
    let insertSQL: String
    /// The same insert with the object key given last (`?N+1`), so column parameters keep their numbers.
    let insertWithKeySQL: String
    let selectByKeySQL: String
    let selectAllSQL: String
    /// The columns of the objects whose keys lie between two bounds, in key order.
    let selectRangeSQL: String
    /// `SELECT column FROM table WHERE _key = ?`, parallel to `columns` (built once, not per read).
    let selectColumnSQL: [String]
    /// `SELECT 1 FROM table WHERE _key = ?`.
    let existsSQL: String
    // Unchecked: read for every object inserted; a plan is used by its database's one thread.
    @exclusivity(unchecked) private var preparedInsert: SQLiteStatement?
    private var preparedPrimaryKeyLookup: SQLiteStatement?
    private var primaryKeyIndexed: Bool?
    /// Memory for the text and blob parameters of ``preparedInsert(withKey:_:)``.
    let parameterScratch = ParameterScratch()
    /// How new objects get keys (see ``ObjectKeyAllocation``).
    var keys = ObjectKeyAllocation()
    @exclusivity(unchecked) private var preparedInsertWithKey: SQLiteStatement?

    init(_ schema: ObjectSchema) {
        self.schema = schema
        table = quoteIdentifier(StorageLayout.table(schema.name))
        persisted = schema.persistedProperties
        columns = persisted.filter { !$0.isCollection }
        collections = persisted.filter { $0.isCollection }
        persistedIndex = Dictionary(uniqueKeysWithValues: persisted.enumerated().map { ($1.name, $0) })
        columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })
        columnTypes = columns.map(\.type)
        hasLinkColumns = columns.contains { $0.type == .object }
        primaryKey = schema.primaryKeyProperty
        if let keyName = schema.primaryKeyProperty?.name {
            primaryKeyColumn = columnIndex[keyName]
        } else {
            primaryKeyColumn = nil
        }
        let names = columns.map { quoteIdentifier($0.name) }
        if names.isEmpty {
            insertSQL = "INSERT INTO \(table) DEFAULT VALUES"
        } else {
            insertSQL =
                "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        }
        insertWithKeySQL =
            "INSERT INTO \(table) (\((names + ["_key"]).joined(separator: ", "))) VALUES (\((1...names.count + 1).map { "?\($0)" }.joined(separator: ", ")))"
        let selectList = (["_key"] + names).joined(separator: ", ")
        selectByKeySQL = "SELECT \(selectList) FROM \(table) WHERE _key = ?"
        selectAllSQL = "SELECT \(selectList) FROM \(table) ORDER BY _key"
        selectRangeSQL = "SELECT \(selectList) FROM \(table) WHERE _key BETWEEN ? AND ? ORDER BY _key"
        let quotedTable = table
        selectColumnSQL = names.map { "SELECT \($0) FROM \(quotedTable) WHERE _key = ?" }
        existsSQL = "SELECT 1 FROM \(table) WHERE _key = ?"
    }

    /// ``insertSQL`` prepared, kept with the plan (looking it up in the connection's cache by its
    /// text cost more than binding its values); reset for a new run.
    func insertStatement(_ connection: SQLiteConnection) throws -> SQLiteStatement {
        try prepared(&preparedInsert, insertSQL, connection)
    }

    /// The insert (with an explicit key or without), prepared once and kept with the plan, NOT
    /// reset: for a caller that binds every parameter and resets it after each run.
    func preparedInsert(withKey: Bool, _ connection: SQLiteConnection) throws -> SQLiteStatement {
        if withKey {
            if let statement = preparedInsertWithKey { return statement }
            return try insertWithKeyStatement(connection)
        }
        if let statement = preparedInsert { return statement }
        return try insertStatement(connection)
    }

    /// ``insertWithKeySQL`` prepared, kept with the plan.
    func insertWithKeyStatement(_ connection: SQLiteConnection) throws -> SQLiteStatement {
        try prepared(&preparedInsertWithKey, insertWithKeySQL, connection)
    }

    /// `SELECT _key FROM table WHERE primaryKey = ? LIMIT 1` prepared, kept with the plan.
    func primaryKeyStatement(_ connection: SQLiteConnection) throws -> SQLiteStatement {
        let column = quoteIdentifier(primaryKey?.name ?? "_key")
        return try prepared(
            &preparedPrimaryKeyLookup, "SELECT _key FROM \(table) WHERE \(column) = ? LIMIT 1", connection)
    }

    private func prepared(
        _ slot: inout SQLiteStatement?, _ sql: @autoclosure () -> String, _ connection: SQLiteConnection
    ) throws -> SQLiteStatement {
        if let statement = slot {
            statement.reset()
            return statement
        }
        let statement = try connection.prepare(sql())
        slot = statement
        return statement
    }

    /// Whether the primary key's unique index exists (checked once per plan): only then can a
    /// duplicate key be left to the index to refuse.
    func enforcesPrimaryKey(_ database: Database) throws -> Bool {
        if let known = primaryKeyIndexed { return known }
        let found = try database.catalog().indexes[StorageLayout.primaryKeyIndex(schema.name)] == true
        primaryKeyIndexed = found
        return found
    }

    /// The SQL table of a collection property.
    func collectionTable(_ property: Property) -> String {
        quoteIdentifier(StorageLayout.collectionTable(schema.name, property.name))
    }

    /// `Class.property`, for messages.
    func path(_ property: Property) -> String { "\(schema.name).\(property.name)" }
}

/// A reference from one property to objects of some class: who must be updated when such an
/// object is deleted.
struct IncomingReference {
    let plan: ClassPlan
    let property: Property
}

extension Database {
    /// The plan of a class, built on first use.
    func plan(for className: String) throws -> ClassPlan {
        // The class of the last call first: adding objects one by one asks for the same plan
        // each time, and hashing its name cost more than comparing it.
        if let last = lastPlan, last.schema.name == className { return last }
        if let plan = plans[className] {
            lastPlan = plan
            return plan
        }
        guard let cls = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the schema", location: path)
        }
        let plan = ClassPlan(cls)
        plans[className] = plan
        return plan
    }

    /// Drops plans and cached statements after a schema change.
    func invalidatePlans() {
        rollbackEpoch &+= 1
        plans.removeAll()
        lastPlan = nil
        incomingCache.removeAll()
        connection.clearCache()
    }

    /// Properties anywhere in the schema that can point at objects of `className`: links and
    /// collections of links whose target it is, and every `mixed` property (which can hold any link).
    func incomingReferences(to className: String) throws -> [IncomingReference] {
        if let cached = incomingCache[className] { return cached }
        var refs: [IncomingReference] = []
        for cls in schema.classes {
            for property in cls.persistedProperties
            where (property.type == .object && property.objectType == className) || property.type == .mixed {
                refs.append(IncomingReference(plan: try plan(for: cls.name), property: property))
            }
        }
        incomingCache[className] = refs
        return refs
    }
}
