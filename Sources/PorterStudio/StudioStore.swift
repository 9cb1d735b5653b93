import Foundation
import Porter
import PorterInterchange
import PorterModel
import PorterQuery
import PorterRealmFile
import PorterStore

/// The file `porter studio` shows, opened as the read-only commands open it.
package enum StudioFile {
    /// A Porter database (read-only, or read-write with `--write`).
    case porter(Database)
    /// A Realm file, read natively (read-only, always).
    case realm(RealmFile)
}

/// A request the studio refuses: answered 400 with a one-line message (or 404 / 409 by `status`).
struct StudioRequestError: Error {
    /// The one-line message.
    var message: String
    /// The HTTP status code.
    var status: Int = 400

    init(_ message: String, status: Int = 400) {
        self.message = message
        self.status = status
    }
}

/// Every read and write of the studio's file, one at a time (a database connection and a Realm
/// file's mapping are used by one thread at a time), off the server's event loops.
final class StudioStore: @unchecked Sendable {
    let file: StudioFile
    /// The file's path.
    let path: String
    /// Whether `--write` was given (a Porter database opened read-write, or a Realm file's working copy).
    let writable: Bool
    /// `--write` on a Realm file: the working copy `file` holds and Save writes back.
    let realmCopy: StudioRealmCopy?
    private let queue = DispatchQueue(label: "porter.studio.store")
    /// The order of the objects last paged (by class, sort and query), so that the next page
    /// needs no new sort: keys only, never objects.
    private var cachedOrder: (id: String, stamp: String, keys: [ObjectKey])?

    /// The most objects one page holds.
    static let maxPageSize = 500
    /// Whether an edit of the open write transaction succeeded (a commit of nothing but failed
    /// edits is no unsaved change of a Realm file's working copy).
    var transactionChanged = false
    /// Where whole-file downloads (sqlite, realm) are written before they are sent.
    var temporaryDirectory = NSTemporaryDirectory()
    /// Whether the file is an encrypted Realm file (or the working copy of one): nothing of it
    /// is written decrypted to disk.
    var isEncrypted: Bool {
        if let realmCopy { return realmCopy.encryptionKey != nil }
        if case .realm(let file) = file { return file.isEncrypted }
        return false
    }

    init(file: StudioFile, writable: Bool, realmCopy: StudioRealmCopy? = nil) {
        self.file = file
        self.writable = writable
        self.realmCopy = realmCopy
        switch file {
        case _ where realmCopy != nil: path = realmCopy?.path ?? ""
        case .porter(let db): path = db.path
        case .realm(let realm): path = realm.path
        }
    }

    /// Runs `body` on the store's queue.
    func access<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on the store's queue, synchronously (exports, which stream from there).
    func accessSync<T>(_ body: () throws -> T) throws -> T {
        try queue.sync { try body() }
    }

    // MARK: - Schema

    /// The schema shown: a Porter database's, or the one a Realm file stores.
    var schema: Schema {
        switch file {
        case .porter(let db): return db.schema
        case .realm(let realm): return realm.schema
        }
    }

    /// The class named `name`, or a 400 naming it.
    func objectSchema(_ name: String) throws -> ObjectSchema {
        guard let cls = schema[name] else { throw StudioRequestError("no class named '\(name)' in \(path)") }
        return cls
    }

    /// The number of objects of a class.
    func count(_ cls: ObjectSchema) throws -> Int {
        switch file {
        case .porter(let db): return try db.count(cls.name)
        case .realm(let realm): return try realm.table(named: cls.name).map { try realm.objectCount(in: $0) } ?? 0
        }
    }

