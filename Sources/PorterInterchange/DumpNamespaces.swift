import Foundation
import PorterModel

/// Where a mongodump export puts each class: its database and collection names, and whether each
/// collection's metadata carries a `$jsonSchema` validator (so `mongorestore` creates validated
/// collections). Set by hand (`--db`, `--collection CLASS=NAME`, `--validators`) or read from an
/// exported App Services app (`--app-config`), whose `data_sources/<service>/<database>/<collection>/`
/// folders name them; an import of such a dump uses the same mapping backwards.
public struct DumpNamespaces: Sendable, Equatable {
    /// The database of every class without one of its own (nil: the folder export writes flat,
    /// as before; the archive names the exported file).
    public var database: String?
    /// The collection of each class named here (others: the class name).
    public var collections: [String: String]
    /// The database of each class the app configuration places (overrides ``database``).
    public var databases: [String: String]
    /// Writes a `$jsonSchema` validator in each collection's metadata.
    public var validators: Bool

    /// Namespaces set by hand.
    public init(
        database: String? = nil, collections: [String: String] = [:], databases: [String: String] = [:],
        validators: Bool = false
    ) {
        self.database = database
        self.collections = collections
        self.databases = databases
        self.validators = validators
    }

    /// The collection of `className`.
    public func collection(for className: String) -> String { collections[className] ?? className }

    /// The database of `className`, or nil when the export is flat.
    public func database(for className: String) -> String? { databases[className] ?? database }

    /// The class whose collection is `collection` in `database` (nil: a flat dump), when this
    /// mapping names one; else nil (the file name is the class).
    public func className(ofCollection collection: String, database: String?) -> String? {
        collections.first { cls, name in
            name == collection
                && (database == nil || self.database(for: cls) == nil || self.database(for: cls) == database)
        }?.key
    }

    /// Checks the mapping against the exported classes: every collection name is one MongoDB
    /// accepts and no two classes of one database share a collection.
    /// - Throws: ``PorterError/Code/usage`` naming the class and the name.
    public func validate(classes: [String], schema: Schema) throws {
        for cls in collections.keys where schema[cls] == nil {
            throw PorterError(.usage, "--collection \(cls)=…: the schema has no class '\(cls)'")
        }
        var seen: [String: String] = [:]
        for cls in classes {
            let name = collection(for: cls)
            if let problem = Self.problem(collection: name) {
                throw PorterError(.usage, "collection '\(name)' of class \(cls): \(problem)")
            }
            if let db = database(for: cls), let problem = Self.problem(database: db) {
                throw PorterError(.usage, "database '\(db)' of class \(cls): \(problem)")
            }
            let namespace = (database(for: cls) ?? "") + "." + name
            if let other = seen[namespace] {
                throw PorterError(
                    .usage, "classes \(other) and \(cls) would both be written to the collection '\(namespace)'")
            }
            seen[namespace] = cls
        }
    }

    /// `--collection CLASS=NAME` arguments as a class → collection map.
    /// - Throws: ``PorterError/Code/usage`` for a malformed pair, a class named twice, or a
    ///   collection name MongoDB refuses.
    public static func collectionPairs(_ arguments: [String]) throws -> [String: String] {
        var pairs: [String: String] = [:]
        for pair in arguments {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw PorterError(.usage, "--collection \(pair): write CLASS=NAME (Dog=dogs)")
            }
            let cls = String(parts[0])
            guard pairs[cls] == nil else { throw PorterError(.usage, "--collection: class \(cls) is named twice") }
            if let problem = problem(collection: String(parts[1])) {
                throw PorterError(.usage, "--collection \(pair): \(problem)")
            }
            pairs[cls] = String(parts[1])
        }
        return pairs
    }

    /// Why MongoDB refuses a collection name, or nil.
    public static func problem(collection name: String) -> String? {
        if name.isEmpty { return "a collection name cannot be empty" }
        if name.hasPrefix("system.") { return "names starting with 'system.' are MongoDB's own" }
        if name.contains("$") { return "a collection name cannot contain '$'" }
        if name.utf8.contains(0) { return "a collection name cannot contain a NUL byte" }
        return nil
    }

    /// Why MongoDB refuses a database name, or nil.
    public static func problem(database name: String) -> String? {
        if name.isEmpty { return "a database name cannot be empty" }
        if name.utf8.count >= 64 { return "a database name has fewer than 64 bytes" }
        for c in "/\\. \"$*<>:|?" where name.contains(c) { return "a database name cannot contain '\(c)'" }
        if name.utf8.contains(0) { return "a database name cannot contain a NUL byte" }
        return nil
    }
}

