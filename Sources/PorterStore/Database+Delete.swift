import Foundation
import PorterModel

extension Database {
    /// Deletes an object with Realm's semantics: to-one links and `mixed` values pointing at it
    /// become null, it is removed from every list, set and map, and its embedded objects (and
    /// theirs) are deleted with it. Deleting an embedded object removes it from its parent.
    public func delete(_ className: String, _ key: ObjectKey) throws {
        try requireWrite()
        let plan = try plan(for: className)
        guard try exists(plan, key) else {
            throw PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
        }
        try atomically { try deleteObjects([ObjectLink(className, key)]) }
    }

    /// Deletes every object of a class (with the same reference clean-up as ``delete(_:_:)``).
    public func deleteAll(_ className: String) throws {
        try requireWrite()
        let plan = try plan(for: className)
        try atomically {
            for key in try queryKeys("SELECT _key FROM \(plan.table) WHERE _key > ? ORDER BY _key", Int64.min) {
                try deleteObjects([ObjectLink(className, key)])
            }
        }
    }

    /// Deletes objects and, depth first, the embedded objects they own.
    package func deleteObjects(_ links: [ObjectLink]) throws {
        for link in links {
            let plan = try plan(for: link.className)
            var children: [ObjectLink] = []
            for property in plan.persisted {
                children += try embeddedChildren(plan, link.key, property)
            }
            try removeReferences(to: link)
            for property in plan.collections {
                try clearCollection(plan, link.key, property)
            }
            try noteObjectDeleted(plan, link.key.rawValue)
            let stmt = try connection.cached("DELETE FROM \(plan.table) WHERE _key = ?")
            stmt.bind(1, int: link.key.rawValue)
            try stmt.run()
            try deleteObjects(children)
        }
    }

    /// Nulls to-one links and mixed values that point at `link`, and removes it from collections
    /// (including lists and dictionaries nested in mixed values).
    func removeReferences(to link: ObjectLink) throws {
        for ref in try incomingReferences(to: link.className) {
            let column = quoteIdentifier(ref.property.name)
            let stmt =
                ref.property.isCollection
                ? try connection.cached("DELETE FROM \(ref.plan.collectionTable(ref.property)) WHERE value = ?")
                : try connection.cached("UPDATE \(ref.plan.table) SET \(column) = NULL WHERE \(column) = ?")
            StorageCodec.bind(.link(link), type: ref.property.type, to: stmt, at: 1)
            try stmt.run()
            if ref.property.type == .mixed {
                // Inside nested lists and dictionaries the link is removed, as from collections.
                try rewriteNestedLinks(
                    ref.plan.schema.name, ref.property, containing: NestedMixedCodec.linkPattern(link)
                ) {
                    $0 == link ? nil : .link($0)
                }
            }
        }
    }
}
