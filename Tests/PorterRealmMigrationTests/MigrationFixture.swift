import Foundation
import PorterTestSupport
import PorterDiff
import PorterMigration
import PorterModel
import PorterRealmFile

/// The realm-core-made file the column-migration tests start from (Fixtures/realm/column-migration,
/// made by `realm-oracle make` from `make-fixture.py`): 700 `Person` objects with a primary key
/// (inner cluster nodes), every scalar type, indexed string and `string[]`, list/set/dictionary,
/// links, lists of links, embedded objects to-one and in a list; 300 `Dog` objects without a
/// primary key (a dictionary and a set of links); 7 `Tag` objects. Schema version 3.
enum MigrationFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/realm/column-migration")

    /// A file migrations start from: the Realm file, its schema as `porter schema` prints it, its version.
    struct Base: Sendable {
        var realm: String
        var schemaFile: String
        var version: UInt64

        static let columnMigration = Base(
            realm: directory.appendingPathComponent("column-migration.realm").path,
            schemaFile: "column-migration.v3.json", version: 3)
        /// Fixtures/realm/every-type.realm (realm-core-made): every type, `mixed` values linking to two classes.
        static let everyType = Base(
            realm: directory.deletingLastPathComponent().appendingPathComponent("every-type.realm").path,
            schemaFile: "every-type.v7.json", version: 7)
        /// Real files of older formats (`../shared/realm-files`): Realm JS's (23), realm-core's upgrade tests' (22, 23).
        static func shared(_ name: String) -> Base {
            Base(
                realm: SharedRealmFiles.path("\(name).realm"),
                schemaFile: "\(name).v0.json", version: 0)
        }
    }

    static let realm = Base.columnMigration.realm

    /// A copy of the fixture as `name` in `dir`.
    static func copy(as name: String = "app.realm", in dir: URL, base: Base = .columnMigration) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: base.realm, toPath: path)
        return path
    }

    /// A base's schema (as `porter schema` prints it) at `version`, edited by `edit`
    /// (class name → properties as JSON objects; a `_primaryKey` entry names a new class's primary key).
    static func schema(
        version: Int, base: Base = .columnMigration, _ edit: (inout [String: [String: Any]]) -> Void = { _ in }
    ) throws -> Schema {
        let data = try Data(contentsOf: directory.appendingPathComponent(base.schemaFile))
        let original = try Schema(jsonBytes: [UInt8](data))
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        var properties: [String: [String: Any]] = [:]
        var embedded: Set<String> = []
        for cls in json["classes"] as! [[String: Any]] {
            properties[cls["name"] as! String] = cls["properties"] as? [String: Any]
            if cls["embedded"] as? Bool == true { embedded.insert(cls["name"] as! String) }
        }
        edit(&properties)
        // Written by hand, in a stable order (the fixture's, then new ones by name): a dictionary's
        // order changes from run to run, and property order is part of a schema.
        func text(_ value: Any) throws -> String {
            String(
                decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]),
                as: UTF8.self)
        }
        var classes: [String] = []
        for name in properties.keys.sorted() {
            var props = properties[name]!
            let primaryKey = props.removeValue(forKey: "_primaryKey") as? String ?? original[name]?.primaryKey
            let known = original[name]?.properties.map(\.name) ?? []
            let order = known.filter { props[$0] != nil } + props.keys.filter { !known.contains($0) }.sorted()
            var parts = ["\"name\": \(try text(name))"]
            if embedded.contains(name) { parts.append("\"embedded\": true") }
            if let pk = primaryKey, props[pk] != nil {
                parts.append("\"primaryKey\": \(try text(pk))")
            }
            parts.append(
                "\"properties\": {"
                    + (try order.map { "\(try text($0)): \(try text(props[$0]!))" }).joined(separator: ", ") + "}")
            classes.append("{" + parts.joined(separator: ", ") + "}")
        }
        return try Schema(
            jsonString: "{\"schemaVersion\": \(version), \"classes\": [" + classes.joined(separator: ", ") + "]}")
    }

    /// Every object of every class, in a form that does not depend on object keys a migration
    /// may choose: objects by primary key (else key), links as the target's primary key, embedded
    /// objects inline without their keys.
    static func canonicalDump(_ path: String, key: [UInt8]? = nil) throws -> [String: [String]] {
        let file = try RealmFile(path: path, encryptionKey: key)
        var out: [String: [String]] = [
            "schema": [try file.schema.jsonString()], "version": ["\(file.schemaVersion ?? -1)"],
        ]
        for table in file.tables where !table.isEmbedded {
            var objects: [String] = []
            try file.forEachObject(in: table) { object in
                let values = zip(table.properties, object.values).map { "\($0.name)=\(canonical($1, file))" }
                let identity = table.primaryKey == nil ? "_key \(object.key)" : ""
                objects.append(([identity] + values).joined(separator: " "))
            }
            out[table.name] = objects.sorted()
        }
        return out
    }

    static func canonical(_ value: RealmValue, _ file: RealmFile) -> String {
        switch value {
        case .link(let className, let key):
            let pk = file.table(named: className).flatMap { try? file.primaryKeyValue(in: $0, key: key) }
            return "→\(className)(\(pk.map { canonical($0, file) } ?? "_key \(key)"))"
        case .embedded(let className, _, let values):
            return "\(className){" + values.map { canonical($0, file) }.joined(separator: ", ") + "}"
        case .list(let items): return "[" + items.map { canonical($0, file) }.joined(separator: ", ") + "]"
        case .set(let items): return "<" + items.map { canonical($0, file) }.sorted().joined(separator: ", ") + ">"
        case .dictionary(let entries):
            return "{" + entries.map { "\($0.key): \(canonical($0.value, file))" }.sorted().joined(separator: ", ")
                + "}"
        default: return "\(value)"
        }
    }

    /// A report without what differs between two runs (the path, the time).
    static func comparable(_ report: MigrationReport) -> MigrationReport {
        var report = report
        report.path = ""
        report.duration = 0
        report.backupPath = report.backupPath.map { URL(fileURLWithPath: $0).lastPathComponent }
        return report
    }
}
