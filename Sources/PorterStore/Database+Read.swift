import PorterCSQLite
import Foundation
import PorterModel

extension Database {
    /// Number of objects of a class.
    public func count(_ className: String) throws -> Int {
        let plan = try plan(for: className)
        guard case .integer(let n)? = try connection.scalar("SELECT count(*) FROM \(plan.table)") else { return 0 }
        return Int(n)
    }

    /// Whether an object with this key exists in the class.
    public func exists(_ className: String, _ key: ObjectKey) throws -> Bool {
        try exists(try plan(for: className), key)
    }

    /// A snapshot of one object (links and embedded objects as `.link`), or nil when absent.
    public func object(_ className: String, _ key: ObjectKey) throws -> DynamicObject? {
        let plan = try plan(for: className)
        let stmt = try connection.cached(plan.selectByKeySQL)
        stmt.bind(1, int: key.rawValue)
        guard try stmt.step() else { stmt.reset(); return nil }
        let columns = try readColumns(plan, stmt)
        stmt.reset()
        return try assemble(plan, key, columns)
    }

    /// One stored property of one object; for a `linkingObjects` property, the list of origins.
    public func value(_ className: String, _ key: ObjectKey, _ property: String) throws -> Value {
        let plan = try plan(for: className)
        guard let prop = plan.schema.property(named: property) else {
            throw PorterError(
                .notFound, "unknown property (class '\(className)' has no property '\(property)')",
                location: "\(className).\(property)")
        }
        if !prop.isComputed, let column = plan.columnIndex[prop.name] {
            // One query reads the value and tells whether the object exists.
            let stmt = try connection.cached(plan.selectColumnSQL[column])
            stmt.bind(1, int: key.rawValue)
            defer { stmt.reset() }
            guard try stmt.step() else {
                throw PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
            }
            return try StorageCodec.read(stmt, 0, type: prop.type, objectType: prop.objectType)
        }
        guard try exists(plan, key) else {
            throw PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
        }
        if prop.isComputed {
            return .list(try linkingObjects(className, key, property).map(Value.link))
        }
        return try readProperty(plan, key, prop)
    }

    /// The key of the object whose primary key equals `primaryKey`, if any.
    public func key(_ className: String, primaryKey: Value) throws -> ObjectKey? {
        let plan = try plan(for: className)
        guard let pk = plan.primaryKey else {
            throw PorterError(.usage, "class '\(className)' has no primary key", location: className)
        }
        return try findFirst(plan, pk, primaryKey)
    }

    /// The primary-key value of an object (nil when the class has none or the object is gone).
    public func primaryKeyValue(_ className: String, _ key: ObjectKey) throws -> Value? {
        let plan = try plan(for: className)
        guard let pk = plan.primaryKey else { return nil }
        let stmt = try connection.cached("SELECT \(quoteIdentifier(pk.name)) FROM \(plan.table) WHERE _key = ?")
        stmt.bind(1, int: key.rawValue)
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        return try StorageCodec.read(stmt, 0, type: pk.type, objectType: nil)
    }

    /// Keys of the objects whose (non-collection) `property` equals `value`, in key order.
    /// Uses the property's index when it has one.
    public func keys(_ className: String, where property: String, equals value: Value) throws -> [ObjectKey] {
        let plan = try plan(for: className)
        guard let prop = plan.persisted.first(where: { $0.name == property }), !prop.isCollection else {
            throw PorterError(
                .notFound, "no stored single-value property '\(property)' to compare",
                location: "\(className).\(property)")
        }
        let column = quoteIdentifier(prop.name)
        let stmt = try connection.cached(
            value.isNull
                ? "SELECT _key FROM \(plan.table) WHERE \(column) IS NULL ORDER BY _key"
                : "SELECT _key FROM \(plan.table) WHERE \(column) = ? ORDER BY _key")
        if !value.isNull { StorageCodec.bind(value, type: prop.type, to: stmt, at: 1) }
        defer { stmt.reset() }
        var out: [ObjectKey] = []
        while try stmt.step() { out.append(ObjectKey(stmt.int64(0))) }
        return out
    }

    /// The objects that link to `key` through the origin of the `linkingObjects` property `property`.
    public func linkingObjects(_ className: String, _ key: ObjectKey, _ property: String) throws -> [ObjectLink] {
        let plan = try plan(for: className)
        guard let prop = plan.schema.property(named: property), prop.isComputed,
            let originClass = prop.objectType, let originName = prop.linkOriginProperty
        else {
            throw PorterError(.notFound, "not a linkingObjects property", location: "\(className).\(property)")
        }
        let origin = try self.plan(for: originClass)
        guard let originProp = origin.schema.property(named: originName) else { return [] }
        let sql =
            originProp.isCollection
            ? "SELECT _owner FROM \(origin.collectionTable(originProp)) WHERE value = ? ORDER BY _owner"
            : "SELECT _key FROM \(origin.table) WHERE \(quoteIdentifier(originName)) = ? ORDER BY _key"
        return try queryKeys(sql, key.rawValue).map { ObjectLink(originClass, $0) }
    }

