import Foundation
import PorterModel
import PorterStore

/// What turning a class embedded did.
package struct EmbeddingOutcome: Sendable, Equatable {
    /// Objects without a parent that were deleted.
    package var orphansDeleted = 0
    /// Copies made of objects that had several parents (one per extra parent).
    package var copiesMade = 0
}

/// Turning a top-level class into an embedded one (realm-core's `Table::set_table_type` with
/// realm-swift's automatic backlink handling): orphans are deleted, objects with several parents
/// are copied once per extra parent, and a link from a `mixed` property is always an error.
extension MigrationStorage {
    /// Makes every object of `className` have exactly one parent, counting links from `sources`.
    /// The database's current schema must already be the target (the class embedded), and the
    /// objects are copied deeply (their own embedded objects too).
    /// - Throws: ``PorterError/Code/migrationFailed`` with realm-core's messages for mixed links,
    ///   and for orphans when `deleteOrphans` is false.
    package func makeEmbedded(_ className: String, sources: [LinkSource], deleteOrphans: Bool) throws
        -> EmbeddingOutcome
    {
        var mixed = SampledCount(count: 0)
        for source in sources where source.property.type == .mixed {
            try database.mixedLinks(to: className, from: source, into: &mixed, sampleLimit: 1)
            if let first = mixed.sample.first {
                let property = first.split(separator: ".").last.map(String.init) ?? source.property.name
                throw PorterError(
                    .migrationFailed,
                    "Cannot convert '\(className)' to embedded: there is an incoming link from the Mixed property '\(source.className).\(property)', which does not support linking to embedded objects."
                )
            }
        }
        let linkSources = sources.filter { $0.property.type == .object }
        let terms = try linkSources.compactMap { try database.incomingCountTerm($0) }
        let n = terms.isEmpty ? "0" : terms.joined(separator: " + ")
        let table = quoteIdentifier(StorageLayout.table(className))
        let select = try connection.prepare(
            """
            SELECT k, n FROM (SELECT e._key AS k, \(n) AS n FROM \(table) AS e WHERE e._key > ?) WHERE n <> 1 ORDER BY k LIMIT \(MigrationStorage.batchSize)
            """)
        var outcome = EmbeddingOutcome()
        var last = Int64.min
        while true {
            select.reset()
            select.bind(1, int: last)
            var batch: [(Int64, Int64)] = []
            while try select.step() { batch.append((select.int64(0), select.int64(1))) }
            guard let tail = batch.last else { break }
            last = tail.0
            for (key, count) in batch {
                if count == 0 {
                    guard deleteOrphans else {
                        throw PorterError(
                            .migrationFailed,
                            "Cannot convert '\(className)' to embedded: at least one object has no incoming links and would be deleted."
                        )
                    }
                    try database.deleteObjects([ObjectLink(className, ObjectKey(key))])
                    outcome.orphansDeleted += 1
                } else {
                    outcome.copiesMade += try separateParents(className, key, linkSources)
                }
            }
        }
        return outcome
    }

    /// Gives every parent but the first of object `key` its own deep copy; returns the copies made.
    private func separateParents(_ className: String, _ key: Int64, _ sources: [LinkSource]) throws -> Int {
        var references: [(ValueSlot, [SQLValue])] = []
        for source in sources {
            let slot = slot(source.className, source.property)
            guard try exists(slot, collection: source.property.isCollection, className: source.className) else {
                continue
            }
            let stmt = try connection.prepare(
                "SELECT \(slot.identity.joined(separator: ", ")) FROM \(quoteIdentifier(slot.table)) WHERE \(quoteIdentifier(slot.column)) = ? ORDER BY \(slot.identity.joined(separator: ", "))"
            )
            stmt.bind(1, int: key)
            while try stmt.step() { references.append((slot, (0..<slot.identity.count).map { stmt.value(Int32($0)) })) }
        }
        for (slot, identity) in references.dropFirst() {
            let copy = try deepCopy(className, key)
            let condition = slot.identity.map { "\($0) = ?" }.joined(separator: " AND ")
            let update = try connection.prepare(
                "UPDATE \(quoteIdentifier(slot.table)) SET \(quoteIdentifier(slot.column)) = ? WHERE \(condition)")
            update.bind(1, int: copy)
            for (offset, id) in identity.enumerated() { update.bind(Int32(offset + 2), id) }
            try update.run()
        }
        return max(0, references.count - 1)
    }

    /// Copies one object with its collections and, recursively, the embedded objects it owns;
    /// returns the copy's key.
    func deepCopy(_ className: String, _ key: Int64) throws -> Int64 {
        guard let cls = database.schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the schema")
        }
        let table = quoteIdentifier(StorageLayout.table(className))
        let columns = cls.persistedProperties.filter { !$0.isCollection }.map { quoteIdentifier($0.name) }
        // Under the class's key floor when SQLite's choice could reuse a deleted object's key.
        let newKey = try database.explicitObjectKey(forNew: className)
        let keyColumn = newKey == nil ? "" : ", _key"
        let keyValue = newKey.map { ", \($0)" } ?? ""
        if columns.isEmpty {
            try connection.execute(
                newKey.map { "INSERT INTO \(table) (_key) VALUES (\($0))" } ?? "INSERT INTO \(table) DEFAULT VALUES")
        } else {
            let list = columns.joined(separator: ", ")
            let insert = try connection.prepare(
                "INSERT INTO \(table) (\(list)\(keyColumn)) SELECT \(list)\(keyValue) FROM \(table) WHERE _key = ?")
            insert.bind(1, int: key)
            try insert.run()
        }
        let copy = connection.lastInsertRowID
        try database.noteObjectInserted(className, copy)
        for property in cls.persistedProperties where property.isCollection {
            let collection = quoteIdentifier(StorageLayout.collectionTable(className, property.name))
            let extra = property.collection == .list ? "_pos, " : (property.collection == .map ? "_key, " : "")
            let insert = try connection.prepare(
                "INSERT INTO \(collection) (_owner, \(extra)value) SELECT ?, \(extra)value FROM \(collection) WHERE _owner = ?"
            )
            insert.bind(1, int: copy)
            insert.bind(2, int: key)
            try insert.run()
        }
        for property in cls.persistedProperties where property.type == .object {
            guard let target = property.objectType, database.schema[target]?.isEmbedded == true else { continue }
            let slot = slot(className, property)
            let select = try connection.prepare(
                "SELECT \(slot.identity.joined(separator: ", ")), \(quoteIdentifier(slot.column)) FROM \(quoteIdentifier(slot.table)) WHERE \(slot.owner) = ? AND \(quoteIdentifier(slot.column)) IS NOT NULL"
            )
            select.bind(1, int: copy)
            var children: [([SQLValue], Int64)] = []
            while try select.step() {
                children.append(
                    (
                        (0..<slot.identity.count).map { select.value(Int32($0)) },
                        select.int64(Int32(slot.identity.count))
                    ))
            }
            let condition = slot.identity.map { "\($0) = ?" }.joined(separator: " AND ")
            let update = try connection.prepare(
                "UPDATE \(quoteIdentifier(slot.table)) SET \(quoteIdentifier(slot.column)) = ? WHERE \(condition)")
            for (identity, child) in children {
                update.bind(1, int: try deepCopy(target, child))
                for (offset, id) in identity.enumerated() { update.bind(Int32(offset + 2), id) }
                try update.run()
            }
        }
        return copy
    }
}