    /// The file, its format and every class with its count and properties.
    func info() throws -> JSONValue {
        let schema = self.schema
        var members: [JSONMember] = [JSONMember("path", .string(path))]
        switch file {
        case _ where realmCopy != nil: members += realmCopy?.infoMembers ?? []
        case .porter(let db):
            members += [
                JSONMember("kind", .string("porter")), JSONMember("schemaVersion", .int(db.schemaVersion)),
                JSONMember("fileFormat", .null),
            ]
        case .realm(let realm):
            members += [
                JSONMember("kind", .string("realm")),
                JSONMember("schemaVersion", realm.schemaVersion.map { JSONValue.int($0) } ?? .null),
                JSONMember("fileFormat", .int(realm.fileFormat)),
                JSONMember("encrypted", .bool(realm.isEncrypted)),
            ]
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        members.append(JSONMember("fileSize", .int(size ?? 0)))
        members.append(JSONMember("writable", .bool(writable)))
        members.append(JSONMember("unsaved", .int(realmCopy?.unsavedCommits ?? 0)))
        let classes = try schema.classes.map { cls -> JSONValue in
            .object([
                JSONMember("name", .string(cls.name)), JSONMember("count", .int(try count(cls))),
                JSONMember("embedded", .bool(cls.isEmbedded)),
                JSONMember("primaryKey", cls.primaryKey.map { JSONValue.string($0) } ?? .null),
                JSONMember("properties", .array(cls.properties.map { Self.propertyJSON($0, cls) })),
            ])
        }
        members.append(JSONMember("classes", .array(classes)))
        return .object(members)
    }

    static func propertyJSON(_ property: Property, _ cls: ObjectSchema) -> JSONValue {
        .object([
            JSONMember("name", .string(property.name)), JSONMember("type", .string(property.realmTypeString)),
            JSONMember("baseType", .string(property.type.rawValue)),
            JSONMember("objectType", property.objectType.map { JSONValue.string($0) } ?? .null),
            JSONMember("originProperty", property.linkOriginProperty.map { JSONValue.string($0) } ?? .null),
            JSONMember("collection", .string(property.collection.rawValue)),
            JSONMember("optional", .bool(property.isOptional)), JSONMember("indexed", .bool(property.isIndexed)),
            JSONMember("primaryKey", .bool(property.name == cls.primaryKey)),
            JSONMember("sortable", .bool(isSortable(property))),
        ])
    }

    /// Scalar columns sort; collections, links and computed properties do not.
    static func isSortable(_ property: Property) -> Bool {
        !property.isCollection && !property.isComputed && property.type != .object
    }

    // MARK: - File state

    /// The file's modification time (nanoseconds) and size, polled by the page; a Porter
    /// database's `-wal` file counts too (another process's commits land there first).
    func fileState() -> (mtime: Int64, size: Int64) {
        func stamp(_ path: String) -> (Int64, Int64) {
            var info = stat()
            guard stat(path, &info) == 0 else { return (0, 0) }
            return (Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), Int64(info.st_size))
        }
        let main = stamp(path)
        guard case .porter = file, realmCopy == nil else { return main }
        let wal = stamp(path + "-wal")
        return (max(main.0, wal.0), main.1 + wal.1)
    }

    // MARK: - Pages

    /// A page of the objects of a class, in key order or sorted by a scalar property, all of them
    /// or those matching a Realm Query Language `query`.
    func page(
        className: String, offset: Int, limit: Int, sort: String?, descending: Bool, query: String?
    ) throws -> JSONValue {
        let cls = try objectSchema(className)
        guard offset >= 0 else { throw StudioRequestError("offset must be 0 or more, not \(offset)") }
        guard (1...Self.maxPageSize).contains(limit) else {
            throw StudioRequestError("limit must be between 1 and \(Self.maxPageSize), not \(limit)")
        }
        try checkSort(cls, sort)
        let keys = try order(cls, sort: sort, descending: descending, query: query)
        let pageKeys = offset < keys.count ? Array(keys[offset..<min(keys.count, offset + limit)]) : []
        let objects = try pageKeys.map { key -> JSONValue in
            .object([JSONMember("key", .int(key.rawValue)), JSONMember("values", try values(cls, key))])
        }
        return .object([
            JSONMember("class", .string(cls.name)), JSONMember("total", .int(keys.count)),
            JSONMember("offset", .int(offset)), JSONMember("limit", .int(limit)),
            JSONMember("sort", sort.map { JSONValue.string($0) } ?? .null), JSONMember("descending", .bool(descending)),
            JSONMember("query", query.map { JSONValue.string($0) } ?? .null),
            JSONMember("properties", .array(cls.properties.map { Self.propertyJSON($0, cls) })),
            JSONMember("objects", .array(objects)),
        ])
    }