    /// Every (object, property) that holds a link to `target`, through links, collections or mixed values.
    public func incomingLinks(to target: ObjectLink) throws -> [(source: ObjectLink, property: String)] {
        var out: [(ObjectLink, String)] = []
        for ref in try incomingReferences(to: target.className) {
            let column = quoteIdentifier(ref.property.name)
            let stmt = try connection.cached(
                ref.property.isCollection
                    ? "SELECT _owner FROM \(ref.plan.collectionTable(ref.property)) WHERE value = ?"
                    : "SELECT _key FROM \(ref.plan.table) WHERE \(column) = ?")
            StorageCodec.bind(.link(target), type: ref.property.type, to: stmt, at: 1)
            var keys: [Int64] = []
            while try stmt.step() { keys.append(stmt.int64(0)) }
            stmt.reset()
            if ref.property.type == .mixed { keys += try nestedLinkOwners(ref, target) }
            out += keys.map { (ObjectLink(ref.plan.schema.name, ObjectKey($0)), ref.property.name) }
        }
        return out
    }

    /// Owners whose `mixed` property `ref` holds a list or dictionary with a link to `target` inside.
    private func nestedLinkOwners(_ ref: IncomingReference, _ target: ObjectLink) throws -> [Int64] {
        let slot = valueSlot(ref.plan.schema.name, ref.property)
        let column = quoteIdentifier(slot.column)
        let stmt = try connection.cached(
            """
            SELECT \(slot.owner), \(column) FROM \(quoteIdentifier(slot.table))
            WHERE \(column) >= x'0a' AND \(column) < x'0c' AND instr(\(column), ?) > 0 ORDER BY \(slot.owner)
            """)
        stmt.bind(1, .blob(NestedMixedCodec.linkPattern(target)))
        defer { stmt.reset() }
        var owners: [Int64] = []
        while try stmt.step() {
            // The pattern could also occur inside data or a string: decode to be sure.
            let value = try StorageCodec.read(stmt, 1, type: .mixed, objectType: nil)
            if NestedMixedCodec.links(in: value).contains(target), owners.last != stmt.int64(0) {
                owners.append(stmt.int64(0))
            }
        }
        return owners
    }

    /// Calls `body` with every object of a class in key order, streaming: one object in memory at a time.
    public func enumerate(_ className: String, _ body: (DynamicObject) throws -> Void) throws {
        let cursor = try makeCursor(className)
        while let object = try cursor.next() { try body(object) }
    }

    /// A streaming cursor over the objects of a class, in key order.
    public func makeCursor(_ className: String) throws -> ObjectCursor {
        let plan = try plan(for: className)
        return ObjectCursor(database: self, plan: plan, statement: try connection.prepare(plan.selectAllSQL))
    }

    /// An object with embedded objects materialized as nested `.object` values (a detached copy).
    public func snapshot(_ className: String, _ key: ObjectKey) throws -> [String: Value]? {
        guard let object = try object(className, key) else { return nil }
        var out: [String: Value] = [:]
        for (property, value) in zip(object.properties, object.values) {
            out[property.name] = try materializeEmbedded(value, property)
        }
        return out
    }

    private func materializeEmbedded(_ value: Value, _ property: Property) throws -> Value {
        guard property.type == .object, let target = property.objectType, schema[target]?.isEmbedded == true else {
            return value
        }
        switch value {
        case .link(let link): return try snapshot(target, link.key).map(Value.object) ?? .null
        case .list(let a):
            return .list(
                try a.map {
                    try materializeEmbedded($0, Property(name: property.name, type: .object, objectType: target))
                })
        case .map(let m):
            return .map(
                try m.mapValues {
                    try materializeEmbedded($0, Property(name: property.name, type: .object, objectType: target))
                })
        default: return value
        }
    }

    // MARK: - Row decoding

