/// Turns a parsed schema file into a ``Schema``, checking its shape and nothing more: anything a
/// ``Schema`` value can hold (duplicate names, unknown link targets, mismatched defaults) is left
/// for validation, so all of those are reported together.
enum SchemaJSONReader {
    static func schema(from json: JSONValue) throws -> Schema {
        let top = try members(of: json, at: "", allowed: ["schemaVersion", "classes"])
        var version: UInt64 = 0
        if let value = top["schemaVersion"] {
            guard let v = value.uint64Value else {
                throw failure("schemaVersion must be a non-negative integer, got \(value)", at: "schemaVersion")
            }
            version = v
        }
        guard let classesJSON = top["classes"] else { throw failure("missing key \"classes\"", at: "") }
        guard let items = classesJSON.arrayValue else {
            throw failure("\"classes\" must be an array, got \(classesJSON.kindName)", at: "classes")
        }
        let classes = try items.enumerated().map { try objectSchema(from: $0.element, at: "classes[\($0.offset)]") }
        return Schema(version: version, classes: classes)
    }

    private static func objectSchema(from json: JSONValue, at location: String) throws -> ObjectSchema {
        let fields = try members(of: json, at: location, allowed: ["name", "embedded", "primaryKey", "properties"])
        let name = try string(fields["name"], required: true, at: location + ".name") ?? ""
        let embedded = try bool(fields["embedded"], at: location + ".embedded") ?? false
        var primaryKey = try string(fields["primaryKey"], required: false, at: location + ".primaryKey")
        guard let propertiesJSON = fields["properties"] else {
            throw failure("missing key \"properties\"", at: location)
        }
        // Not `members(of:)`: a repeated property name is a validation error, not a shape error.
        guard let propertyMembers = propertiesJSON.objectMembers else {
            throw failure(
                "\"properties\" must be an object, got \(propertiesJSON.kindName)", at: location + ".properties")
        }
        var properties: [Property] = []
        for member in propertyMembers {
            let propertyLocation = "\(location).properties.\(member.key)"
            let (property, isPrimaryKey) = try self.property(
                named: member.key, from: member.value, at: propertyLocation, className: name)
            if isPrimaryKey {
                if let existing = primaryKey, existing != member.key {
                    throw failure(
                        "more than one primary key: '\(existing)' and '\(member.key)'",
                        at: propertyLocation + ".primaryKey")
                }
                primaryKey = member.key
            }
            properties.append(property)
        }
        return ObjectSchema(name: name, properties: properties, primaryKey: primaryKey, embedded: embedded)
    }

