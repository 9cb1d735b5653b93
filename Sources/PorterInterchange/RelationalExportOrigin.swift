import Foundation
import PorterDocument
import PorterModel
import PorterPostgres
import PorterQuery
import PorterStore

extension Exporter {
    /// Creates an exporter reading a relational export in place: a SQLite file Porter's
    /// `--format sqlite` wrote, or a PostgreSQL database (`postgresql://…`) an export loaded.
    /// Objects without a primary key keep the `_key` the export wrote, as an import with
    /// `keepObjectKeys` gives them; `side` names the export in messages (`the target cannot be
    /// read: …`).
    /// - Throws: ``PorterError`` when the export cannot be opened or is not one Porter reads.
    package convenience init(relationalExport location: String, side: String, format: DocumentOutputFormat) throws {
        let isURL = PostgresConnection.isURL(location)
        let source: RelationalRowSource =
            isURL ? try PostgresRelationalSource(url: location) : try SQLiteRelationalSource(path: location)
        let reader = try RelationalReader(source: source)
        let display = isURL ? PostgresConnection.redacted(location) : location
        self.init(
            origin: RelationalExportOrigin(reader: reader, side: side, location: display),
            schema: reader.layout.schema, path: display, format: format, options: ExportOptions())
    }
}

/// A problem that makes one side of a verification unreadable, thrown as it is (the verifier
/// does not put the class in front of it: it names its row and field already).
struct UnreadableSide: Error {
    let error: PorterError
}

/// A relational export read where it is, without importing it first: the rows of its tables as
/// the documents ``RelationalReader`` makes of them, turned into values by the rules an import
/// reads documents with (the same scalars, the same errors for what an import refuses, a link
/// to nothing named by its row and field).
final class RelationalExportOrigin: ExportOrigin {
    let reader: RelationalReader
    /// `source` or `target`, for messages.
    let side: String
    /// The export for messages (a path, or a URL without its password).
    let location: String
    /// Link targets found to exist, by class and key cell (a bounded cache: a PostgreSQL lookup
    /// is a round trip).
    private var knownKeys: Set<String> = []
    private var tables: [String: RelationalTable] = [:]

    init(reader: RelationalReader, side: String, location: String) {
        self.reader = reader
        self.side = side
        self.location = location
        for table in reader.layout.topLevel { tables[table.name] = table }
    }

    func source(for cls: ObjectSchema) throws -> any ExportObjectSource {
        RelationalExportSource(origin: self, cls: cls, table: tables[cls.name])
    }

    func queryReader() -> any QueryObjectReader { NoQueryReader(location: location) }

    /// The error for a problem at one row and field, in an import's words.
    func unreadable(label: String, path: String, message: String) -> UnreadableSide {
        let line = ImportProblems.line(source: location, label: label, path: path, message: message)
        return UnreadableSide(
            error: PorterError(.invalidInput, "the \(side) cannot be read: \(line)", location: location))
    }

    /// Whether the top-level class `className` holds an object whose exported key is `key`.
    func exists(_ className: String, key: Value) throws -> Bool {
        guard let table = tables[className] else { return false }
        let cell = try RelationalValues.cell(key, at: location)
        let known = "\(className)\u{0}\(cell)"
        if knownKeys.contains(known) { return true }
        guard try reader.source.containsKey(table, cell) else { return false }
        if knownKeys.count >= 65_536 { knownKeys.removeAll(keepingCapacity: true) }
        knownKeys.insert(known)
        return true
    }

    /// `--query` and dotted `--fields` are not offered over a relational export read in place
    /// (only `porter verify` reads one so).
    private struct NoQueryReader: QueryObjectReader {
        let location: String
        func value(_ property: Property, of object: ObjectLink) throws -> Value {
            throw PorterError(.usage, "a relational export read in place cannot be queried", location: location)
        }
    }
}

/// The objects of one class of a relational export, in row order. An object without a primary
/// key is its `_key`; one with a primary key is its row number (what ``object(at:)`` finds again).
final class RelationalExportSource: ExportObjectSource {
    let origin: RelationalExportOrigin
    let cls: ObjectSchema
    let table: RelationalTable?
    let properties: [Property]
    private let schema: Schema
    /// The embedded objects of the current object, and the keys of links held by its mixed
    /// values, by the links the mapper asks about.
    private var embeddedObjects: [ObjectLink: (properties: [Property], values: [Value])] = [:]
    private var mixedKeys: [ObjectLink: Value] = [:]
    private var nextLink: Int64 = 0
    /// The current row, for messages.
    private var label = ""

