import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// Creates an object of a top-level class from property values; missing values take their
    /// default, unknown keys are an error. Nested `.object` values create embedded objects, and
    /// create (or, under `update`, update) linked top-level objects, as Realm's `create` does.
    ///
    /// With a primary key: `update: .error` rejects an existing key (naming class and value);
    /// `.modified` and `.all` update that object instead and return its key.
    /// A failing call changes nothing.
    @discardableResult
    public func create(_ className: String, _ values: [String: Value] = [:], update: UpdatePolicy = .error) throws
        -> ObjectKey
    {
        try requireWrite()
        let plan = try plan(for: className)
        if plan.schema.isEmbedded {
            throw PorterError(
                .usage, "embedded objects cannot be created on their own; assign them to a parent's property",
                location: className)
        }
        return try atomically { try insertOrUpdate(plan, values, policy: update) }
    }

    /// Like ``create(_:_:update:)`` without the per-call savepoint: for loaders that roll back the
    /// whole write transaction on any error (a failed call may leave partial changes behind).
    @discardableResult
    public func createInBulk(_ className: String, _ values: [String: Value], update: UpdatePolicy = .error) throws
        -> ObjectKey
    {
        try requireWrite()
        let plan = try plan(for: className)
        if plan.schema.isEmbedded {
            throw PorterError(
                .usage, "embedded objects cannot be created on their own; assign them to a parent's property",
                location: className)
        }
        return try insertOrUpdate(plan, values, policy: update)
    }

    /// Creates an object of a class without collections from its single-value properties by
    /// position (``rowProperties(_:)`` order; nil takes the default), as ``createInBulk(_:_:update:)``
    /// with `update: .error` does from a dictionary, without a savepoint: every check comes before
    /// the one INSERT, so a failing call changes nothing.
    @discardableResult
    public func createRow(_ className: String, _ columns: [Value?]) throws -> ObjectKey {
        try requireWrite()
        let plan = try plan(for: className)
        guard !plan.schema.isEmbedded, plan.collections.isEmpty, columns.count == plan.columns.count else {
            throw PorterError(
                .usage,
                "createRow needs a top-level class without collections and a value (or nil) for each of its \(plan.columns.count) columns",
                location: className)
        }
        // The primary key first, as ``insertOrUpdate(_:_:policy:)`` checks it. A non-null key is
        // not looked up beforehand: the primary key's unique index refuses a duplicate INSERT
        // (null keys, which a unique index lets repeat, are looked up).
        var primaryKey: (index: Int, property: Property, value: Value)?
        var keyIndex = -1
        var keyValue = Value.null
        if let pk = plan.primaryKey, let index = plan.primaryKeyColumn {
            let pkValue = try primaryKeyValue(plan, pk, columns[index])
            let indexRefusesDuplicates = try !pkValue.isNull && plan.enforcesPrimaryKey(self)
            if !indexRefusesDuplicates, try findFirst(plan, pk, pkValue) != nil {
                throw duplicateKey(plan, pk, pkValue)
            }
            primaryKey = (index, pk, pkValue)
            keyIndex = index
            keyValue = pkValue
        }
        if !plan.hasLinkColumns {
            return try insertPlainRow(plan, columns, keyIndex: keyIndex, keyValue: keyValue, primaryKey: primaryKey)
        }
        var resolved: [Value] = []
        resolved.reserveCapacity(columns.count)
        do {
            // Properties borrowed from the plan, not copied per column (a copy retained and
            // released each of their strings, per column of every object added).
            try plan.columns.withUnsafeBufferPointer { buffer in
                // Through the base pointer: its subscript lends the element, the buffer's copies it.
                guard let properties = buffer.baseAddress else { return }
                for index in buffer.indices {
                    let given: Value
                    if index == keyIndex {
                        given = keyValue
                    } else if let value = columns[index] {
                        given = value
                    } else {
                        given = Database.defaultValue(for: properties[index])
                    }
                    resolved.append(try resolve(given, for: properties[index], in: plan, policy: .error))
                }
            }
        } catch {
            // A duplicate key is the error to report, as when it was looked up first.
            if let pk = primaryKey, !pk.value.isNull, try findFirst(plan, pk.property, pk.value) != nil {
                throw duplicateKey(plan, pk.property, pk.value)
            }
            throw error
        }
        let explicitKey = try explicitObjectKey(plan)
        let stmt = try plan.preparedInsert(withKey: explicitKey != nil, connection)
        if let explicitKey { stmt.bind(Int32(resolved.count + 1), int: explicitKey) }
        plan.columnTypes.withUnsafeBufferPointer { types in
            resolved.withUnsafeBufferPointer { values in
                for index in values.indices {
                    StorageCodec.bind(values[index], type: types[index], to: stmt, at: Int32(index + 1))
                }
            }
        }
        return try runInsert(stmt, plan, primaryKey: primaryKey)
    }

    /// ``createRow(_:_:)`` for a class without link columns (checking a value then creates no
    /// object): each value checked and bound in one pass, without an array of resolved values.
    private func insertPlainRow(
        _ plan: ClassPlan, _ columns: [Value?], keyIndex: Int, keyValue: Value,
        primaryKey: (index: Int, property: Property, value: Value)?
    ) throws -> ObjectKey {
        let explicitKey = try explicitObjectKey(plan)
        let stmt = try plan.preparedInsert(withKey: explicitKey != nil, connection)
        let scratch = plan.parameterScratch
        do {
            try plan.columns.withUnsafeBufferPointer { buffer in
                // Through the base pointer: its subscript lends the element, the buffer's copies it.
                guard let properties = buffer.baseAddress else { return }
                try plan.columnTypes.withUnsafeBufferPointer { types in
                    for index in buffer.indices {
                        let at = Int32(index + 1)
                        if index == keyIndex {
                            if !scratch.bind(keyValue, type: types[index], to: stmt, at: at) {
                                StorageCodec.bind(keyValue, type: types[index], to: stmt, at: at)
                            }
                        } else if let value = columns[index], Database.isPlainScalar(value, types[index]) {
                            if !scratch.bind(value, type: types[index], to: stmt, at: at) {
                                StorageCodec.bind(value, type: types[index], to: stmt, at: at)
                            }
                        } else {
                            let given = columns[index] ?? Database.defaultValue(for: properties[index])
                            let checked = try resolve(given, for: properties[index], in: plan, policy: .error)
                            StorageCodec.bind(checked, type: types[index], to: stmt, at: at)
                        }
                    }
                }
            }
        } catch {
            // A duplicate key is the error to report, as when it was looked up first.
            if let pk = primaryKey, !pk.value.isNull, try findFirst(plan, pk.property, pk.value) != nil {
                throw duplicateKey(plan, pk.property, pk.value)
            }
            throw error
        }
        if let explicitKey { stmt.bind(Int32(plan.columns.count + 1), int: explicitKey) }
        return try runInsert(stmt, plan, primaryKey: primaryKey)
    }

    /// Runs a prepared insert of `plan` whose parameters are all bound, and returns the new key;
    /// a constraint failure on a primary key that is taken is reported as that duplicate.
    private func runInsert(
        _ stmt: SQLiteStatement, _ plan: ClassPlan, primaryKey: (index: Int, property: Property, value: Value)?
    ) throws -> ObjectKey {
        connection.steps &+= 1
        let rc = sqlite3_step(stmt.handle)
        // Every parameter is bound again before the next run: no need to clear them.
        sqlite3_reset(stmt.handle)
        if rc != SQLITE_DONE {
            if rc & 0xFF == SQLITE_CONSTRAINT, let pk = primaryKey, try findFirst(plan, pk.property, pk.value) != nil {
                throw duplicateKey(plan, pk.property, pk.value)
            }
            throw connection.error(rc, "inserting into \(plan.schema.name)")
        }
        let key = connection.lastInsertRowID
        noteObjectInserted(plan, key)
        return ObjectKey(key)
    }

    /// Whether `value` is a non-null value that ``resolve(_:for:in:policy:)`` stores as it is in
    /// a column of `type` (a scalar of that type, a string within the size limit).
    static func isPlainScalar(_ value: Value, _ type: PropertyType) -> Bool {
        switch (type, value) {
        case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.date, .date),
            (.decimal128, .decimal128), (.objectId, .objectId), (.uuid, .uuid):
            return true
        case (.string, .string(let s)):
            return s.utf8.count <= Database.maxBinarySize
        default:
            return false
        }
    }

    private func duplicateKey(_ plan: ClassPlan, _ pk: Property, _ value: Value) -> PorterError {
        PorterError(
            .duplicatePrimaryKey, "duplicate primary key value \(describe(value)): an object with it already exists",
            location: plan.path(pk))
    }

    /// Insert, or update an object with the same primary key under `policy`.
    func insertOrUpdate(_ plan: ClassPlan, _ values: [String: Value], policy: UpdatePolicy) throws -> ObjectKey {
        try checkKeys(plan, values)
        guard let pk = plan.primaryKey else { return try insert(plan, values, policy: policy) }
        var values = values
        let pkValue = try primaryKeyValue(plan, pk, values[pk.name])
        values[pk.name] = pkValue
        if let existing = try findFirst(plan, pk, pkValue) {
            guard policy != .error else {
                throw PorterError(
                    .duplicatePrimaryKey,
                    "duplicate primary key value \(describe(pkValue)): an object with it already exists",
                    location: plan.path(pk))
            }
            try updateValues(plan, existing, values, policy: policy)
            return existing
        }
        return try insert(plan, values, policy: policy)
    }

    /// The primary key of a new object: the given value, the declared default, or a fresh
    /// ObjectId/UUID (as Realm's Swift models generate); int and string keys must be given.
    private func primaryKeyValue(_ plan: ClassPlan, _ pk: Property, _ given: Value?) throws -> Value {
        if let given { return try resolve(given, for: pk, in: plan, policy: .error) }
        if let declared = pk.defaultValue { return declared }
        if pk.isOptional { return .null }
        switch pk.type {
        case .objectId: return .objectId(.generate())
        case .uuid: return .uuid(UUID())
        default:
            throw PorterError(.constraintViolation, "missing value for primary key", location: plan.path(pk))
        }
    }

    /// Inserts a new row and its collections; returns the new key.
    func insert(_ plan: ClassPlan, _ values: [String: Value], policy: UpdatePolicy) throws -> ObjectKey {
        var resolved: [Value] = []
        resolved.reserveCapacity(plan.columns.count)
        for property in plan.columns {
            resolved.append(
                try resolve(
                    values[property.name] ?? Database.defaultValue(for: property), for: property, in: plan,
                    policy: policy))
        }
        let explicitKey = try explicitObjectKey(plan)
        let stmt = try connection.cached(explicitKey == nil ? plan.insertSQL : plan.insertWithKeySQL)
        for (i, property) in plan.columns.enumerated() {
            StorageCodec.bind(resolved[i], type: property.type, to: stmt, at: Int32(i + 1))
        }
        if let explicitKey { stmt.bind(Int32(plan.columns.count + 1), int: explicitKey) }
        try stmt.run()
        noteObjectInserted(plan, connection.lastInsertRowID)
        let key = ObjectKey(connection.lastInsertRowID)
        for property in plan.collections {
            try writeCollection(
                plan, key, property, values[property.name] ?? Database.defaultValue(for: property), policy: policy)
        }
        return key
    }

    /// Writes all elements of a list, set or map for a new owner (or after its old ones were cleared).
    func writeCollection(
        _ plan: ClassPlan, _ owner: ObjectKey, _ property: Property, _ value: Value, policy: UpdatePolicy
    ) throws {
        let table = plan.collectionTable(property)
        switch (property.collection, value) {
        case (.list, .list(let elements)), (.list, .set(let elements)):
            let stmt = try connection.cached("INSERT INTO \(table) (_owner, _pos, value) VALUES (?, ?, ?)")
            for (pos, element) in elements.enumerated() {
                let v = try resolve(element, for: property, in: plan, policy: policy)
                stmt.bind(1, int: owner.rawValue)
                stmt.bind(2, int: Int64(pos))
                StorageCodec.bind(v, type: property.type, to: stmt, at: 3)
                try stmt.run()
            }
        case (.set, .set(let elements)), (.set, .list(let elements)):
            var seen = Set<Value>()
            let stmt = try connection.cached("INSERT INTO \(table) (_owner, value) VALUES (?, ?)")
            for element in elements {
                let v = try resolve(element, for: property, in: plan, policy: policy)
                guard seen.insert(v).inserted else {
                    throw PorterError(
                        .constraintViolation, "duplicate set element \(describe(element))",
                        location: plan.path(property))
                }
                stmt.bind(1, int: owner.rawValue)
                StorageCodec.bind(v, type: property.type, to: stmt, at: 2)
                try stmt.run()
            }
        case (.map, .map(let entries)):
            let stmt = try connection.cached("INSERT INTO \(table) (_owner, _key, value) VALUES (?, ?, ?)")
            for key in entries.keys.sorted() {
                try checkMapKey(key, plan, property)
                let v = try resolve(entries[key]!, for: property, in: plan, policy: policy)
                stmt.bind(1, int: owner.rawValue)
                stmt.bind(2, text: key)
                StorageCodec.bind(v, type: property.type, to: stmt, at: 3)
                try stmt.run()
            }
        default:
            throw PorterError(
                .invalidValue, "expected a \(property.collection.rawValue) but got \(describeWithKind(value))",
                location: plan.path(property))
        }
    }

    /// A short rendering of a value for messages (``Value/messageText``).
    func describe(_ value: Value) -> String { value.messageText }

    /// The kind of a value followed by the value where it is short (`string 'old'`, `int 7`,
    /// `bool true`, `link to Dog(3)`), or the kind alone (`list`, `data`), for type-mismatch messages.
    func describeWithKind(_ value: Value) -> String {
        if case .link(let link) = value { return "link to \(link)" }
        let shown = describe(value)
        return shown == value.kindName ? shown : "\(value.kindName) \(shown)"
    }
}
