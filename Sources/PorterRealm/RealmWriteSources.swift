import Foundation
import PorterRealmFile
import PorterModel
import PorterStore

/// A Porter database as the source of a Realm file: objects in key order, links by object key,
/// embedded objects inline.
package struct DatabaseRealmWriteSource: RealmWriteSource {
    /// The database read (inside one read transaction of the caller's).
    package let database: Database

    /// Reads `database`.
    package init(database: Database) { self.database = database }

    /// Streams a class's objects as the writer wants them.
    package func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        try database.enumerate(className) { object in
            var values: [RealmValue] = []
            values.reserveCapacity(object.values.count)
            for i in 0..<object.values.count {
                values.append(try realmValue(object.values[i], object.properties[i]))
            }
            try body(object.key.rawValue, values)
        }
    }

    private func realmValue(_ value: Value, _ property: Property) throws -> RealmValue {
        switch value {
        case .list(let elements) where property.collection == .list:
            return .list(try elements.map { try element($0, property) })
        case .set(let elements) where property.collection == .set,
            .list(let elements) where property.collection == .set:
            return .set(try elements.map { try element($0, property) })
        case .map(let entries) where property.collection == .map:
            return .dictionary(
                try entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
                    RealmDictionaryEntry(key: $0, value: try element(entries[$0] ?? .null, property))
                })
        default:
            return try element(value, property)
        }
    }

    /// One value or collection element: an embedded object is read and nested.
    private func element(_ value: Value, _ property: Property) throws -> RealmValue {
        if property.type == .object, case .link(let link) = value, database.schema[link.className]?.isEmbedded == true {
            guard let child = try database.object(link.className, link.key) else {
                throw PorterError(.notADatabase, "embedded object \(link) is missing", location: database.path)
            }
            var values: [RealmValue] = []
            for i in 0..<child.values.count { values.append(try realmValue(child.values[i], child.properties[i])) }
            return .embedded(className: link.className, key: link.key.rawValue, values: values)
        }
        return try RealmValues.realm(value, location: database.path)
    }
}

/// A Realm file as the source of another (a rewrite: compacted, upgraded to format 24).
package struct RealmFileWriteSource: RealmWriteSource {
    /// The file read.
    package let file: RealmFile

    /// Reads `file`.
    package init(file: RealmFile) { self.file = file }

    /// Streams a class's objects as stored.
    package func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        guard let table = file.table(named: className) else { return }
        try file.forEachObject(in: table) { try body($0.key, $0.values) }
    }
}

/// Writing Realm files (file format 24) from a Porter database or another Realm file.
package enum RealmFileOutput {
    /// Writes every object of `database` to a new Realm file at `path`, at the database's schema
    /// version, atomically (a temporary file, fsync, rename); encrypted with `encryptionKey`.
    /// `fileFormat`: 24, or 23/22 for an app built with an older SDK.
    /// `beforeReplacing` runs once the file is complete, before it is renamed into place; what it
    /// throws leaves `path` untouched.
    package static func write(
        _ database: Database, to path: String, encryptionKey: [UInt8]? = nil,
        fileFormat: Int = WriterFileFormat.current, beforeReplacing: () throws -> Void = {}
    ) throws {
        try database.read {
            let writer = try RealmFileWriter(
                schema: database.schema, schemaVersion: database.schemaVersion, fileFormat: fileFormat)
            try writer.write(
                to: path, source: DatabaseRealmWriteSource(database: database), encryptionKey: encryptionKey,
                beforeReplacing: beforeReplacing)
        }
    }

    /// Rewrites a Realm file as a new format-24 file at `path` (compacted; older formats upgraded).
    package static func write(
        _ file: RealmFile, schema: Schema? = nil, to path: String, encryptionKey: [UInt8]? = nil,
        fileFormat: Int = WriterFileFormat.current, beforeReplacing: () throws -> Void = {}
    ) throws {
        let schema = schema ?? file.schema
        var writer = try RealmFileWriter(
            schema: schema, schemaVersion: file.schemaVersion.map { UInt64(max(0, $0)) } ?? schema.version,
            fileFormat: fileFormat)
        writer.mixedSetStringsInCoreOrder = file.fileFormat <= 23
        try writer.write(
            to: path, source: RealmFileWriteSource(file: file), encryptionKey: encryptionKey,
            beforeReplacing: beforeReplacing)
    }

    /// The number of objects of top-level classes (for summaries).
    package static func topLevelCount(_ database: Database) throws -> Int {
        try database.schema.classes.filter { !$0.isEmbedded }.reduce(0) { $0 + (try database.count($1.name)) }
    }
}