    /// The column values of the current row (after `_key`).
    func readColumns(_ plan: ClassPlan, _ stmt: SQLiteStatement) throws -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(plan.columns.count)
        try readColumns(plan, stmt, into: &values)
        return values
    }

    /// Appends the current row's column values to `values`.
    func readColumns(_ plan: ClassPlan, _ stmt: SQLiteStatement, into values: inout [Value]) throws {
        // By index over the column types: copying each column's `Property` per row cost more
        // than decoding most values. Through a buffer: no retain or bounds check of the array per value.
        try plan.columnTypes.withUnsafeBufferPointer { types in
            for i in 0..<types.count {
                let type = types[i]
                values.append(
                    try StorageCodec.read(
                        stmt, Int32(truncatingIfNeeded: i &+ 1), type: type,
                        objectType: type == .object ? plan.columns[i].objectType : nil))
            }
        }
    }

    /// Builds the snapshot: column values plus collections read from their tables.
    func assemble(_ plan: ClassPlan, _ key: ObjectKey, _ columns: [Value]) throws -> DynamicObject {
        var values: [Value] = []
        values.reserveCapacity(plan.persisted.count)
        var next = 0
        for property in plan.persisted {
            if property.isCollection {
                values.append(try readCollection(plan, key, property))
            } else {
                values.append(columns[next])
                next += 1
            }
        }
        return DynamicObject(className: plan.schema.name, key: key, properties: plan.persisted, values: values)
    }

    /// One stored property of one object.
    func readProperty(_ plan: ClassPlan, _ key: ObjectKey, _ property: Property) throws -> Value {
        if property.isCollection { return try readCollection(plan, key, property) }
        guard let column = plan.columnIndex[property.name] else { return .null }
        let stmt = try connection.cached(plan.selectColumnSQL[column])
        stmt.bind(1, int: key.rawValue)
        defer { stmt.reset() }
        guard try stmt.step() else { return .null }
        return try StorageCodec.read(stmt, 0, type: property.type, objectType: property.objectType)
    }

    /// A list (in order), set (sorted by stored value) or map (sorted by key) of one owner.
    func readCollection(_ plan: ClassPlan, _ owner: ObjectKey, _ property: Property) throws -> Value {
        let table = plan.collectionTable(property)
        switch property.collection {
        case .list, .set:
            let order = property.collection == .list ? "_pos" : "value"
            let stmt = try connection.cached("SELECT value FROM \(table) WHERE _owner = ? ORDER BY \(order)")
            stmt.bind(1, int: owner.rawValue)
            defer { stmt.reset() }
            var out: [Value] = []
            while try stmt.step() {
                out.append(try StorageCodec.read(stmt, 0, type: property.type, objectType: property.objectType))
            }
            return property.collection == .list ? .list(out) : .set(out)
        case .map:
            let stmt = try connection.cached("SELECT _key, value FROM \(table) WHERE _owner = ? ORDER BY _key")
            stmt.bind(1, int: owner.rawValue)
            defer { stmt.reset() }
            var out: [String: Value] = [:]
            while try stmt.step() {
                out[stmt.text(0)] = try StorageCodec.read(stmt, 1, type: property.type, objectType: property.objectType)
            }
            return .map(out)
        case .none:
            return .null
        }
    }

    /// The key of the first object whose `property` equals `value`.
    func findFirst(_ plan: ClassPlan, _ property: Property, _ value: Value) throws -> ObjectKey? {
        if !value.isNull, property.name == plan.primaryKey?.name {
            // The lookup every add makes: its statement is kept with the plan.
            let stmt = try plan.primaryKeyStatement(connection)
            StorageCodec.bind(value, type: property.type, to: stmt, at: 1)
            defer { stmt.reset() }
            return try stmt.step() ? ObjectKey(stmt.int64(0)) : nil
        }
        let column = quoteIdentifier(property.name)
        let stmt = try connection.cached(
            value.isNull
                ? "SELECT _key FROM \(plan.table) WHERE \(column) IS NULL LIMIT 1"
                : "SELECT _key FROM \(plan.table) WHERE \(column) = ? LIMIT 1")
        if !value.isNull { StorageCodec.bind(value, type: property.type, to: stmt, at: 1) }
        defer { stmt.reset() }
        return try stmt.step() ? ObjectKey(stmt.int64(0)) : nil
    }
}

/// Streams the objects of one class in key order; holds one SQLite statement, so memory stays
/// constant however many objects there are.
public final class ObjectCursor {
    let database: Database
    let plan: ClassPlan
    let statement: SQLiteStatement
    /// Set once the statement reported its end: stepping it again would restart from the first row.
    private var finished = false

    init(database: Database, plan: ClassPlan, statement: SQLiteStatement) {
        self.database = database
        self.plan = plan
        self.statement = statement
    }

    /// The next object, or nil at the end (and on every call after that).
    public func next() throws -> DynamicObject? {
        guard !finished else { return nil }
        guard try statement.step() else {
            finished = true
            statement.reset()  // Ends the statement's read transaction.
            return nil
        }
        let key = ObjectKey(statement.int64(0))
        let columns = try database.readColumns(plan, statement)
        return try database.assemble(plan, key, columns)
    }
}
