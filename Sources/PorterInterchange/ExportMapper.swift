import Foundation

/// The document mapping rules of an export: turns stored objects into encoder calls.
///
/// Fields follow schema order (`linkingObjects` are skipped); a top-level class without a primary
/// key gets its object key as `_key` first; links become the target's primary key (or `_key`);
/// embedded objects become nested documents; sets are sorted into one deterministic order and maps
/// by key; a link held by a `mixed` becomes `{ "$ref": Class, "$id": key }`.
final class ExportMapper {
    let database: Database
    let schema: Schema

    init(database: Database) {
        self.database = database
        schema = database.schema
    }

    /// Writes one top-level object as one document.
    func writeDocument(_ object: DynamicObject, _ cls: ObjectSchema, to encoder: DocumentEncoder) throws {
        try encoder.beginDocument()
        if cls.primaryKey == nil {
            try encoder.write("_key", .int(object.key.rawValue), mixed: false)
        }
        try writeFields(object, to: encoder)
        try encoder.endDocument()
    }

    /// The stored properties of an object, in schema order.
    private func writeFields(_ object: DynamicObject, to encoder: DocumentEncoder) throws {
        for (property, value) in zip(object.properties, object.values) where !property.isComputed {
            try writeProperty(property, value, object, to: encoder)
        }
    }

    private func writeProperty(_ property: Property, _ value: Value, _ owner: DynamicObject, to encoder: DocumentEncoder) throws {
        switch (property.collection, value) {
        case (.none, _):
            try writeElement(property.name, property, value, to: encoder)
        case (.list, .list(let elements)):
            try encoder.openArray(property.name)
            for element in elements { try writeElement(nil, property, element, to: encoder) }
            try encoder.closeArray()
        case (.set, .set(let elements)), (.set, .list(let elements)):
            // Stored sets come back in storage order, which for links depends on object keys;
            // sorting the exported values makes the order independent of the database.
            var exported = try elements.map { try exportedElement($0, property) }
            exported.sort(by: ExportOrder.less)
            try encoder.openArray(property.name)
            for element in exported { try writeExported(nil, element, mixed: property.type == .mixed, to: encoder) }
            try encoder.closeArray()
        case (.map, .map(let entries)):
            try encoder.openDocument(property.name)
            for key in entries.keys.sorted(by: ExportOrder.utf8Less) {
                try writeElement(key, property, entries[key] ?? .null, to: encoder)
            }
            try encoder.closeDocument()
        default:
            throw PorterError(.notADatabase, "stored value of \(owner.className)(\(owner.key)).\(property.name) is \(value.kindName), not a \(property.collection.rawValue)")
        }
    }

    /// One value (a property's value or one collection element).
    private func writeElement(_ key: String?, _ property: Property, _ value: Value, to encoder: DocumentEncoder) throws {
        if case .link(let link) = value {
            if property.type == .object, let target = schema[link.className], target.isEmbedded {
                guard let child = try database.object(link.className, link.key) else {
                    throw PorterError(.notADatabase, "embedded object \(link) is missing", location: property.name)
                }
                try encoder.openDocument(key)
                try writeFields(child, to: encoder)
                return try encoder.closeDocument()
            }
        }
        try writeExported(key, try exportedElement(value, property), mixed: property.type == .mixed, to: encoder)
    }

    private func writeExported(_ key: String?, _ element: ExportedElement, mixed: Bool, to encoder: DocumentEncoder) throws {
        switch element {
        case .scalar(let value):
            try encoder.write(key, value, mixed: mixed)
        case .reference(let className, let id):
            guard mixed else { return try encoder.write(key, id, mixed: false) }
            try encoder.openDocument(key)
            try encoder.write("$ref", .string(className), mixed: false)
            try encoder.write("$id", id, mixed: false)
            try encoder.closeDocument()
        }
    }

    /// A stored value in exported form: links become the target's primary key (or `_key`).
    private func exportedElement(_ value: Value, _ property: Property) throws -> ExportedElement {
        guard case .link(let link) = value else { return .scalar(value) }
        return .reference(link.className, try exportedKey(of: link))
    }

    /// The primary key of a link target, or its object key when its class has none.
    func exportedKey(of link: ObjectLink) throws -> Value {
        guard let target = schema[link.className] else {
            throw PorterError(.notADatabase, "a stored link points to unknown class '\(link.className)'")
        }
        guard target.primaryKey != nil else { return .int(link.key.rawValue) }
        guard let pk = try database.primaryKeyValue(link.className, link.key) else {
            throw PorterError(.notADatabase, "a stored link points to \(link), which does not exist")
        }
        return pk
    }
}

/// An exported collection element: a scalar, or a link as (target class, exported key).
enum ExportedElement {
    case scalar(Value)
    case reference(String, Value)
}
