import Foundation
import PorterModel

extension Database {
    /// Sets one property of an existing object. Replacing an embedded object (or an embedded
    /// collection) deletes the old embedded objects. A primary key cannot change.
    public func set(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws {
        try update(className, key, [property: value], policy: .all)
    }

    /// Updates several properties of an existing object; properties not named keep their values.
    /// `.modified` writes only values that differ from the stored ones. A failing call changes nothing.
    public func update(_ className: String, _ key: ObjectKey, _ values: [String: Value], policy: UpdatePolicy = .all)
        throws
    {
        try requireWrite()
        let plan = try plan(for: className)
        guard try exists(plan, key) else {
            throw PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
        }
        try atomically { try updateValues(plan, key, values, policy: policy) }
    }

    /// Writes the given values into an existing row (in declared order, for determinism).
    func updateValues(_ plan: ClassPlan, _ key: ObjectKey, _ values: [String: Value], policy: UpdatePolicy) throws {
        try checkKeys(plan, values)
        for property in plan.persisted {
            guard let newValue = values[property.name] else { continue }
            if property.name == plan.primaryKey?.name {
                let current = try readProperty(plan, key, property)
                let proposed = try resolve(newValue, for: property, in: plan, policy: .error)
                if current != proposed {
                    throw PorterError(
                        .constraintViolation,
                        "primary key cannot be changed after creation (from \(describe(current)) to \(describe(proposed)))",
                        location: plan.path(property))
                }
                continue
            }
            if policy == .modified, !containsNestedObjects(newValue), try readProperty(plan, key, property) == newValue
            {
                continue
            }
            if property.isCollection {
                let old = try embeddedChildren(plan, key, property)
                try clearCollection(plan, key, property)
                try writeCollection(plan, key, property, newValue, policy: policy)
                try deleteObjects(old)
            } else {
                let old = try embeddedChildren(plan, key, property)
                let resolved = try resolve(newValue, for: property, in: plan, policy: policy)
                let stmt = try connection.cached(
                    "UPDATE \(plan.table) SET \(quoteIdentifier(property.name)) = ? WHERE _key = ?")
                StorageCodec.bind(resolved, type: property.type, to: stmt, at: 1)
                stmt.bind(2, int: key.rawValue)
                try stmt.run()
                try deleteObjects(old.filter { .link($0) != resolved })
            }
        }
    }

    /// Whether a value carries `.object` payloads (which always need writing: they create objects).
    private func containsNestedObjects(_ value: Value) -> Bool {
        switch value {
        case .object: return true
        case .list(let a), .set(let a): return a.contains { containsNestedObjects($0) }
        case .map(let m): return m.values.contains { containsNestedObjects($0) }
        default: return false
        }
    }

    /// Removes every element of one collection of one owner.
    func clearCollection(_ plan: ClassPlan, _ owner: ObjectKey, _ property: Property) throws {
        let stmt = try connection.cached("DELETE FROM \(plan.collectionTable(property)) WHERE _owner = ?")
        stmt.bind(1, int: owner.rawValue)
        try stmt.run()
    }

    /// The embedded objects a property of `owner` holds (empty unless it targets an embedded class).
    func embeddedChildren(_ plan: ClassPlan, _ owner: ObjectKey, _ property: Property) throws -> [ObjectLink] {
        guard property.type == .object, let target = property.objectType, schema[target]?.isEmbedded == true else {
            return []
        }
        let sql =
            property.isCollection
            ? "SELECT value FROM \(plan.collectionTable(property)) WHERE _owner = ? AND value IS NOT NULL"
            : "SELECT \(quoteIdentifier(property.name)) FROM \(plan.table) WHERE _key = ? AND \(quoteIdentifier(property.name)) IS NOT NULL"
        return try queryKeys(sql, owner.rawValue).map { ObjectLink(target, $0) }
    }

    /// Runs a one-parameter query and collects its first column as keys (fully, so callers may
    /// run other statements while processing them).
    func queryKeys(_ sql: String, _ parameter: Int64) throws -> [ObjectKey] {
        let stmt = try connection.cached(sql)
        stmt.bind(1, int: parameter)
        defer { stmt.reset() }
        var keys: [ObjectKey] = []
        while try stmt.step() { keys.append(ObjectKey(stmt.int64(0))) }
        return keys
    }
}