    /// Reads a shorthand string or a full-form object; also returns the full form's `primaryKey` flag.
    private static func property(named name: String, from json: JSONValue, at location: String, className: String)
        throws -> (Property, Bool)
    {
        if let text = json.stringValue {
            do {
                return (try Property(name: name, typeShorthand: text), false)
            } catch let error as PorterError {
                throw failure(error.message, at: location)
            }
        }
        guard json.objectMembers != nil else {
            throw failure("expected a type string or an object, got \(json.kindName)", at: location)
        }
        let fields = try members(
            of: json, at: location,
            allowed: ["type", "optional", "indexed", "default", "objectType", "property", "primaryKey"])
        let typeText = try string(fields["type"], required: true, at: location + ".type") ?? ""
        let shorthand: TypeShorthand
        do { shorthand = try TypeShorthand(parsing: typeText) } catch let error as PorterError {
            throw failure(error.message, at: location + ".type")
        }
        let optionalFlag = try bool(fields["optional"], at: location + ".optional")
        if shorthand.optional && optionalFlag == false {
            throw failure("\"optional\": false contradicts type '\(typeText)'", at: location + ".optional")
        }
        if shorthand.base == "mixed", optionalFlag == false {
            // realm-core's rule (object_schema.cpp) and message: a mixed value can always be null.
            throw failure(
                "Property '\(className).\(name)' of type 'Mixed' must be nullable.", at: location + ".optional")
        }
        var optional = shorthand.optional || optionalFlag == true
        let objectType = try string(fields["objectType"], required: false, at: location + ".objectType")
        let origin = try string(fields["property"], required: false, at: location + ".property")
        func require(_ value: String?, _ key: String) throws -> String {
            guard let value else { throw failure("type '\(shorthand.base)' needs \"\(key)\"", at: location) }
            return value
        }
        func forbid(_ value: String?, _ key: String, _ allowedWith: String) throws {
            if value != nil {
                throw failure("\"\(key)\" is only allowed with type \(allowedWith)", at: location + "." + key)
            }
        }
        var property: Property
        switch shorthand.base {
        case "list", "set", "map", "dictionary":
            guard shorthand.collection == .none, !shorthand.optional else {
                throw failure(
                    "type '\(typeText)': '\(shorthand.base)' takes no '?' or suffix; use \"optional\" for its elements",
                    at: location + ".type")
            }
            try forbid(origin, "property", "linkingObjects")
            let element = try require(objectType, "objectType")
            let kind: CollectionKind = shorthand.base == "list" ? .list : (shorthand.base == "set" ? .set : .map)
            if let primitive = PropertyType.primitiveNames[element] {
                property = Property(name: name, type: primitive, optional: optional, collection: kind)
            } else {
                property = Property(
                    name: name, type: .object, objectType: element, optional: optional, collection: kind)
            }
        case "object":
            try forbid(origin, "property", "linkingObjects")
            let target = try require(objectType, "objectType")
            property = Property(
                name: name, type: .object, objectType: target, optional: optional, collection: shorthand.collection)
        case "linkingObjects":
            property = Property.linkingObjects(
                name, originClass: try require(objectType, "objectType"),
                originProperty: try require(origin, "property"))
            property.collection = shorthand.collection
        default:
            try forbid(objectType, "objectType", "list, set, map, dictionary, object or linkingObjects")
            try forbid(origin, "property", "linkingObjects")
            property = try Property(name: name, typeShorthand: typeText)
            optional = optional || property.isOptional
        }
        property.isOptional = optional || property.type == .mixed
        property.isIndexed = try bool(fields["indexed"], at: location + ".indexed") ?? false
        if let json = fields["default"] {
            if let key = firstDuplicateKey(in: json) {
                throw failure("duplicate key \"\(key)\" in the default value", at: location + ".default")
            }
            property.defaultValue = DefaultValueJSON.value(from: json, for: property)
        }
        return (property, try bool(fields["primaryKey"], at: location + ".primaryKey") ?? false)
    }

    // MARK: Shape helpers

    /// The members of an object with no duplicate and no unknown keys, as a lookup table.
    private static func members(of json: JSONValue, at location: String, allowed: [String]) throws -> [String:
        JSONValue]
    {
        guard let members = json.objectMembers else {
            throw failure("expected an object, got \(json.kindName)", at: location)
        }
        if let duplicate = json.duplicateKeys.first { throw failure("duplicate key \"\(duplicate)\"", at: location) }
        var table: [String: JSONValue] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                let expected = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
                throw failure("unknown key \"\(member.key)\" (expected \(expected))", at: location)
            }
            table[member.key] = member.value
        }
        return table
    }

    private static func string(_ json: JSONValue?, required: Bool, at location: String) throws -> String? {
        guard let json else {
            if required {
                throw failure("missing key \"\(location.split(separator: ".").last ?? "")\"", at: parent(of: location))
            }
            return nil
        }
        guard let text = json.stringValue else {
            throw failure("expected a string, got \(json.kindName)", at: location)
        }
        return text
    }

    private static func bool(_ json: JSONValue?, at location: String) throws -> Bool? {
        guard let json else { return nil }
        guard let flag = json.boolValue else {
            throw failure("expected true or false, got \(json.kindName)", at: location)
        }
        return flag
    }

    private static func firstDuplicateKey(in json: JSONValue) -> String? {
        switch json {
        case .array(let items): return items.lazy.compactMap(firstDuplicateKey).first
        case .object(let members):
            return json.duplicateKeys.first ?? members.lazy.compactMap { firstDuplicateKey(in: $0.value) }.first
        default: return nil
        }
    }

    private static func parent(of location: String) -> String {
        guard let dot = location.lastIndex(of: ".") else { return "" }
        return String(location[..<dot])
    }

    private static func failure(_ message: String, at location: String) -> PorterError {
        PorterError(.invalidSchema, message, location: location.isEmpty ? nil : location)
    }
}
