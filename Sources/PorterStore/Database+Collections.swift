import Foundation
import PorterModel

/// Element-level operations on list, set and map properties: what the typed layer's live `List`,
/// `MutableSet` and `Map` need so that `append`, `remove(at:)` or `map["k"] = v` touch only the
/// elements they name instead of rewriting the whole collection.
///
/// Realm's semantics hold: an embedded object that leaves a list or map (removed or replaced) is
/// deleted; set elements stay unique; map keys follow the same rules as ``create(_:_:update:)``.
/// Every write runs in a savepoint, so a failing call changes nothing.
extension Database {
    /// Number of elements in a list, set or map property of one object.
    public func collectionCount(_ className: String, _ key: ObjectKey, _ property: String) throws -> Int {
        let (plan, prop) = try collectionProperty(className, key, property, kind: nil)
        return try ownerCount(plan, prop, key)
    }

    // MARK: - Lists

    /// The element at `index` of a list property (links as `.link`).
    /// - Throws: ``PorterError/Code/usage`` when the index is out of range.
    public func listElement(_ className: String, _ key: ObjectKey, _ property: String, at index: Int) throws -> Value {
        let (plan, prop) = try collectionProperty(className, key, property, kind: .list)
        let pos = try listPosition(plan, prop, key, index)
        return try listValue(plan, prop, key, pos)
    }

