import Foundation
import PorterModel

/// `<Collection>.metadata.json`: what mongodump writes beside each `.bson` file (and inside an
/// archive's prelude) and mongorestore reads to recreate a collection's indexes and options.
///
/// Porter writes the form mongodump 100.x writes (canonical Extended JSON): an `_id_` index and one
/// ascending index per indexed property. On import, the indexes are compared with the schema's
/// `indexed` properties (differences are warnings); options Porter has no use for are ignored.
package enum DumpMetadata {
    /// `Dog.metadata.json` for the class file `Dog.bson`.
    public static let fileSuffix = ".metadata.json"

    /// The metadata document of a class, as one line of canonical Extended JSON: its collection
    /// (the class name unless `collection` says otherwise) and, with `validator`, the collection
    /// options that make mongorestore create it validated.
    public static func json(for cls: ObjectSchema, collection: String? = nil, validator: JSONValue? = nil) -> String {
        func int(_ n: Int) -> JSONValue { .object(["$numberInt": .string(String(n))]) }
        func index(_ field: String, name: String, unique: Bool) -> JSONValue {
            var members = [JSONMember("v", int(2)), JSONMember("key", .object([JSONMember(field, int(1))]))]
            members.append(JSONMember("name", .string(name)))
            if unique { members.append(JSONMember("unique", .bool(true))) }
            return .object(members)
        }
        var indexes = [index("_id", name: "_id_", unique: false)]
        for property in cls.persistedProperties where property.name != "_id" {
            let isKey = property.name == cls.primaryKey
            guard isKey || property.isIndexed else { continue }
            indexes.append(index(property.name, name: property.name + "_1", unique: isKey))
        }
        var members = [
            JSONMember("indexes", .array(indexes)),
            JSONMember("collectionName", .string(collection ?? cls.name)),
            JSONMember("type", .string("collection")),
        ]
        if let validator {
            members.append(
                JSONMember(
                    "options",
                    .object([
                        JSONMember("validator", validator), JSONMember("validationLevel", .string("strict")),
                        JSONMember("validationAction", .string("error")),
                    ])))
        }
        let document: JSONValue = .object(members)
        return document.serialized(pretty: false)
    }

    /// Warnings comparing a metadata document's indexes with the class's indexed properties;
    /// a metadata text that is not JSON is one warning (the documents can still be imported).
    public static func indexWarnings(_ text: String, for cls: ObjectSchema, source: String) -> [String] {
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(text)
        } catch {
            return ["warning: \(source): metadata is not valid JSON; its indexes were not checked"]
        }
        var warnings: [String] = []
        var dumpIndexed: Set<String> = []
        for index in parsed["indexes"]?.arrayValue ?? [] {
            let keys = index["key"]?.objectMembers?.map(\.key) ?? []
            let name = index["name"]?.stringValue ?? keys.joined(separator: "_")
            guard keys != ["_id"] else { continue }
            guard keys.count == 1, let field = keys.first else {
                warnings.append(
                    "warning: \(source): index '\(name)' on \(keys.joined(separator: ", ")) spans several fields; Realm indexes single properties, so it is not kept"
                )
                continue
            }
            if let kind = index["key"]?[field]?.stringValue {
                // text, 2dsphere, hashed, …: kinds of index Realm does not have.
                warnings.append(
                    "warning: \(source): index '\(name)' is a \(kind) index on '\(field)'; Realm has no such index, so it is not kept"
                )
                continue
            }
            if field.contains(".") {
                warnings.append(
                    "warning: \(source): index '\(name)' is on the nested field '\(field)'; Realm indexes top-level properties only, so it is not kept"
                )
                continue
            }
            dumpIndexed.insert(field)
            guard let property = cls.property(named: field) else {
                warnings.append(
                    "warning: \(source): index '\(name)' is on '\(field)', which \(cls.name) has no property for")
                continue
            }
            if !property.isIndexed && property.name != cls.primaryKey {
                warnings.append(
                    "warning: \(source): index '\(name)' is on \(cls.name).\(field), which the schema does not declare indexed"
                )
            }
        }
        for property in cls.persistedProperties
        where property.isIndexed && property.name != cls.primaryKey && !dumpIndexed.contains(property.name) {
            warnings.append(
                "warning: \(source): \(cls.name).\(property.name) is indexed in the schema but the dump has no index on it"
            )
        }
        return warnings
    }
}
