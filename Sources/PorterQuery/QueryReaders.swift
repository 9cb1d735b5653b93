import Foundation
import PorterModel
import PorterRealmFile
import PorterStore

/// Reads query values from a Porter database (inside a read transaction).
package struct DatabaseQueryReader: QueryObjectReader {
    package let database: Database

    package init(database: Database) { self.database = database }

    package func value(_ property: Property, of object: ObjectLink) throws -> Value {
        try database.value(object.className, object.key, property.name)
    }

    /// From the database's incoming references (links, collections of links, mixed values).
    package func backlinks(to object: ObjectLink, from origins: [QueryLinkOrigin]) throws -> [ObjectLink] {
        let wanted = Set(origins)
        return try database.incomingLinks(to: object)
            .filter { wanted.contains(QueryLinkOrigin($0.source.className, $0.property)) }
            .map(\.source)
    }
}

/// Reads query values from a Realm file (read-only, natively): links and embedded objects as
/// `.link`, collections as their elements, linking objects from the file's backlink columns. The last object read is kept, so a predicate naming
/// several properties of one linked object decodes it once.
package final class RealmFileQueryReader: QueryObjectReader {
    package let file: RealmFile
    private var tables: [String: RealmTable] = [:]
    private var last: (link: ObjectLink, values: [RealmValue])?

    package init(file: RealmFile) {
        self.file = file
        for table in file.tables { tables[table.name] = table }
    }

    package func value(_ property: Property, of object: ObjectLink) throws -> Value {
        guard let table = tables[object.className] else {
            throw PorterError(.notFound, "no class named '\(object.className)' in the file", location: file.path)
        }
        if property.isComputed {
            // The file does not name linking objects, but keeps a backlink column per link column.
            guard let origin = property.objectType, let originProperty = property.linkOriginProperty else {
                throw PorterError(
                    .usage, "\(object.className).\(property.name) names no origin class and property",
                    location: file.path)
            }
            let keys = try file.backlinks(
                in: table, key: object.key.rawValue, originClass: origin, originProperty: originProperty)
            return .list(keys.map { .link(ObjectLink(origin, ObjectKey($0))) })
        }
        guard let index = table.properties.firstIndex(where: { $0.name == property.name }) else {
            throw PorterError(
                .notFound, "class \(object.className) of the file has no property \(property.name)",
                location: file.path)
        }
        let values: [RealmValue]
        if let last, last.link == object {
            values = last.values
        } else {
            guard let found = try file.object(in: table, key: object.key.rawValue) else {
                throw PorterError(
                    .notADatabase, "a stored link points to \(object), which does not exist", location: file.path)
            }
            values = found.values
            last = (object, values)
        }
        guard index < values.count else { return .null }
        return try convert(values[index], mixed: property.type == .mixed)
    }

    /// From the backlink columns of the object's table; an origin without one (a mixed property
    /// that never held a link to this class) has no links.
    package func backlinks(to object: ObjectLink, from origins: [QueryLinkOrigin]) throws -> [ObjectLink] {
        guard let table = tables[object.className] else { return [] }
        var out: [ObjectLink] = []
        for origin in origins {
            guard tables[origin.className]?.properties.contains(where: { $0.name == origin.property }) == true else {
                continue
            }
            do {
                out += try file.backlinks(
                    in: table, key: object.key.rawValue, originClass: origin.className,
                    originProperty: origin.property
                ).map { ObjectLink(origin.className, ObjectKey($0)) }
            } catch let error as PorterError where error.code == .notFound {
                continue
            }
        }
        return out
    }

    private func convert(_ stored: RealmValue, mixed: Bool) throws -> Value {
        switch stored {
        case .link(let className, let key), .embedded(let className, let key, _):
            return .link(ObjectLink(className, ObjectKey(key)))
        case .list(let elements) where !mixed: return .list(try elements.map { try convert($0, mixed: false) })
        case .set(let elements): return .set(try elements.map { try convert($0, mixed: mixed) })
        case .dictionary(let entries) where !mixed:
            var map: [String: Value] = [:]
            for entry in entries { map[entry.key] = try convert(entry.value, mixed: false) }
            return .map(map)
        default:
            return mixed
                ? try RealmValues.mixed(stored, location: file.path)
                : try RealmValues.scalar(stored, location: file.path)
        }
    }
}

/// A reader that answers single stored values of the object being streamed from the values the
/// stream already holds, and everything else (links, collections, other objects) from `base`.
package final class StreamedObjectReader: QueryObjectReader {
    package let base: any QueryObjectReader
    /// The object being streamed and its values (parallel to the properties given at creation).
    package var object: ObjectLink
    package var values: [Value] = []
    /// The index in `values` of each property answered from them.
    private let indexes: [String: Int]

    /// `properties` are parallel to the streamed values; only scalars (not links, embedded
    /// objects, mixed or collections) are answered from them.
    package init(base: any QueryObjectReader, className: String, properties: [Property]) {
        self.base = base
        object = ObjectLink(className, ObjectKey(0))
        var indexes: [String: Int] = [:]
        for (i, property) in properties.enumerated()
        where property.collection == .none && property.type != .object && property.type != .mixed
            && property.type != .linkingObjects
        {
            indexes[property.name] = i
        }
        self.indexes = indexes
    }

    /// Makes `key` with `values` the streamed object.
    package func move(to key: ObjectKey, values: [Value]) {
        object.key = key
        self.values = values
    }

    package func backlinks(to object: ObjectLink, from origins: [QueryLinkOrigin]) throws -> [ObjectLink] {
        try base.backlinks(to: object, from: origins)
    }

    package func value(_ property: Property, of object: ObjectLink) throws -> Value {
        if object == self.object, let index = indexes[property.name], index < values.count { return values[index] }
        return try base.value(property, of: object)
    }
}