    init(origin: RelationalExportOrigin, cls: ObjectSchema, table: RelationalTable?) {
        self.origin = origin
        self.cls = cls
        self.table = table
        properties = cls.persistedProperties
        schema = origin.reader.layout.schema
    }

    func forEachObject(_ body: (ObjectKey, [Value]) throws -> Void) throws {
        try scan { key, values in
            try body(key, values)
            return true
        }
    }

    func object(at key: ObjectKey) throws -> [Value]? {
        // Asked for the first difference only: one more pass over the table finds the row.
        var found: [Value]?
        try scan { rowKey, values in
            guard rowKey == key else { return true }
            found = values
            return false
        }
        return found
    }

    func embedded(_ link: ObjectLink) throws -> (properties: [Property], values: [Value])? {
        embeddedObjects[link]
    }

    func exportedKey(of link: ObjectLink) throws -> Value {
        guard let key = mixedKeys[link] else {
            throw PorterError(.notADatabase, "a link held by a mixed value is missing", location: origin.location)
        }
        return key
    }

    /// Reads the rows in order until `body` answers false.
    private func scan(_ body: (ObjectKey, [Value]) throws -> Bool) throws {
        guard let table else { return }
        let stop = StopScan()
        var number: Int64 = 0
        do {
            try origin.reader.forEachDocument(table) { result in
                number += 1
                label = "\(cls.name)#\(number)"
                let document: Document
                switch result {
                case .failure(let error):
                    throw origin.unreadable(label: label, path: error.path, message: error.message)
                case .success(let read): document = read
                }
                embeddedObjects.removeAll(keepingCapacity: true)
                mixedKeys.removeAll(keepingCapacity: true)
                var key = ObjectKey(number)
                if cls.primaryKey == nil {
                    guard case .int64(let objectKey) = document["_key"] ?? .null else {
                        throw origin.unreadable(label: label, path: "_key", message: "the object key is missing")
                    }
                    key = ObjectKey(objectKey)
                }
                if !(try body(key, try values(document, properties, path: ""))) { throw stop }
            }
        } catch let error as StopScan where error === stop {
            return
        }
    }

    private final class StopScan: Error {}