    /// A sort by a property the class has, and a scalar one, or a 400 saying why not.
    func checkSort(_ cls: ObjectSchema, _ sort: String?) throws {
        guard let sort else { return }
        guard let property = cls.property(named: sort) else {
            throw StudioRequestError("sort: class \(cls.name) has no property '\(sort)'")
        }
        guard Self.isSortable(property) else {
            throw StudioRequestError("sort: \(cls.name).\(sort) is not a scalar property (\(property.typeShorthand))")
        }
    }

    /// The keys of a class in the order asked for: computed once, kept while the data is unchanged.
    /// A sort reads the sorted column alone (with a query: the pass that evaluates it), and keeps
    /// the keys and that column's values until sorted, never the objects.
    func order(_ cls: ObjectSchema, sort: String?, descending: Bool, query: String?) throws -> [ObjectKey] {
        let query = query.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let id = "\(cls.name)\u{0}\(sort ?? "")\u{0}\(descending)\u{0}\(query ?? "")"
        let stamp = dataStamp()
        if let cachedOrder, cachedOrder.id == id, cachedOrder.stamp == stamp { return cachedOrder.keys }
        // The previous order goes first: two orders of a large class are never held at once.
        cachedOrder = nil
        let keys: [ObjectKey]
        switch (query, sort) {
        case (nil, nil):
            keys = try allKeys(cls)
        case (nil, let sort?):
            let column = try sortColumn(cls, sort)
            keys = StudioSort.sorted(keys: column.keys, values: column.values, descending: descending)
        case (let query?, let sort):
            let matched = try matching(cls, query, column: sort)
            keys =
                sort == nil
                ? matched.keys : StudioSort.sorted(keys: matched.keys, values: matched.values, descending: descending)
        }
        cachedOrder = (id, stamp, keys)
        return keys
    }

    /// What changes when the data may have: a Porter database's change token (this connection's
    /// changes, another process's commits); a Realm file's modification time and size.
    private func dataStamp() -> String {
        switch file {
        case .porter(let db):
            let token = db.changeToken
            return "\(token.localChanges)/\(token.dataVersion)"
        case .realm:
            let state = fileState()
            return "\(state.mtime)/\(state.size)"
        }
    }

    private func allKeys(_ cls: ObjectSchema) throws -> [ObjectKey] {
        switch file {
        case .porter(let db): return try db.read { try db.allKeys(cls.name) }
        case .realm(let realm):
            guard let table = realm.table(named: cls.name) else { return [] }
            return try realm.objectKeys(in: table).map { ObjectKey($0) }
        }
    }

    /// One column's values with their objects' keys, one pair per object, in key order.
    private func sortColumn(_ cls: ObjectSchema, _ property: String) throws -> (keys: [ObjectKey], values: [Value]) {
        var keys: [ObjectKey] = []
        var values: [Value] = []
        switch file {
        case .porter(let db):
            let column = try db.read { try db.propertyValues(cls.name, property) }
            keys.reserveCapacity(column.count)
            values.reserveCapacity(column.count)
            for pair in column {
                keys.append(pair.key)
                values.append(pair.value)
            }
        case .realm(let realm):
            guard let table = realm.table(named: cls.name) else { return ([], []) }
            try realm.forEachValue(in: table, property: property) { key, value in
                keys.append(ObjectKey(key))
                values.append(try RealmValues.scalar(value, location: path))
            }
        }
        return (keys, values)
    }

