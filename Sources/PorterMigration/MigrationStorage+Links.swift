import Foundation
import PorterModel
import PorterStore

/// Link-level migration primitives: `mixed` links that name a class, embedded objects owned by a
/// property that goes away, and deleting a class's objects.
extension MigrationStorage {
    /// Where a property's values live: table, the columns that identify one value, the value column.
    typealias ValueSlot = Database.ValueSlot

    func slot(_ className: String, _ property: Property) -> ValueSlot { database.valueSlot(className, property) }

    /// Whether the slot has storage.
    func exists(_ slot: ValueSlot, collection: Bool, className: String) throws -> Bool {
        try database.slotExists(slot, collection: collection, className: className)
    }

    /// Whether the class table has a row with this key (no schema needed).
    func rowExists(_ className: String, _ key: Int64) throws -> Bool { try database.rowExists(className, key) }

    // MARK: - Checks run before a migration commits (shared with the consistency check)

    /// Objects whose single-value property is null (or, for a collection, that hold a null element).
    /// `byIdentity` names objects as conversion failures do (`_id 'a'`, `_key 3`), else `Class(3)`.
    package func nullValues(_ className: String, _ property: Property, byIdentity: Bool = false) throws -> SampledCount
    {
        try database.nullValues(
            className, property, name: byIdentity ? { identity(className, $0, looked: true) } : nil)
    }

    /// Null counts of several single-value properties of a class, in one pass over its table.
    package func nullCounts(_ className: String, _ properties: [Property]) throws -> [Int] {
        try database.nullCounts(className, properties)
    }

    /// Links of a property (link, collection of links, or `mixed`) whose target object does not exist.
    package func danglingLinks(_ className: String, _ property: Property) throws -> SampledCount {
        try database.danglingLinks(className, property)
    }

    /// `PRAGMA integrity_check` problems (empty when the file is sound).
    package func integrityProblems() throws -> [String] { try database.sqliteIntegrityCheck() }

    /// Rewrites the `mixed` values of `source` that link to objects of `className` with
    /// `transform` (a new link, or `.null`), a batch at a time until none is left.
    func rewriteMixedLinks(in source: LinkSource, from className: String, _ transform: (ObjectLink) -> Value) throws {
        let slot = slot(source.className, source.property)
        guard try exists(slot, collection: source.property.isCollection, className: source.className) else { return }
        let column = quoteIdentifier(slot.column)
        let ids = slot.identity.joined(separator: ", ")
        let select = try connection.prepare(
            """
            SELECT \(ids), \(column) FROM \(quoteIdentifier(slot.table)) WHERE typeof(\(column)) = 'blob'
              AND substr(\(column), 1, 1) = x'09' AND substr(\(column), 10) = CAST(? AS BLOB) LIMIT \(MigrationStorage.batchSize)
            """)
        let condition = slot.identity.map { "\($0) = ?" }.joined(separator: " AND ")
        let update = try connection.prepare(
            "UPDATE \(quoteIdentifier(slot.table)) SET \(column) = ? WHERE \(condition)")
        let delete = try connection.prepare("DELETE FROM \(quoteIdentifier(slot.table)) WHERE \(condition)")
        while true {
            select.reset()
            select.bind(1, text: className)
            var batch: [([SQLValue], Value)] = []
            while try select.step() {
                let identity = (0..<slot.identity.count).map { select.value(Int32($0)) }
                batch.append(
                    (identity, try StorageCodec.read(select, Int32(slot.identity.count), type: .mixed, objectType: nil))
                )
            }
            if batch.isEmpty { break }
            for (identity, value) in batch {
                guard case .link(let link) = value else { continue }
                let replacement = transform(link)
                // A collection element that no longer links anywhere is removed, as deleting a
                // linked object removes it from collections.
                let stmt = replacement.isNull && source.property.isCollection ? delete : update
                var index: Int32 = 1
                if stmt === update {
                    StorageCodec.bind(replacement, type: .mixed, to: update, at: 1)
                    index = 2
                }
                for (offset, id) in identity.enumerated() { stmt.bind(index + Int32(offset), id) }
                try stmt.run()
            }
        }
        // Links inside nested lists and dictionaries: a null replacement removes the element.
        try database.rewriteNestedLinks(source.className, source.property, containing: Array(className.utf8)) { link in
            guard link.className == className else { return .link(link) }
            let replacement = transform(link)
            return replacement.isNull ? nil : replacement
        }
    }

