import Foundation
import Hummingbird
import PorterModel
import PorterStore

/// `--write` on a Porter database: changes inside an explicit write transaction (Begin, then
/// edits, then Commit or Cancel), each checked by the engine, whose error the page shows. On a
/// Realm file the same, in its working copy (``StudioRealmCopy``), and `write/save` writes the file.
///
/// Routes (all POST, JSON bodies): `write/begin`, `write/commit`, `write/cancel`, `write/save`,
/// `classes/:class/objects/:key/set` `{"property": P, "value": TEXT|null}`,
/// `classes/:class/create` `{"values": {P: TEXT, …}}`, `classes/:class/objects/:key/delete`.
/// Values come as text, read by the property's type (as the page shows them): dates ISO 8601,
/// decimals, ObjectIds and UUIDs in their canonical text, `true`/`false`.
enum StudioWrites {
    static func add(to api: RouterGroup<BasicRequestContext>, store: StudioStore) {
        api.get("write") { _, _ in
            try await StudioServer.answer { try await store.access { state(store) } }
        }
        api.post("write/:action") { _, context in
            try await StudioServer.answer {
                let action = try context.parameters.require("action")
                return try await store.access {
                    let db = try database(store)
                    switch action {
                    case "begin":
                        try db.beginWrite()
                        store.transactionChanged = false
                    case "commit":
                        try db.commitWrite()
                        // A transaction whose every edit failed changed nothing Save would write.
                        if store.transactionChanged { store.realmCopy?.committed() }
                        store.transactionChanged = false
                    case "save":
                        guard let copy = store.realmCopy else {
                            throw StudioRequestError(
                                "Save writes a Realm file opened with --write; a Porter database is saved by Commit")
                        }
                        try copy.save()
                    case "cancel":
                        guard db.isInWriteTransaction else {
                            throw StudioRequestError("no write transaction to cancel")
                        }
                        db.cancelWrite()
                        store.transactionChanged = false
                    default:
                        throw StudioRequestError("unknown write action '\(action)' (begin, commit, cancel, save)")
                    }
                    return state(store)
                }
            }
        }
        api.post("classes/:class/objects/:key/set") { request, context in
            try await StudioServer.answer {
                let className = try context.parameters.require("class")
                let key = try objectKey(context)
                let body = try await jsonBody(request)
                guard let property = body["property"]?.stringValue else {
                    throw StudioRequestError("the body needs \"property\": the name of the property to set")
                }
                let text = body["value"]
                return try await store.access {
                    let db = try database(store)
                    let cls = try store.objectSchema(className)
                    guard let prop = cls.property(named: property) else {
                        throw StudioRequestError("class \(className) has no property '\(property)'")
                    }
                    try requireTransaction(db)
                    try db.set(className, key, property, try value(text ?? .null, for: prop, in: cls))
                    store.transactionChanged = true
                    return try store.object(className: className, key: key.rawValue)
                }
            }
        }
        api.post("classes/:class/create") { request, context in
            try await StudioServer.answer {
                let className = try context.parameters.require("class")
                let body = try await jsonBody(request)
                let fields = body["values"]?.objectMembers ?? []
                return try await store.access {
                    let db = try database(store)
                    let cls = try store.objectSchema(className)
                    try requireTransaction(db)
                    var values: [String: Value] = [:]
                    for field in fields {
                        guard let prop = cls.property(named: field.key) else {
                            throw StudioRequestError("class \(className) has no property '\(field.key)'")
                        }
                        values[field.key] = try value(field.value, for: prop, in: cls)
                    }
                    let key = try db.create(className, values)
                    store.transactionChanged = true
                    return try store.object(className: className, key: key.rawValue)
                }
            }
        }
        api.post("classes/:class/objects/:key/delete") { _, context in
            try await StudioServer.answer {
                let className = try context.parameters.require("class")
                let key = try objectKey(context)
                return try await store.access {
                    let db = try database(store)
                    _ = try store.objectSchema(className)
                    try requireTransaction(db)
                    try db.delete(className, key)
                    store.transactionChanged = true
                    return state(store)
                }
            }
        }
    }

