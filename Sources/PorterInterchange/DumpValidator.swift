import PorterModel

/// The `$jsonSchema` validator of a class's collection: the documents Porter's BSON export writes
/// (the export mapping of ``ExportMapper`` and the BSON encoder: int → long, float and double →
/// double, data and uuid → binData, date → date, links as the target's primary key or `_key`,
/// embedded objects as documents, lists and sets as arrays, dictionaries as documents, a link in
/// a `mixed` as a DBRef document) with MongoDB's `bsonType` keyword. Every stored property is
/// written, null included, so all are `required`; an optional one also admits `null`.
enum DumpValidator {
    /// `{ "$jsonSchema": … }` for the collection of `cls`.
    static func validator(for cls: ObjectSchema, schema: Schema) -> JSONValue {
        .object([JSONMember("$jsonSchema", objectSchema(cls, schema: schema, title: true))])
    }

    /// The schema of one document of `cls` (top-level or embedded).
    static func objectSchema(_ cls: ObjectSchema, schema: Schema, title: Bool) -> JSONValue {
        var properties: [JSONMember] = []
        var required: [JSONValue] = []
        if !cls.isEmbedded && cls.primaryKey == nil {
            properties.append(JSONMember("_key", bsonType(["long"])))
            required.append(.string("_key"))
        }
        for property in cls.persistedProperties {
            properties.append(JSONMember(property.name, propertySchema(property, schema: schema)))
            required.append(.string(property.name))
        }
        var members: [JSONMember] = [JSONMember("bsonType", .string("object"))]
        if title { members.append(JSONMember("title", .string(cls.name))) }
        members.append(JSONMember("required", .array(required)))
        members.append(JSONMember("properties", .object(properties)))
        return .object(members)
    }

    private static func propertySchema(_ property: Property, schema: Schema) -> JSONValue {
        // A dictionary of objects holds null values (a deleted target, a null entry) in Realm.
        let nullable = property.isOptional || (property.collection == .map && property.type == .object)
        let element = elementSchema(property, schema: schema, nullable: nullable)
        switch property.collection {
        case .none: return element
        case .list: return .object([JSONMember("bsonType", .string("array")), JSONMember("items", element)])
        case .set:
            return .object([
                JSONMember("bsonType", .string("array")), JSONMember("items", element),
                JSONMember("uniqueItems", .bool(true)),
            ])
        case .map:
            return .object([
                JSONMember("bsonType", .string("object")), JSONMember("additionalProperties", element),
            ])
        }
    }

    /// One value of the property (the property itself, or one element of its collection).
    private static func elementSchema(_ property: Property, schema: Schema, nullable: Bool) -> JSONValue {
        func typed(_ name: String) -> JSONValue { bsonType(nullable ? [name, "null"] : [name]) }
        switch property.type {
        case .bool: return typed("bool")
        case .int: return typed("long")
        case .float, .double: return typed("double")
        case .string: return typed("string")
        case .data, .uuid: return typed("binData")
        case .date: return typed("date")
        case .decimal128: return typed("decimal")
        case .objectId: return typed("objectId")
        case .mixed, .linkingObjects: return .object([])
        case .object:
            guard let target = property.objectType.flatMap({ schema[$0] }) else { return .object([]) }
            if target.isEmbedded {
                let document = objectSchema(target, schema: schema, title: false)
                // An embedded object is optional in Realm: a document or null.
                guard nullable, case .object(var members) = document else { return document }
                members[0] = JSONMember("bsonType", .array([.string("object"), .string("null")]))
                return .object(members)
            }
            // A link is written as its target's primary key (its `_key` without one).
            guard let key = target.primaryKey, let pk = target.property(named: key) else {
                return typed("long")
            }
            return elementSchema(pk, schema: schema, nullable: nullable || pk.isOptional)
        }
    }

    private static func bsonType(_ names: [String]) -> JSONValue {
        .object([JSONMember("bsonType", names.count == 1 ? .string(names[0]) : .array(names.map { .string($0) }))])
    }
}