    /// An object's values, parallel to `properties`, from its document.
    private func values(_ document: Document, _ properties: [Property], path: String) throws -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(properties.count)
        let fields = document.fields
        for (i, property) in properties.enumerated() {
            // The reader writes the fields in schema order: the name is checked, not searched.
            let field = i < fields.count && fields[i].key == property.name ? fields[i].value : document[property.name]
            out.append(try value(field ?? .null, property, path: path + property.name))
        }
        return out
    }

    /// A property's value: a single value, or its collection.
    private func value(_ field: DocumentValue, _ property: Property, path: String) throws -> Value {
        switch (property.collection, field) {
        case (.none, _): return try element(field, property, path: path)
        case (.list, .array(let elements)), (.set, .array(let elements)):
            var out: [Value] = []
            out.reserveCapacity(elements.count)
            for (i, item) in elements.enumerated() { out.append(try element(item, property, path: "\(path).\(i)")) }
            return property.collection == .set ? .set(out) : .list(out)
        case (.map, .document(let entries)):
            var map: [String: Value] = Dictionary(minimumCapacity: entries.fields.count)
            for (key, item) in entries.fields { map[key] = try element(item, property, path: "\(path).\(key)") }
            return .map(map)
        case (.list, .null): return .list([])
        case (.set, .null): return .set([])
        case (.map, .null): return .map([:])
        default:
            throw origin.unreadable(
                label: label, path: path,
                message: "expected a \(property.collection.rawValue) but got \(field.kindDescription)")
        }
    }

    /// One value or collection element of `property`, as an import reads it.
    private func element(_ field: DocumentValue, _ property: Property, path: String) throws -> Value {
        if case .null = field {
            if property.isOptional || property.type == .mixed { return .null }
            if property.isCollection {
                let kind = property.collection == .map ? "map" : property.collection.rawValue
                let name = property.type == .object ? property.objectType ?? "?" : property.type.rawValue
                throw origin.unreadable(
                    label: label, path: path, message: "null is not allowed in a \(kind) of required \(name) values")
            }
            throw origin.unreadable(label: label, path: path, message: "required property cannot be null")
        }
        do {
            switch property.type {
            case .mixed: return try mixed(field, path: path)
            case .object:
                guard let target = property.objectType.flatMap({ schema[$0] }) else {
                    throw FieldErrorMessage("property links to unknown class '\(property.objectType ?? "")'")
                }
                if target.isEmbedded {
                    guard case .document(let document) = field else {
                        throw FieldErrorMessage(
                            "expected an embedded \(target.name) document but got \(field.kindDescription)")
                    }
                    let embeddedProperties = target.persistedProperties
                    let link = newLink(target.name)
                    embeddedObjects[link] = (
                        embeddedProperties, try values(document, embeddedProperties, path: path + ".")
                    )
                    return .link(link)
                }
                return try link(to: target, field)
            default:
                return try ScalarReader.read(field, as: property.type)
            }
        } catch let error as FieldErrorMessage {
            throw origin.unreadable(label: label, path: path, message: error.message)
        }
    }

    /// A link to a top-level object as its exported key, checked to name an object that exists.
    private func link(to target: ObjectSchema, _ field: DocumentValue) throws -> Value {
        let key: Value
        let description: String
        if let pk = target.primaryKeyProperty {
            do {
                key = try ScalarReader.read(field, as: pk.type)
            } catch {
                throw FieldErrorMessage("link to \(target.name): \(error.message)")
            }
            description = "primary key \(describeKey(key))"
        } else {
            let objectKey: Int64
            switch field {
            case .int64(let i): objectKey = i
            case .int32(let i): objectKey = Int64(i)
            default:
                throw FieldErrorMessage(
                    "expected the _key (an integer or string label) of a \(target.name) but got \(field.kindDescription)"
                )
            }
            key = .int(objectKey)
            description = "_key \(objectKey)"
        }
        guard try origin.exists(target.name, key: key) else {
            throw FieldErrorMessage(
                "link to a missing object: no \(target.name) with \(description) in this import or in the database")
        }
        return key
    }

    /// A `mixed` value as an import stores it (a float comes as a double: the reader widens it).
    private func mixed(_ field: DocumentValue, path: String) throws -> Value {
        switch field {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int32(let i): return .int(Int64(i))
        case .int64(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .binary(let d, 0), .binary(let d, 2): return .data(d)
        case .binary(_, 4): return try ScalarReader.read(field, as: .uuid)
        case .objectId(let o): return .objectId(o)
        case .dateTime(let t): return .date(t)
        case .decimal128(let d): return .decimal128(d)
        case .dbRef(let className, let id):
            guard let target = schema[className], !target.isEmbedded else {
                throw FieldErrorMessage("DBRef to unknown class '\(abbreviated(className))'")
            }
            let link = newLink(target.name)
            mixedKeys[link] = try self.link(to: target, id)
            return .link(link)
        case .document(let document):
            var map: [String: Value] = Dictionary(minimumCapacity: document.fields.count)
            for (key, item) in document.fields {
                do {
                    map[key] = try mixed(item, path: path + "." + key)
                } catch let error as FieldErrorMessage {
                    throw origin.unreadable(label: label, path: path + "." + key, message: error.message)
                }
            }
            return .map(map)
        case .array(let items):
            var list: [Value] = []
            list.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                do {
                    list.append(try mixed(item, path: "\(path).\(i)"))
                } catch let error as FieldErrorMessage {
                    throw origin.unreadable(label: label, path: "\(path).\(i)", message: error.message)
                }
            }
            return .list(list)
        default:
            throw FieldErrorMessage("a \(field.kindDescription) cannot be stored in a mixed property")
        }
    }

    /// A link of this object's own numbering (embedded objects, links held by mixed values).
    private func newLink(_ className: String) -> ObjectLink {
        nextLink += 1
        return ObjectLink(className, ObjectKey(nextLink))
    }
}
