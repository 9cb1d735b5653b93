import PorterCSQLite
import Foundation
import PorterModel

/// Row-level helpers behind the element operations of `Database+Collections.swift`.
///
/// List rows are `(_owner, _pos, value)` with `(_owner, _pos)` as the primary key. Positions are
/// only required to be increasing (the i-th element is the i-th row by `_pos`), so the helpers
/// locate elements by rank and renumber with a two-step negation that never collides with the
/// primary key while rows move.
extension Database {
    /// The plan and property of a collection property of an existing object.
    /// - Throws: ``PorterError/Code/notFound`` for an unknown class, property or object;
    ///   ``PorterError/Code/usage`` when the property is not a collection of the expected kind.
    func collectionProperty(
        _ className: String, _ key: ObjectKey, _ property: String,
        kind: CollectionKind?
    ) throws -> (ClassPlan, Property) {
        let plan = try plan(for: className)
        guard let prop = plan.schema.property(named: property), !prop.isComputed else {
            throw PorterError(
                .notFound, "unknown property (class '\(className)' has no property '\(property)')",
                location: "\(className).\(property)")
        }
        let expected = kind.map { [$0] } ?? [.list, .set, .map]
        guard expected.contains(prop.collection) else {
            let wanted = kind.map { "a \($0.rawValue)" } ?? "a list, set or map"
            throw PorterError(
                .usage, "property of type '\(prop.typeShorthand)' is not \(wanted)", location: plan.path(prop))
        }
        guard try exists(plan, key) else {
            throw PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
        }
        return (plan, prop)
    }

    /// Number of rows one owner has in a collection table.
    func ownerCount(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey) throws -> Int {
        let stmt = try connection.cached("SELECT count(*) FROM \(plan.collectionTable(prop)) WHERE _owner = ?")
        stmt.bind(1, int: owner.rawValue)
        defer { stmt.reset() }
        return try stmt.step() ? Int(stmt.int64(0)) : 0
    }

    /// The `_pos` of the element at `index`.
    func listPosition(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ index: Int) throws -> Int64 {
        if index >= 0 {
            let stmt = try connection.cached(
                "SELECT _pos FROM \(plan.collectionTable(prop)) WHERE _owner = ? ORDER BY _pos LIMIT 1 OFFSET ?")
            stmt.bind(1, int: owner.rawValue)
            stmt.bind(2, int: Int64(index))
            defer { stmt.reset() }
            if try stmt.step() { return stmt.int64(0) }
        }
        throw indexError(index, count: try ownerCount(plan, prop, owner), plan, prop)
    }

    /// The `_pos` a new element at `index` gets, after moving the rows from there up by one.
    func insertionPosition(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ index: Int) throws -> Int64 {
        let count = try ownerCount(plan, prop, owner)
        guard index >= 0, index <= count else { throw indexError(index, count: count, plan, prop) }
        if index < count {
            let pos = try listPosition(plan, prop, owner, index)
            try shiftPositions(plan, prop, owner, from: pos, up: true)
            return pos
        }
        let stmt = try connection.cached("SELECT max(_pos) FROM \(plan.collectionTable(prop)) WHERE _owner = ?")
        stmt.bind(1, int: owner.rawValue)
        defer { stmt.reset() }
        guard try stmt.step(), stmt.type(0) != SQLITE_NULL else { return 0 }
        return stmt.int64(0) + 1
    }

    /// Moves rows at `pos` and after up by one (`up`), or rows after `pos` down by one.
    private func shiftPositions(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, from pos: Int64, up: Bool)
        throws
    {
        let table = plan.collectionTable(prop)
        // First to distinct negative numbers, then back: no step ever repeats a (_owner, _pos) pair.
        let first = try connection.cached(
            up
                ? "UPDATE \(table) SET _pos = -_pos - 2 WHERE _owner = ? AND _pos >= ?"
                : "UPDATE \(table) SET _pos = -_pos WHERE _owner = ? AND _pos > ?")
        first.bind(1, int: owner.rawValue)
        first.bind(2, int: pos)
        try first.run()
        let second = try connection.cached("UPDATE \(table) SET _pos = -_pos - 1 WHERE _owner = ? AND _pos < 0")
        second.bind(1, int: owner.rawValue)
        try second.run()
    }

    /// The stored value of the list row at `pos`.
    func listValue(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ pos: Int64) throws -> Value {
        let stmt = try connection.cached(
            "SELECT value FROM \(plan.collectionTable(prop)) WHERE _owner = ? AND _pos = ?")
        stmt.bind(1, int: owner.rawValue)
        stmt.bind(2, int: pos)
        defer { stmt.reset() }
        guard try stmt.step() else { return .null }
        return try StorageCodec.read(stmt, 0, type: prop.type, objectType: prop.objectType)
    }

    /// Inserts a list row holding an already resolved value.
    func insertListRow(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ pos: Int64, _ value: Value) throws {
        let stmt = try connection.cached(
            "INSERT INTO \(plan.collectionTable(prop)) (_owner, _pos, value) VALUES (?, ?, ?)")
        stmt.bind(1, int: owner.rawValue)
        stmt.bind(2, int: pos)
        StorageCodec.bind(value, type: prop.type, to: stmt, at: 3)
        try stmt.run()
    }

    /// Deletes the list row at `pos` and closes the gap.
    func deleteListRow(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ pos: Int64) throws {
        let stmt = try connection.cached("DELETE FROM \(plan.collectionTable(prop)) WHERE _owner = ? AND _pos = ?")
        stmt.bind(1, int: owner.rawValue)
        stmt.bind(2, int: pos)
        try stmt.run()
        try shiftPositions(plan, prop, owner, from: pos, up: false)
    }

    /// The rowid of the set element equal to `value` (compared as ``Value``s, so an int 1 and a
    /// double 1.0 in a `mixed` set stay distinct although SQLite's `=` would match them).
    func setRowID(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ value: Value) throws -> Int64? {
        let stmt = try connection.cached(
            "SELECT rowid, value FROM \(plan.collectionTable(prop)) WHERE _owner = ? AND value IS ?")
        stmt.bind(1, int: owner.rawValue)
        StorageCodec.bind(value, type: prop.type, to: stmt, at: 2)
        defer { stmt.reset() }
        while try stmt.step() {
            if try StorageCodec.read(stmt, 1, type: prop.type, objectType: prop.objectType) == value {
                return stmt.int64(0)
            }
        }
        return nil
    }

    /// The value under `mapKey`, or nil when absent.
    func storedMapValue(_ plan: ClassPlan, _ prop: Property, _ owner: ObjectKey, _ mapKey: String) throws -> Value? {
        let stmt = try connection.cached(
            "SELECT value FROM \(plan.collectionTable(prop)) WHERE _owner = ? AND _key = ?")
        stmt.bind(1, int: owner.rawValue)
        stmt.bind(2, text: mapKey)
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        return try StorageCodec.read(stmt, 0, type: prop.type, objectType: prop.objectType)
    }

    /// Deletes `value`'s object when it is an embedded object held by `prop` (it has no other owner).
    func deleteIfEmbedded(_ value: Value, _ prop: Property) throws {
        guard prop.type == .object, case .link(let link) = value, schema[link.className]?.isEmbedded == true else {
            return
        }
        try deleteObjects([link])
    }

    /// The error for an index outside `0..<count`.
    func indexError(_ index: Int, count: Int, _ plan: ClassPlan, _ prop: Property) -> PorterError {
        PorterError(
            .usage, "index \(index) is out of range (the list has \(count) element\(count == 1 ? "" : "s"))",
            location: plan.path(prop))
    }
}
