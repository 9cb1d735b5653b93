import PorterCSQLite
import Foundation
import PorterModel

/// Reads one class's rows for ``ExportCursor``: the column list (with one `LEFT JOIN` per to-one
/// link to a class with a primary key) and one prepared statement per collection property.
final class ExportRowReader {
    /// How to read a link's exported key: the target class, and for a target with a primary key,
    /// the joined `_key` column follows the link column and the primary-key column follows that.
    /// A class, so reading a row does not copy (and retain) its strings.
    final class LinkTarget {
        let className: String
        let embedded: Bool
        let primaryKey: Property?
        /// The primary key's type (read for every link).
        let primaryKeyType: PropertyType?

        init(className: String, embedded: Bool, primaryKey: Property?) {
            self.className = className
            self.embedded = embedded
            self.primaryKey = primaryKey
            primaryKeyType = primaryKey?.type
        }
    }

    /// Trivially copyable on purpose: iterating the slots of every row must not retain strings.
    private enum Slot {
        case column(Int32, PropertyType)
        case link(Int32, Int)  // column, index into `targets`
        case collection(Int)  // index into `collections`
    }

    private final class Collection {
        let statement: SQLiteStatement
        let kind: CollectionKind
        let elementType: PropertyType
        let target: LinkTarget?

        init(statement: SQLiteStatement, property: Property, target: LinkTarget?) {
            self.statement = statement
            kind = property.collection
            elementType = property.type
            self.target = target
        }
    }

    let plan: ClassPlan
    let database: Database
    /// `SELECT t._key, … FROM table AS t LEFT JOIN …` (callers add `WHERE`/`ORDER BY`).
    let selectSQL: String
    private let slots: [Slot]
    private let targets: [LinkTarget]
    private let collections: [Collection]

    init(database: Database, plan: ClassPlan) throws {
        self.database = database
        self.plan = plan
        var columns = ["t._key"]
        var joins: [String] = []
        var slots: [Slot] = []
        var targets: [LinkTarget] = []
        var collections: [Collection] = []
        var pending: [(Property, LinkTarget?)] = []
        for property in plan.persisted {
            let target = try ExportRowReader.linkTarget(database, property)
            if property.isCollection {
                pending.append((property, target))
                continue
            }
            let column = "t." + quoteIdentifier(property.name)
            let index = Int32(columns.count)
            columns.append(column)
            if let target {
                if let pk = target.primaryKey {
                    let alias = "j\(joins.count)"
                    joins.append(
                        "LEFT JOIN \(quoteIdentifier(StorageLayout.table(target.className))) AS \(alias) ON \(alias)._key = \(column)"
                    )
                    columns.append("\(alias)._key")
                    columns.append("\(alias).\(quoteIdentifier(pk.name))")
                }
                targets.append(target)
                slots.append(.link(index, targets.count - 1))
            } else {
                slots.append(.column(index, property.type))
            }
        }
        selectSQL =
            "SELECT \(columns.joined(separator: ", ")) FROM \(plan.table) AS t"
            + (joins.isEmpty ? "" : " " + joins.joined(separator: " "))
        // Collections are read by their own statements; their slots keep schema order.
        var ordered: [Slot] = []
        var scalarSlots = slots[...]
        for property in plan.persisted {
            if property.isCollection, let entry = pending.first(where: { $0.0.name == property.name }) {
                collections.append(
                    Collection(
                        statement: try ExportRowReader.collectionStatement(database, plan, entry.0, entry.1),
                        property: entry.0, target: entry.1))
                ordered.append(.collection(collections.count - 1))
            } else if let slot = scalarSlots.popFirst() {
                ordered.append(slot)
            }
        }
        self.slots = ordered
        self.targets = targets
        self.collections = collections
    }

