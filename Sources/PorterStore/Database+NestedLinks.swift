import PorterCSQLite
import Foundation
import PorterModel

/// Links held inside lists and dictionaries nested in `mixed` values: found with SQL's `instr` on
/// the blob (``NestedMixedCodec``), then decoded and rewritten in Swift, a batch at a time.
extension Database {
    /// Where a property's values live: table, the columns that identify one value, the value column,
    /// and the column naming the owning object.
    package struct ValueSlot {
        package let table: String
        package let identity: [String]
        package let column: String
        package let owner: String
    }

    /// Where a property's values live: its table, the columns naming one value, the value column.
    package func valueSlot(_ className: String, _ property: Property) -> ValueSlot {
        switch property.collection {
        case .none:
            return .init(
                table: StorageLayout.table(className), identity: ["_key"], column: property.name, owner: "_key")
        case .list:
            return .init(
                table: StorageLayout.collectionTable(className, property.name), identity: ["_owner", "_pos"],
                column: "value", owner: "_owner")
        case .map:
            return .init(
                table: StorageLayout.collectionTable(className, property.name), identity: ["_owner", "_key"],
                column: "value", owner: "_owner")
        case .set:
            return .init(
                table: StorageLayout.collectionTable(className, property.name), identity: ["rowid"], column: "value",
                owner: "_owner")
        }
    }

    /// Rewrites the nested collections of `mixed` property `property` of `className` whose blob
    /// contains `needle`: every link goes through `transform` (nil removes the list element or
    /// dictionary entry). Rows are visited once, in identity order, in bounded batches.
    package func rewriteNestedLinks(
        _ className: String, _ property: Property, containing needle: [UInt8],
        _ transform: (ObjectLink) -> Value?
    ) throws {
        let slot = valueSlot(className, property)
        let column = quoteIdentifier(slot.column)
        // Blobs starting with the list or map tag sort in [x'0a', x'0c'), a range the column's
        // index serves: only rows holding nested collections are looked at. A cached probe keeps
        // the common case (deleting an object nothing nested links to) to one indexed lookup.
        let nested = "\(column) >= x'0a' AND \(column) < x'0c' AND instr(\(column), ?) > 0"
        let probe = try connection.cached("SELECT 1 FROM \(quoteIdentifier(slot.table)) WHERE \(nested) LIMIT 1")
        probe.bind(1, .blob(needle))
        defer { probe.reset() }
        guard try probe.step() else { return }
        let ids = slot.identity.joined(separator: ", ")
        let after = "(\(ids)) > (\(slot.identity.map { _ in "?" }.joined(separator: ", ")))"
        let select = try connection.prepare(
            """
            SELECT \(ids), \(column) FROM \(quoteIdentifier(slot.table)) WHERE \(after) AND \(nested)
              ORDER BY \(ids) LIMIT \(Database.batchSize)
            """)
        let condition = slot.identity.map { "\($0) = ?" }.joined(separator: " AND ")
        let update = try connection.prepare(
            "UPDATE \(quoteIdentifier(slot.table)) SET \(column) = ? WHERE \(condition)")
        // Start below every identity: SQLite orders NULL first, and no identity column is NULL,
        // so a row-value comparison with the smallest integer/text works for the first batch.
        var last: [SQLValue] = slot.identity.map {
            $0 == "_key" && slot.identity.count == 2 ? .text("") : .integer(Int64.min)
        }
        while true {
            select.reset()
            for (offset, id) in last.enumerated() { select.bind(Int32(offset + 1), id) }
            select.bind(Int32(last.count + 1), .blob(needle))
            var batch: [([SQLValue], Value)] = []
            while try select.step() {
                let identity = (0..<slot.identity.count).map { select.value(Int32($0)) }
                batch.append(
                    (identity, try StorageCodec.read(select, Int32(slot.identity.count), type: .mixed, objectType: nil))
                )
            }
            select.reset()
            guard let final = batch.last else { break }
            last = final.0
            for (identity, value) in batch {
                guard let rewritten = NestedMixedCodec.rewritingLinks(value, transform) else { continue }
                update.reset()
                StorageCodec.bind(rewritten, type: .mixed, to: update, at: 1)
                for (offset, id) in identity.enumerated() { update.bind(Int32(offset + 2), id) }
                try update.run()
            }
        }
    }
}
