import Foundation
import PorterModel

extension Database {
    /// Adds classes the file does not have yet (an automatic schema change, as opening with a
    /// larger model makes): creates their tables and stores the new schema. Inside a write
    /// transaction the change is part of it (a cancelled transaction undoes it); outside, it is
    /// one transaction of its own.
    /// - Throws: ``PorterError`` when the resulting schema is invalid (a link to a class that is
    ///   neither in the file nor added) or the database is read-only.
    public func addClasses(_ classes: [ObjectSchema]) throws {
        let added = classes.filter { schema[$0.name] == nil }
        guard !added.isEmpty else { return }
        if isReadOnly {
            throw PorterError(.io, "database is read-only, so class '\(added[0].name)' cannot be added", location: path)
        }
        var requested = schema
        for cls in added { requested.upsert(cls) }
        try requested.validate()
        let body = {
            let ddl = SchemaDDL(connection: self.connection)
            for cls in added { try ddl.createClass(cls) }
            try self.replaceStoredSchema(requested)
        }
        if isInWriteTransaction { try savepoint(body) } else { try write(body) }
    }
}
