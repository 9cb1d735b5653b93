import Foundation
import PorterDocument
import PorterInterchange
import PorterModel
import PorterRealmFile
import PorterStore

extension Importer {
    /// Lets ``run(_:format:)`` import Realm files among its sources (encrypted ones with
    /// `encryptionKey`, 64 bytes), as every other source: same rules, modes and errors.
    public func readsRealmFiles(encryptionKey: [UInt8]? = nil) {
        realmEncryptionKey = encryptionKey
        realmFileReader = { importer, path in
            let file: RealmFile
            do {
                file = try RealmFile(path: path, encryptionKey: importer.realmEncryptionKey)
            } catch let error as PorterError {
                importer.problems.add(source: path, label: "", message: error.message)
                return
            }
            try importer.importRealmFile(file)
        }
    }

    /// Every top-level class of a Realm file, read by the database's schema with the same rules,
    /// modes and errors as any other source: each object as `Value`s with links by the file's
    /// object keys (``RealmValues/keyed(_:embedded:location:)``), resolved to the rows this import
    /// made for them (``Importer/importKeyed(_:className:key:values:label:document:)``); an object
    /// whose values do not fit the database's class as they are is read as the document of its
    /// export (links by primary key or `_key`, embedded objects nested, links in `mixed` as DBRefs).
    func importRealmFile(_ file: RealmFile) throws {
        report.sources.append(file.path)
        keepObjectKeys = true
        defer { keepObjectKeys = false }
        let documents = RealmDocuments(file: file)
        var tablesByName: [String: RealmTable] = [:]
        var embedded: [String: [Property]] = [:]
        for table in file.tables {
            tablesByName[table.name] = table
            if table.isEmbedded { embedded[table.name] = table.properties }
        }
        let path = file.path
        let keyed = keyedImport(source: path, schema: file.schema) { className, key in
            guard let table = tablesByName[className], let stored = try file.primaryKeyValue(in: table, key: key) else {
                return nil
            }
            return try RealmValues.scalar(stored, location: path)
        }
        let tables = file.tables.filter { !$0.isEmbedded }
        let order = dependencyOrder(tables.map(\.name))
        for table in tables.sorted(by: { (order[$0.name] ?? 0, $0.name) < (order[$1.name] ?? 0, $1.name) })
        where !problems.isFull {
            guard database.schema[table.name] != nil else {
                problems.add(
                    source: file.path, label: "",
                    message: "class '\(abbreviated(table.name))' of the Realm file is not in the database's schema")
                continue
            }
            var number = 0
            var values: [Value] = []
            try file.forEachObject(in: table) { object in
                guard !problems.isFull else { return }
                number += 1
                // Any value the conversion refuses is the document reader's to report.
                values.removeAll(keepingCapacity: true)
                var converted = true
                for stored in object.values {
                    guard let value = try? RealmValues.keyed(stored, embedded: embedded, location: path) else {
                        converted = false
                        break
                    }
                    values.append(value)
                }
                try importKeyed(
                    keyed, className: table.name, key: object.key, values: converted ? values : nil,
                    label: "\(table.name)#\(number)"
                ) { try documents.document(object, table) }
            }
        }
    }
}

/// A Realm file's objects as import documents (for the objects whose values do not fit the
/// database's class as they are).
struct RealmDocuments {
    let file: RealmFile
    private var tables: [String: RealmTable] = [:]

    init(file: RealmFile) {
        self.file = file
        for table in file.tables { tables[table.name] = table }
    }

    /// One object (top-level or embedded) as a document.
    func document(_ object: RealmObject, _ table: RealmTable) throws -> Document {
        try document(key: object.key, values: object.values, table)
    }

    private func document(key: Int64, values: [RealmValue], _ table: RealmTable) throws -> Document {
        var fields: [(key: String, value: DocumentValue)] = []
        fields.reserveCapacity(values.count + 1)
        if table.primaryKey == nil && !table.isEmbedded { fields.append(("_key", .int64(key))) }
        for i in 0..<min(values.count, table.properties.count) {
            let property = table.properties[i]
            fields.append((property.name, try value(values[i], mixed: property.type == .mixed)))
        }
        return Document(fields)
    }

    private func value(_ stored: RealmValue, mixed: Bool) throws -> DocumentValue {
        switch stored {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int64(i)
        case .float(let f): return .double(Double(f))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .binary(let d): return .binary(d, subtype: 0)
        case .timestamp(let seconds, let nanoseconds):
            return .dateTime(Timestamp(seconds: seconds, nanoseconds: nanoseconds))
        case .decimal128(let d): return .decimal128(d)
        case .objectId(let o): return .objectId(o)
        case .uuid(let u): return .binary(withUnsafeBytes(of: u.uuid) { Data($0) }, subtype: 4)
        case .link(let className, let key):
            let id = try exportedKey(className, key)
            return mixed ? .dbRef(className: className, id: id) : id
        case .embedded(let className, let key, let values):
            guard let table = tables[className] else {
                throw PorterError(
                    .notADatabase, "an embedded object of class \(className), which the file does not have",
                    location: file.path)
            }
            return .document(try document(key: key, values: values, table))
        case .list(let elements), .set(let elements):
            return .array(try elements.map { try value($0, mixed: mixed) })
        case .dictionary(let entries):
            return .document(Document(try entries.map { (key: $0.key, value: try value($0.value, mixed: mixed)) }))
        }
    }

    /// How a document names a link target: its primary key, or its `_key` (the object key).
    private func exportedKey(_ className: String, _ key: Int64) throws -> DocumentValue {
        guard let table = tables[className] else {
            throw PorterError(
                .notADatabase, "a stored link points to class \(className), which the file does not have",
                location: file.path)
        }
        guard table.primaryKey != nil else { return .int64(key) }
        guard let pk = try file.primaryKeyValue(in: table, key: key) else {
            throw PorterError(
                .notADatabase, "a stored link points to \(className) \(key), which does not exist", location: file.path)
        }
        return try value(pk, mixed: false)
    }
}

extension Importer {
    /// Imports every object of a Realm file in one transaction, all or nothing.
    @discardableResult
    public func run(realmFile: RealmFile) throws -> ImportReport {
        try transaction { try importRealmFile(realmFile) }
    }
}
