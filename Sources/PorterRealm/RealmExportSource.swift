import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterQuery
import PorterRealmFile

extension Exporter {
    /// Creates an exporter of a Realm file; `schema` (default: the file's) may add what the file
    /// does not store (`linkingObjects`, defaults), which the export does not write anyway.
    package convenience init(
        realmFile: RealmFile, schema: Schema? = nil, format: DocumentOutputFormat,
        options: ExportOptions = ExportOptions()
    ) {
        self.init(
            origin: RealmExportOrigin(file: realmFile), schema: schema ?? realmFile.schema, path: realmFile.path,
            format: format, options: options)
    }
}

/// A Realm file as an export reads it: read-only, so one consistent snapshot already.
struct RealmExportOrigin: ExportOrigin {
    let file: RealmFile

    func source(for cls: ObjectSchema) throws -> any ExportObjectSource {
        guard let table = file.table(named: cls.name) else {
            throw PorterError(.notFound, "no class named '\(cls.name)' in the file", location: file.path)
        }
        return RealmExportSource(file: file, table: table)
    }

    func queryReader() -> any QueryObjectReader { RealmFileQueryReader(file: file) }
}

/// One class of a Realm file, read for an export: the Realm file's values in the shapes a Porter
/// database's cursor gives, so the same mapping rules write the same bytes for the same objects.
final class RealmExportSource: ExportObjectSource {
    let file: RealmFile
    let table: RealmTable
    package let properties: [Property]
    /// The embedded objects of the current top-level object, by the link the mapper resolves.
    private var embeddedObjects: [ObjectLink: (properties: [Property], values: [Value])] = [:]
    private var tables: [String: RealmTable] = [:]

    init(file: RealmFile, table: RealmTable) {
        self.file = file
        self.table = table
        properties = table.properties
        for table in file.tables { tables[table.name] = table }
    }

    package func forEachObject(_ body: (ObjectKey, [Value]) throws -> Void) throws {
        // Scalars, the common case, convert without looking at their `Property` (copying one per
        // value cost more than the conversion); the rest takes the general path.
        let simple = properties.map { $0.collection == .none && $0.type != .mixed && $0.type != .object }
        let path = file.path
        var out: [Value] = []
        try file.forEachObject(in: table) { object in
            if !embeddedObjects.isEmpty { embeddedObjects.removeAll(keepingCapacity: true) }
            out.removeAll(keepingCapacity: true)
            let stored = object.values
            for i in 0..<min(stored.count, simple.count) {
                out.append(
                    simple[i] ? try RealmValues.scalar(stored[i], location: path) : try value(stored[i], properties[i]))
            }
            try body(ObjectKey(object.key), out)
        }
    }

    package func object(at key: ObjectKey) throws -> [Value]? {
        guard let object = try file.object(in: table, key: key.rawValue) else { return nil }
        embeddedObjects.removeAll(keepingCapacity: true)
        return try values(object.values, properties)
    }

    package func embedded(_ link: ObjectLink) throws -> (properties: [Property], values: [Value])? {
        embeddedObjects[link]
    }

    package func exportedKey(of link: ObjectLink) throws -> Value {
        let target = try realmTable(link.className)
        guard target.primaryKey != nil else { return .int(link.key.rawValue) }
        guard let key = try file.primaryKeyValue(in: target, key: link.key.rawValue) else {
            throw PorterError(
                .notADatabase, "a stored link points to \(link), which does not exist", location: file.path)
        }
        return try RealmValues.scalar(key, location: file.path)
    }

    private func realmTable(_ className: String) throws -> RealmTable {
        guard let table = tables[className] else {
            throw PorterError(
                .notADatabase, "a stored link points to class \(className), which the file does not have",
                location: file.path)
        }
        return table
    }

    /// An object's values, parallel to `properties`.
    private func values(_ stored: [RealmValue], _ properties: [Property]) throws -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(stored.count)
        for i in 0..<min(stored.count, properties.count) {
            out.append(try value(stored[i], properties[i]))
        }
        return out
    }

    private func value(_ stored: RealmValue, _ property: Property) throws -> Value {
        let mixed = property.type == .mixed
        // A property's own collection comes first: inside a mixed it would be a nested collection.
        switch (property.collection, stored) {
        case (.list, .list(let elements)): return .list(try elements.map { try element($0, mixed: mixed) })
        case (.set, .set(let elements)): return .set(try elements.map { try element($0, mixed: mixed) })
        case (.map, .dictionary(let entries)):
            var map: [String: Value] = [:]
            map.reserveCapacity(entries.count)
            for entry in entries { map[entry.key] = try element(entry.value, mixed: mixed) }
            return .map(map)
        default: return try element(stored, mixed: mixed)
        }
    }

    /// A scalar, a link to a top-level object (as its exported key), or an embedded object (kept
    /// for the mapper, which asks for it by link).
    private func element(_ stored: RealmValue, mixed: Bool) throws -> Value {
        if mixed { return try RealmValues.mixed(stored, location: file.path) }
        switch stored {
        case .link(let className, let key):
            return try exportedKey(of: ObjectLink(className, ObjectKey(key)))
        case .embedded(let className, let key, let stored):
            let link = ObjectLink(className, ObjectKey(key))
            let embeddedProperties = try realmTable(className).properties
            embeddedObjects[link] = (embeddedProperties, try values(stored, embeddedProperties))
            return .link(link)
        default:
            return try RealmValues.scalar(stored, location: file.path)
        }
    }
}