    /// The link target of a link property (or link collection), nil for other properties.
    private static func linkTarget(_ database: Database, _ property: Property) throws -> LinkTarget? {
        guard property.type == .object, let name = property.objectType else { return nil }
        let target = try database.plan(for: name)
        return LinkTarget(
            className: name, embedded: target.schema.isEmbedded,
            primaryKey: target.schema.isEmbedded ? nil : target.primaryKey)
    }

    /// `SELECT [c._key,] c.value [, j._key, j.pk] FROM coll AS c [LEFT JOIN …] WHERE c._owner = ? ORDER BY …`.
    private static func collectionStatement(
        _ database: Database, _ plan: ClassPlan, _ property: Property, _ target: LinkTarget?
    ) throws -> SQLiteStatement {
        var columns = property.collection == .map ? ["c._key", "c.value"] : ["c.value"]
        var join = ""
        if let target, let pk = target.primaryKey {
            join = " LEFT JOIN \(quoteIdentifier(StorageLayout.table(target.className))) AS j ON j._key = c.value"
            columns += ["j._key", "j.\(quoteIdentifier(pk.name))"]
        }
        let order: String
        switch property.collection {
        case .list: order = "c._pos"
        case .map: order = "c._key"
        default: order = "c.value"
        }
        return try database.connection.prepare(
            "SELECT \(columns.joined(separator: ", ")) FROM \(plan.collectionTable(property)) AS c\(join) WHERE c._owner = ? ORDER BY \(order)"
        )
    }

    /// The values of the statement's current row (collections read for `key`).
    func read(_ statement: SQLiteStatement, _ key: ObjectKey) throws -> [Value] {
        var values: [Value] = []
        try read(statement, key, into: &values)
        return values
    }

    /// Replaces `values` with those of the statement's current row, reusing the array's storage.
    func read(_ statement: SQLiteStatement, _ key: ObjectKey, into values: inout [Value]) throws {
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(slots.count)
        for slot in slots {
            switch slot {
            case .column(let index, let type):
                values.append(try ExportRowReader.read(statement, index, type))
            case .link(let index, let target):
                values.append(try linkValue(statement, index, targets[target]))
            case .collection(let index):
                values.append(try readCollection(collections[index], key))
            }
        }
    }

    private func readCollection(_ collection: Collection, _ owner: ObjectKey) throws -> Value {
        let statement = collection.statement
        statement.bind(1, int: owner.rawValue)
        defer { sqlite3_reset(statement.handle) }
        let valueColumn: Int32 = collection.kind == .map ? 1 : 0
        let type = collection.elementType
        func element() throws -> Value {
            if let target = collection.target { return try linkValue(statement, valueColumn, target) }
            return try ExportRowReader.read(statement, valueColumn, type)
        }
        if collection.kind == .map {
            var map: [String: Value] = [:]
            while try statement.step() { map[statement.text(0)] = try element() }
            return .map(map)
        }
        var elements: [Value] = []
        while try statement.step() { elements.append(try element()) }
        return collection.kind == .list ? .list(elements) : .set(elements)
    }

    /// A column value.
    static func read(_ statement: SQLiteStatement, _ index: Int32, _ type: PropertyType) throws -> Value {
        try StorageCodec.read(statement, index, type: type, objectType: nil)
    }

    /// A link's exported value: null, an embedded object's link, a key, or the target's primary key.
    private func linkValue(_ statement: SQLiteStatement, _ index: Int32, _ target: LinkTarget) throws -> Value {
        if statement.type(index) == SQLITE_NULL { return .null }
        let key = statement.int64(index)
        if target.embedded { return .link(ObjectLink(target.className, ObjectKey(key))) }
        guard let pkType = target.primaryKeyType else { return .int(key) }
        if statement.type(index + 1) == SQLITE_NULL {
            throw PorterError(
                .notADatabase, "a stored link points to \(target.className)(\(key)), which does not exist",
                location: database.path)
        }
        return try ExportRowReader.read(statement, index + 2, pkType)
    }
}