    /// Whether writes are allowed and a transaction is open; for a Realm file's working copy, the
    /// commits not saved yet, the saves and the backup path.
    static func state(_ store: StudioStore) -> JSONValue {
        var open = false
        if store.writable, case .porter(let db) = store.file { open = db.isInWriteTransaction }
        var members = [JSONMember("writable", .bool(store.writable)), JSONMember("inTransaction", .bool(open))]
        if let copy = store.realmCopy {
            members += [
                JSONMember("realmFile", .bool(true)), JSONMember("unsaved", .int(copy.unsavedCommits)),
                JSONMember("saves", .int(copy.saves)),
                JSONMember("backup", copy.backupPath.map { JSONValue.string($0) } ?? .null),
            ]
        }
        return .object(members)
    }

    private static func database(_ store: StudioStore) throws -> Database {
        guard store.writable, case .porter(let db) = store.file else {
            throw StudioRequestError("the studio is read-only: start it with --write to edit")
        }
        return db
    }

    private static func requireTransaction(_ db: Database) throws {
        guard db.isInWriteTransaction else { throw StudioRequestError("begin a write transaction first (Begin)") }
    }

    private static func objectKey(_ context: BasicRequestContext) throws -> ObjectKey {
        let text = try context.parameters.require("key")
        guard let key = Int64(text) else { throw StudioRequestError("object key '\(text)' is not an integer") }
        return ObjectKey(key)
    }

    private static func jsonBody(_ request: Request) async throws -> JSONValue {
        var request = request
        let buffer = try await request.collectBody(upTo: 1 << 20)
        let text = String(buffer: buffer)
        do {
            let value = try JSONValue.parse(text)
            guard value.objectMembers != nil else { throw StudioRequestError("the body must be a JSON object") }
            return value
        } catch let error as PorterError {
            throw StudioRequestError("the body is not JSON: \(error.message)")
        }
    }

    /// A value for `property` from the page's text (or JSON null).
    static func value(_ json: JSONValue, for property: Property, in cls: ObjectSchema) throws -> Value {
        let place = "\(cls.name).\(property.name)"
        if json.isNull { return .null }
        guard !property.isCollection, !property.isComputed, property.type != .object else {
            throw StudioRequestError("\(place): the studio edits scalar properties only (\(property.typeShorthand))")
        }
        let text = json.stringValue ?? json.numberText ?? json.boolValue.map { $0 ? "true" : "false" } ?? ""
        func bad(_ what: String) -> StudioRequestError {
            StudioRequestError("\(place): '\(text)' is not \(what)")
        }
        switch property.type {
        case .bool:
            guard text == "true" || text == "false" else { throw bad("true or false") }
            return .bool(text == "true")
        case .int:
            guard let i = Int64(text) else { throw bad("an integer") }
            return .int(i)
        case .float:
            guard let f = Float(text) else { throw bad("a number") }
            return .float(f)
        case .double:
            guard let d = Double(text) else { throw bad("a number") }
            return .double(d)
        case .string, .mixed:
            return .string(text)
        case .date:
            guard let t = try? Timestamp(iso8601: text) else { throw bad("an ISO 8601 date") }
            return .date(t)
        case .decimal128:
            guard let d = try? Decimal128(string: text) else { throw bad("a decimal") }
            return .decimal128(d)
        case .objectId:
            guard let o = try? ObjectId(string: text) else { throw bad("an ObjectId (24 hex digits)") }
            return .objectId(o)
        case .uuid:
            guard let u = UUID(uuidString: text) else { throw bad("a UUID") }
            return .uuid(u)
        case .data:
            guard let d = Data(base64Encoded: text) else { throw bad("base64") }
            return .data(d)
        case .object, .linkingObjects:
            throw StudioRequestError("\(place): links are not edited by the studio")
        }
    }
}