    /// The keys of the objects matching a Realm Query Language predicate, in key order, with the
    /// values of `column` when asked: the shared parser and evaluator of `porter export --query`
    /// (`PorterQuery`), in the one pass over the class that export makes, for both kinds of file.
    private func matching(_ cls: ObjectSchema, _ query: String, column: String?) throws -> (
        keys: [ObjectKey], values: [Value]
    ) {
        do {
            // The query's own errors first, worded with their positions.
            _ = try QueryMatcher(parsing: query, className: cls.name, schema: schema)
            let format = try InterchangeFormats.outputFormat(named: "bson")
            let options = ExportOptions(classes: [cls.name])
            let exporter: Exporter
            switch file {
            case .porter(let db): exporter = Exporter(database: db, format: format, options: options)
            case .realm(let realm): exporter = Exporter(realmFile: realm, format: format, options: options)
            }
            exporter.selection = ExportSelection(className: cls.name, query: query)
            return try exporter.selectedKeys(of: cls.name, column: column)
        } catch let error as PorterError where error.code != .io && error.code != .notADatabase {
            // A malformed query, an unknown property, a value of the wrong type: the query's fault.
            var message = error.message
            if message.hasPrefix("--query: ") { message.removeFirst("--query: ".count) }
            throw StudioRequestError("query: \(message)")
        }
    }

    // MARK: - Objects

    /// One object's values by property, in schema order (linking objects listed by the object route).
    func values(_ cls: ObjectSchema, _ key: ObjectKey, elements: Int = StudioValues.collectionPreview) throws
        -> JSONValue
    {
        switch file {
        case .porter(let db):
            guard let snapshot = try db.read({ try db.snapshot(cls.name, key) }) else {
                throw StudioRequestError("no object \(cls.name)(\(key.rawValue))", status: 404)
            }
            return .object(
                cls.properties.filter { !$0.isComputed }.map { property in
                    JSONMember(property.name, render(snapshot[property.name] ?? .null, property, elements: elements))
                })
        case .realm(let realm):
            guard let table = realm.table(named: cls.name), let object = try realm.object(in: table, key: key.rawValue)
            else {
                throw StudioRequestError("no object \(cls.name)(\(key.rawValue))", status: 404)
            }
            return .object(
                zip(table.properties, object.values).map { property, stored in
                    JSONMember(property.name, realmJSON(stored, mixed: property.type == .mixed, elements: elements))
                })
        }
    }

    /// A Porter database's value, embedded objects in their class's property order.
    private func render(_ value: Value, _ property: Property, elements: Int) -> JSONValue {
        let mixed = property.type == .mixed
        guard property.type == .object, let target = property.objectType, let embedded = schema[target],
            embedded.isEmbedded
        else { return StudioValues.json(value, mixed: mixed, elements: elements) }
        func object(_ value: Value) -> JSONValue {
            guard case .object(let fields) = value else { return StudioValues.json(value, elements: elements) }
            let ordered = embedded.properties.filter { !$0.isComputed }.map { p -> (String, Value, Bool) in
                (p.name, fields[p.name] ?? .null, p.type == .mixed)
            }
            return embeddedJSON(target, embedded, ordered, elements: elements)
        }
        switch value {
        case .list(let items): return collection("list", items.prefix(elements).map(object), count: items.count)
        case .map(let entries):
            let shown = entries.sorted { $0.key < $1.key }.prefix(elements).map { entry -> JSONValue in
                .object([JSONMember("key", .string(entry.key)), JSONMember("value", object(entry.value))])
            }
            return collection("dictionary", Array(shown), count: entries.count)
        default: return object(value)
        }
    }

    /// An embedded object whose nested embedded objects also come in schema order.
    private func embeddedJSON(
        _ className: String, _ cls: ObjectSchema, _ fields: [(String, Value, Bool)], elements: Int
    ) -> JSONValue {
        .object([
            JSONMember("type", .string("object")), JSONMember("class", .string(className)),
            JSONMember(
                "fields",
                .object(
                    fields.map { name, value, _ in
                        let property = cls.property(named: name) ?? Property(name: name, type: .mixed)
                        return JSONMember(name, render(value, property, elements: elements))
                    })),
        ])
    }

