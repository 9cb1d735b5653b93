import Foundation
import PorterRealmFile
import PorterModel

/// One class of a Realm file, read for an export: the Realm file's values in the shapes a Porter
/// database's cursor gives, so the same mapping rules write the same bytes for the same objects.
final class RealmExportSource: ExportObjectSource {
    let file: RealmFile
    let table: RealmTable
    let properties: [Property]
    /// The embedded objects of the current top-level object, by the link the mapper resolves.
    private var embeddedObjects: [ObjectLink: (properties: [Property], values: [Value])] = [:]
    private var tables: [String: RealmTable] = [:]

    init(file: RealmFile, table: RealmTable) {
        self.file = file
        self.table = table
        properties = table.properties
        for table in file.tables { tables[table.name] = table }
    }

    func forEachObject(_ body: (ObjectKey, [Value]) throws -> Void) throws {
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
                out.append(simple[i] ? try RealmValues.scalar(stored[i], location: path) : try value(stored[i], properties[i]))
            }
            try body(ObjectKey(object.key), out)
        }
    }

    func embedded(_ link: ObjectLink) throws -> (properties: [Property], values: [Value])? {
        embeddedObjects[link]
    }

    func exportedKey(of link: ObjectLink) throws -> Value {
        let target = try realmTable(link.className)
        guard target.primaryKey != nil else { return .int(link.key.rawValue) }
        guard let key = try file.primaryKeyValue(in: target, key: link.key.rawValue) else {
            throw PorterError(.notADatabase, "a stored link points to \(link), which does not exist", location: file.path)
        }
        return try RealmValues.scalar(key, location: file.path)
    }

    private func realmTable(_ className: String) throws -> RealmTable {
        guard let table = tables[className] else {
            throw PorterError(.notADatabase, "a stored link points to class \(className), which the file does not have", location: file.path)
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

/// Conversions between a Realm file's values and Porter's.
public enum RealmValues {
    /// A scalar (or null); links and collections are the caller's.
    /// - Throws: ``PorterError`` (`notADatabase`) for a link or collection, naming `location`.
    public static func scalar(_ stored: RealmValue, location: String) throws -> Value {
        switch stored {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .binary(let d): return .data(d)
        case .timestamp(let seconds, let nanoseconds): return .date(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case .decimal128(let d): return .decimal128(d)
        case .objectId(let o): return .objectId(o)
        case .uuid(let u): return .uuid(u)
        case .link, .embedded, .list, .set, .dictionary:
            throw PorterError(.notADatabase, "unexpected \(kind(stored)) where a single value is stored", location: location)
        }
    }

    /// A `mixed` value: a scalar, a link to any class, or a list or dictionary nested in it.
    static func mixed(_ stored: RealmValue, location: String) throws -> Value {
        switch stored {
        case .link(let className, let key): return .link(ObjectLink(className, ObjectKey(key)))
        case .list(let elements): return .list(try elements.map { try mixed($0, location: location) })
        case .dictionary(let entries):
            var map: [String: Value] = [:]
            map.reserveCapacity(entries.count)
            for entry in entries { map[entry.key] = try mixed(entry.value, location: location) }
            return .map(map)
        default: return try scalar(stored, location: location)
        }
    }

    static func kind(_ stored: RealmValue) -> String {
        switch stored {
        case .link: return "link"
        case .embedded: return "embedded object"
        case .list: return "list"
        case .set: return "set"
        case .dictionary: return "dictionary"
        default: return "value"
        }
    }
}