    /// Inserts `value` so that it ends up at `index` (`index == count` appends). A nested
    /// `.object` creates an embedded object. Returns the stored element (`.link` for objects).
    @discardableResult
    public func listInsert(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value, at index: Int)
        throws -> Value
    {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .list)
        return try atomically {
            let pos = try insertionPosition(plan, prop, key, index)
            let resolved = try resolve(value, for: prop, in: plan, policy: .all)
            try insertListRow(plan, prop, key, pos, resolved)
            return resolved
        }
    }

    /// Appends `value` to a list property; returns the stored element.
    @discardableResult
    public func listAppend(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Value {
        try listInsert(className, key, property, value, at: try collectionCount(className, key, property))
    }

    /// Replaces the element at `index`; a replaced embedded object is deleted. Returns the stored element.
    @discardableResult
    public func listSet(_ className: String, _ key: ObjectKey, _ property: String, at index: Int, _ value: Value) throws
        -> Value
    {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .list)
        return try atomically {
            let pos = try listPosition(plan, prop, key, index)
            let old = try listValue(plan, prop, key, pos)
            let resolved = try resolve(value, for: prop, in: plan, policy: .all)
            let stmt = try connection.cached(
                "UPDATE \(plan.collectionTable(prop)) SET value = ? WHERE _owner = ? AND _pos = ?")
            StorageCodec.bind(resolved, type: prop.type, to: stmt, at: 1)
            stmt.bind(2, int: key.rawValue)
            stmt.bind(3, int: pos)
            try stmt.run()
            if old != resolved { try deleteIfEmbedded(old, prop) }
            return resolved
        }
    }

    /// Removes the element at `index`; an embedded element is deleted.
    public func listRemove(_ className: String, _ key: ObjectKey, _ property: String, at index: Int) throws {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .list)
        try atomically {
            let pos = try listPosition(plan, prop, key, index)
            let old = try listValue(plan, prop, key, pos)
            try deleteListRow(plan, prop, key, pos)
            try deleteIfEmbedded(old, prop)
        }
    }

    /// Moves the element at `from` so that it ends up at index `to` (an embedded element is kept).
    public func listMove(_ className: String, _ key: ObjectKey, _ property: String, from: Int, to: Int) throws {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .list)
        try atomically {
            let count = try ownerCount(plan, prop, key)
            guard to >= 0, to < count else { throw indexError(to, count: count, plan, prop) }
            let pos = try listPosition(plan, prop, key, from)
            guard from != to else { return }
            let element = try listValue(plan, prop, key, pos)
            try deleteListRow(plan, prop, key, pos)
            try insertListRow(plan, prop, key, try insertionPosition(plan, prop, key, to), element)
        }
    }

    // MARK: - Sets

    /// Adds `value` to a set property unless an equal element is there; returns whether it was added.
    @discardableResult
    public func setInsert(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Bool {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .set)
        return try atomically {
            let resolved = try resolve(value, for: prop, in: plan, policy: .all)
            if try setRowID(plan, prop, key, resolved) != nil { return false }
            let stmt = try connection.cached("INSERT INTO \(plan.collectionTable(prop)) (_owner, value) VALUES (?, ?)")
            stmt.bind(1, int: key.rawValue)
            StorageCodec.bind(resolved, type: prop.type, to: stmt, at: 2)
            try stmt.run()
            return true
        }
    }

    /// Removes the element equal to `value` from a set property; returns whether one was there.
    @discardableResult
    public func setRemove(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Bool {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .set)
        return try atomically {
            guard let rowID = try setRowID(plan, prop, key, value) else { return false }
            let stmt = try connection.cached("DELETE FROM \(plan.collectionTable(prop)) WHERE rowid = ?")
            stmt.bind(1, int: rowID)
            try stmt.run()
            return true
        }
    }

    /// Whether a set property holds an element equal to `value`.
    public func setContains(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Bool {
        let (plan, prop) = try collectionProperty(className, key, property, kind: .set)
        return try setRowID(plan, prop, key, value) != nil
    }

    // MARK: - Maps

    /// The value stored under `mapKey`, or nil when the key is absent (`.null` when it holds null).
    public func mapValue(_ className: String, _ key: ObjectKey, _ property: String, forKey mapKey: String) throws
        -> Value?
    {
        let (plan, prop) = try collectionProperty(className, key, property, kind: .map)
        return try storedMapValue(plan, prop, key, mapKey)
    }

    /// The keys of a map property, sorted.
    public func mapKeys(_ className: String, _ key: ObjectKey, _ property: String) throws -> [String] {
        let (plan, prop) = try collectionProperty(className, key, property, kind: .map)
        let stmt = try connection.cached(
            "SELECT _key FROM \(plan.collectionTable(prop)) WHERE _owner = ? ORDER BY _key")
        stmt.bind(1, int: key.rawValue)
        defer { stmt.reset() }
        var keys: [String] = []
        while try stmt.step() { keys.append(stmt.text(0)) }
        return keys
    }

    /// Stores `value` under `mapKey` (replacing an old value; a replaced embedded object is deleted).
    /// Returns the stored value.
    @discardableResult
    public func mapSet(_ className: String, _ key: ObjectKey, _ property: String, forKey mapKey: String, _ value: Value)
        throws -> Value
    {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .map)
        try checkMapKey(mapKey, plan, prop)
        return try atomically {
            let old = try storedMapValue(plan, prop, key, mapKey)
            let resolved = try resolve(value, for: prop, in: plan, policy: .all)
            let stmt = try connection.cached(
                "INSERT OR REPLACE INTO \(plan.collectionTable(prop)) (_owner, _key, value) VALUES (?, ?, ?)")
            stmt.bind(1, int: key.rawValue)
            stmt.bind(2, text: mapKey)
            StorageCodec.bind(resolved, type: prop.type, to: stmt, at: 3)
            try stmt.run()
            if let old, old != resolved { try deleteIfEmbedded(old, prop) }
            return resolved
        }
    }

    /// Removes `mapKey` from a map property (an embedded value is deleted); returns whether it was there.
    @discardableResult
    public func mapRemove(_ className: String, _ key: ObjectKey, _ property: String, forKey mapKey: String) throws
        -> Bool
    {
        try requireWrite()
        let (plan, prop) = try collectionProperty(className, key, property, kind: .map)
        return try atomically {
            guard let old = try storedMapValue(plan, prop, key, mapKey) else { return false }
            let stmt = try connection.cached("DELETE FROM \(plan.collectionTable(prop)) WHERE _owner = ? AND _key = ?")
            stmt.bind(1, int: key.rawValue)
            stmt.bind(2, text: mapKey)
            try stmt.run()
            try deleteIfEmbedded(old, prop)
            return true
        }
    }
}