    /// Removes `mixed` links to objects of `className` from every property of `sources`
    /// (nulls single values, removes collection elements): before the class's table goes away.
    package func removeMixedLinks(to className: String, sources: [LinkSource]) throws {
        for source in sources { try rewriteMixedLinks(in: source, from: className) { _ in .null } }
    }

    /// Deletes the embedded objects of class `embeddedClass` that a property of `className` holds
    /// (with the objects they embed in turn), before that property's storage is dropped: they are
    /// its values and would otherwise be left without a parent. `embeddedClass` must be in the
    /// database's current schema. Returns how many were deleted.
    @discardableResult
    package func deleteEmbedded(ownedBy className: String, _ property: Property, embeddedClass: String) throws -> Int {
        let slot = slot(className, property)
        guard try exists(slot, collection: property.isCollection, className: className),
            try hasTable(embeddedClass)
        else { return 0 }
        let column = quoteIdentifier(slot.column)
        let ids = slot.identity.joined(separator: ", ")
        let placeholders = slot.identity.map { _ in "?" }.joined(separator: ", ")
        let base = "SELECT \(ids), \(column) FROM \(quoteIdentifier(slot.table)) WHERE \(column) IS NOT NULL"
        let first = try connection.prepare("\(base) ORDER BY \(ids) LIMIT \(MigrationStorage.batchSize)")
        let next = try connection.prepare(
            "\(base) AND (\(ids)) > (\(placeholders)) ORDER BY \(ids) LIMIT \(MigrationStorage.batchSize)")
        var after: [SQLValue]? = nil
        var deleted = 0
        while true {
            // Keyset batches, each read fully before deleting: deletion may null other links
            // in the same table.
            let select = after == nil ? first : next
            select.reset()
            for (offset, value) in (after ?? []).enumerated() { select.bind(Int32(offset + 1), value) }
            var keys: [ObjectKey] = []
            var lastIdentity: [SQLValue]?
            while try select.step() {
                lastIdentity = (0..<slot.identity.count).map { select.value(Int32($0)) }
                keys.append(ObjectKey(select.int64(Int32(slot.identity.count))))
            }
            guard let lastIdentity else { break }
            after = lastIdentity
            let existing = try keys.filter { try rowExists(embeddedClass, $0.rawValue) }
            try database.deleteObjects(existing.map { ObjectLink(embeddedClass, $0) })
            deleted += existing.count
        }
        return deleted
    }

    /// Deletes every object of a class (with Realm's clean-up of links to them and of the
    /// embedded objects they own); the class must be in the database's current schema.
    package func deleteAllObjects(_ className: String) throws {
        let schema = database.schema
        guard let cls = schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the schema")
        }
        let ownsEmbedded = cls.persistedProperties.contains {
            $0.type == .object && schema[$0.objectType ?? ""]?.isEmbedded == true
        }
        let referenced = try database.hasIncomingReferences(to: className)
        if ownsEmbedded || referenced {
            // Links to these objects must be cleared and embedded objects deleted with them.
            try database.deleteAll(className)
            return
        }
        // Nothing refers to them and they own nothing: plain SQL is enough.
        try database.retireAllObjectKeys(className)
        for property in cls.persistedProperties where property.isCollection {
            try connection.execute(
                "DELETE FROM \(quoteIdentifier(StorageLayout.collectionTable(className, property.name)))")
        }
        try connection.execute("DELETE FROM \(quoteIdentifier(StorageLayout.table(className)))")
    }
}