extension DumpNamespaces {
    /// Reads the namespaces of an exported App Services app: `DIR` is the app's root (holding
    /// `data_sources/`), its `data_sources` folder, or one service's folder below it. Each
    /// `<database>/<collection>/schema.json` names its class by `title` (the collection's name
    /// when it has none); `relationships.json` beside it must refer to links by the primary key
    /// Porter writes them as.
    /// - Throws: ``PorterError/Code/invalidInput`` naming the file and what is wrong with it.
    public static func appConfig(_ path: String, schema: Schema, classes: [String]) throws -> DumpNamespaces {
        var root = URL(fileURLWithPath: path)
        let fm = FileManager.default
        if fm.fileExists(atPath: root.appendingPathComponent("data_sources").path) {
            root = root.appendingPathComponent("data_sources")
        }
        func folders(_ url: URL) -> [URL] {
            ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).sorted().filter { !$0.hasPrefix(".") }.map {
                url.appendingPathComponent($0)
            }.filter {
                var d: ObjCBool = false; return fm.fileExists(atPath: $0.path, isDirectory: &d) && d.boolValue
            }
        }
        // data_sources/<service>/<database>/<collection>/schema.json, or, given a service folder,
        // <database>/<collection>/schema.json.
        var schemaFiles: [(database: String, collection: String, file: URL)] = []
        func collect(databasesIn service: URL) {
            for database in folders(service) {
                for collection in folders(database) {
                    let file = collection.appendingPathComponent("schema.json")
                    if fm.fileExists(atPath: file.path) {
                        schemaFiles.append((database.lastPathComponent, collection.lastPathComponent, file))
                    }
                }
            }
        }
        collect(databasesIn: root)
        if schemaFiles.isEmpty { for service in folders(root) { collect(databasesIn: service) } }
        guard !schemaFiles.isEmpty else {
            throw PorterError(
                .invalidInput,
                "no data_sources/<service>/<database>/<collection>/schema.json below it: not an exported App Services app",
                location: path)
        }
        var result = DumpNamespaces(validators: true)
        var placed: [String: String] = [:]
        for (database, collection, file) in schemaFiles {
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw PorterError(.invalidInput, "cannot read: \(error.localizedDescription)", location: file.path)
            }
            let json: JSONValue
            do {
                json = try JSONValue.parse(text)
            } catch {
                throw PorterError(.invalidInput, "not JSON: \(error)", location: file.path)
            }
            let cls = json["title"]?.stringValue ?? collection
            if let earlier = placed[cls] {
                throw PorterError(
                    .invalidInput, "class \(cls) is the collection of \(earlier) and of \(database).\(collection)",
                    location: file.path)
            }
            placed[cls] = "\(database).\(collection)"
            result.collections[cls] = collection
            result.databases[cls] = database
            let relationships = file.deletingLastPathComponent().appendingPathComponent("relationships.json")
            if let data = fm.contents(atPath: relationships.path), let objectSchema = schema[cls] {
                try checkRelationships(data, of: objectSchema, schema: schema, file: relationships.path)
            }
        }
        let missing = classes.filter { result.databases[$0] == nil }
        if !missing.isEmpty {
            throw PorterError(
                .invalidInput,
                "the app configuration has no collection for the class\(missing.count == 1 ? "" : "es") "
                    + "\(missing.joined(separator: ", ")): add its schema.json, or pass --collection CLASS=NAME and --db",
                location: path)
        }
        return result
    }

    /// `relationships.json`: `{ "owner": { "ref": "#/relationship/<service>/<db>/<collection>",
    /// "foreignKey": "_id", "isList": false } }`. Porter writes a link as its target's primary key,
    /// so a relationship that refers by another field cannot be honoured: refused.
    private static func checkRelationships(_ data: Data, of cls: ObjectSchema, schema: Schema, file: String) throws {
        guard let json = try? JSONValue.parse(data), let members = json.objectMembers else {
            throw PorterError(.invalidInput, "not a JSON object", location: file)
        }
        for member in members {
            guard let property = cls.property(named: member.key) else {
                throw PorterError(.invalidInput, "\(cls.name) has no property '\(member.key)'", location: file)
            }
            guard property.type == .object || property.type == .mixed,
                let target = property.objectType.flatMap({ schema[$0] })
            else {
                throw PorterError(.invalidInput, "\(cls.name).\(member.key) is not a link", location: file)
            }
            let foreignKey = member.value["foreignKey"]?.stringValue ?? "_id"
            let key = target.primaryKey ?? "_key"
            if foreignKey != key {
                throw PorterError(
                    .invalidInput,
                    "\(cls.name).\(member.key) refers to \(target.name) by '\(foreignKey)', but Porter writes links as "
                        + "the target's \(target.primaryKey == nil ? "object key '_key'" : "primary key '\(key)'")",
                    location: file)
            }
            let isList = member.value["isList"].flatMap { if case .bool(let b) = $0 { b } else { nil } } ?? false
            if isList != (property.collection != .none) {
                throw PorterError(
                    .invalidInput,
                    "\(cls.name).\(member.key): isList is \(isList), but the property is \(property.collection == .none ? "a single link" : "a \(property.collection.rawValue) of links")",
                    location: file)
            }
        }
    }
}