    private func collection(_ type: String, _ items: [JSONValue], count: Int) -> JSONValue {
        .object([
            JSONMember("type", .string(type)), JSONMember("count", .int(count)), JSONMember("items", .array(items)),
        ])
    }

    /// A Realm file's value in the same JSON as a Porter database's.
    private func realmJSON(_ stored: RealmValue, mixed: Bool, elements: Int) -> JSONValue {
        switch stored {
        case .embedded(let className, _, let values):
            guard case .realm(let realm) = file, let table = realm.table(named: className) else { return .null }
            return .object([
                JSONMember("type", .string("object")), JSONMember("class", .string(className)),
                JSONMember(
                    "fields",
                    .object(
                        zip(table.properties, values).map { property, value in
                            JSONMember(
                                property.name, realmJSON(value, mixed: property.type == .mixed, elements: elements))
                        })),
            ])
        case .link(let className, let key):
            return StudioValues.json(.link(ObjectLink(className, ObjectKey(key))), mixed: mixed)
        case .list(let items):
            return collection(
                "list", items.prefix(elements).map { realmJSON($0, mixed: mixed, elements: elements) },
                count: items.count)
        case .set(let items):
            return collection(
                "set", items.prefix(elements).map { realmJSON($0, mixed: mixed, elements: elements) },
                count: items.count)
        case .dictionary(let entries):
            let shown = entries.sorted { $0.key < $1.key }.prefix(elements).map { entry -> JSONValue in
                .object([
                    JSONMember("key", .string(entry.key)),
                    JSONMember("value", realmJSON(entry.value, mixed: mixed, elements: elements)),
                ])
            }
            return collection("dictionary", Array(shown), count: entries.count)
        default:
            let value = (try? RealmValues.scalar(stored, location: path)) ?? .null
            return StudioValues.json(value, mixed: mixed)
        }
    }

    /// One object with all its values and the objects linking to it.
    func object(className: String, key: Int64) throws -> JSONValue {
        let cls = try objectSchema(className)
        let values = try self.values(cls, ObjectKey(key), elements: Int.max)
        let incoming = try linkingObjects(cls, ObjectKey(key)).prefix(Self.maxPageSize).map { link, property in
            JSONValue.object([
                JSONMember("class", .string(link.className)), JSONMember("key", .int(link.key.rawValue)),
                JSONMember("property", .string(property)),
            ])
        }
        return .object([
            JSONMember("class", .string(cls.name)), JSONMember("key", .int(key)),
            JSONMember("properties", .array(cls.properties.map { Self.propertyJSON($0, cls) })),
            JSONMember("values", values), JSONMember("linkingObjects", .array(Array(incoming))),
        ])
    }

    /// The objects holding a link to `key`, with the property holding it.
    private func linkingObjects(_ cls: ObjectSchema, _ key: ObjectKey) throws -> [(ObjectLink, String)] {
        switch file {
        case .porter(let db):
            return try db.read { try db.incomingLinks(to: ObjectLink(cls.name, key)) }.map { ($0.source, $0.property) }
        case .realm(let realm):
            var out: [(ObjectLink, String)] = []
            for backlink in realm.backlinks where backlink.targetClass == cls.name {
                guard let origin = realm.table(named: backlink.originClass) else { continue }
                try realm.forEachValue(in: origin, property: backlink.originProperty) { originKey, value in
                    if Self.links(value, to: cls.name, key.rawValue) {
                        out.append((ObjectLink(backlink.originClass, ObjectKey(originKey)), backlink.originProperty))
                    }
                }
            }
            return out
        }
    }

    private static func links(_ value: RealmValue, to className: String, _ key: Int64) -> Bool {
        switch value {
        case .link(let c, let k): return c == className && k == key
        case .list(let items), .set(let items): return items.contains { links($0, to: className, key) }
        case .dictionary(let entries): return entries.contains { links($0.value, to: className, key) }
        default: return false
        }
    }
}
