import Foundation

/// Schema files: a realm-js-like JSON form of a ``Schema``.
///
/// ```json
/// { "schemaVersion": 1,
///   "classes": [
///     { "name": "Dog", "primaryKey": "_id",
///       "properties": { "_id": "objectId", "name": { "type": "string", "indexed": true },
///                       "owner": "Person?", "toys": "DogToy[]", "tags": "string<>", "ratings": "int?{}" } } ] }
/// ```
///
/// Reading checks the *shape* of the file (JSON syntax, known keys, well-formed type strings);
/// whether the schema makes sense (link targets exist, primary key types, …) is checked by
/// ``validate()``, which reports every problem at once.
extension Schema {
    /// Reads a schema file's bytes (UTF-8 JSON).
    /// - Throws: ``PorterError/Code/invalidSchema`` for invalid JSON or a malformed schema, with the
    ///   JSON path of the problem (`classes[2].properties.name`) as the location.
    public init(jsonBytes: some Collection<UInt8>) throws {
        let json: JSONValue
        do {
            json = try JSONValue.parse(jsonBytes)
        } catch let error as PorterError {
            throw PorterError(.invalidSchema, "invalid JSON: \(error.message)")
        }
        try self.init(json: json)
    }

    /// Reads a schema from JSON text; see ``init(jsonBytes:)``.
    public init(jsonString: String) throws {
        try self.init(jsonBytes: Array(jsonString.utf8))
    }

    /// Reads a schema from an already parsed JSON document; see ``init(jsonBytes:)``.
    public init(json: JSONValue) throws {
        self = try SchemaJSONReader.schema(from: json)
    }

    /// Reads a schema file.
    /// - Throws: ``PorterError/Code/io`` when the file cannot be read, else the errors of
    ///   ``init(jsonBytes:)`` with the path put in front of the location (`dog.json:classes[0]`).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PorterError(.io, "cannot read schema file: \(error.localizedDescription)", location: path)
        }
        do {
            try self.init(jsonBytes: data)
        } catch let error as PorterError {
            throw error.located(in: path)
        }
    }

    /// The normalized schema file text: classes by name, each with `name`, `embedded` (only when
    /// true), `primaryKey` (only when set) and `properties` in declared order; a property is its
    /// type shorthand unless it needs the full form. Pretty output ends with a newline.
    public func jsonString(pretty: Bool = true) -> String {
        jsonValue.serialized(pretty: pretty) + (pretty ? "\n" : "")
    }

    /// The normalized schema file as a JSON document; see ``jsonString(pretty:)``.
    public var jsonValue: JSONValue {
        .object([
            JSONMember("schemaVersion", .number(version)),
            JSONMember("classes", .array(classes.map(\.jsonValue))),
        ])
    }
}

extension ObjectSchema {
    /// The class as it appears in a schema file's `classes` array.
    public var jsonValue: JSONValue {
        var members = [JSONMember("name", .string(name))]
        if isEmbedded { members.append(JSONMember("embedded", .bool(true))) }
        if let primaryKey { members.append(JSONMember("primaryKey", .string(primaryKey))) }
        members.append(JSONMember("properties", .object(properties.map { JSONMember($0.name, $0.jsonValue) })))
        return .object(members)
    }
}

extension Property {
    /// The property as it appears in a schema file: the type shorthand (`string?`, `Dog[]`) when
    /// that says everything, else the full form `{ "type": …, "indexed": …, "default": … }`.
    public var jsonValue: JSONValue {
        let plainTarget = type != .object || objectType.map(TypeShorthand.isPlainClassName) == true
        if !isIndexed && defaultValue == nil && type != .linkingObjects && plainTarget {
            return .string(typeShorthand)
        }
        var members: [JSONMember] = []
        switch type {
        case .linkingObjects:
            members.append(JSONMember("type", .string(typeShorthand)))
            if let objectType { members.append(JSONMember("objectType", .string(objectType))) }
            if let linkOriginProperty { members.append(JSONMember("property", .string(linkOriginProperty))) }
        case .object where !plainTarget:
            // A class name that looks like a type string goes in `objectType`, taken verbatim.
            var link = self
            link.objectType = "object"
            members.append(JSONMember("type", .string(link.typeShorthand)))
            if let objectType { members.append(JSONMember("objectType", .string(objectType))) }
        default:
            members.append(JSONMember("type", .string(typeShorthand)))
        }
        if isIndexed { members.append(JSONMember("indexed", .bool(true))) }
        if let defaultValue {
            members.append(JSONMember("default", DefaultValueJSON.json(for: defaultValue, of: self)))
        }
        return .object(members)
    }
}
