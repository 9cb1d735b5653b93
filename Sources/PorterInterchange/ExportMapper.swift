import Foundation

/// The document mapping rules of an export: turns stored objects into encoder calls.
///
/// Fields follow schema order (`linkingObjects` are skipped); a top-level class without a primary
/// key gets its object key as `_key` first; links become the target's primary key (or `_key`);
/// embedded objects become nested documents; sets are sorted into one deterministic order and maps
/// by key; a link held by a `mixed` becomes `{ "$ref": Class, "$id": key }`.
final class ExportMapper {
    let cursor: ExportCursor

    init(cursor: ExportCursor) {
        self.cursor = cursor
    }

    /// Writes the cursor's current object as one document.
    func writeDocument(_ cls: ObjectSchema, to encoder: DocumentEncoder) throws {
        try encoder.beginDocument()
        if cls.primaryKey == nil {
            try encoder.write("_key", .int(cursor.key.rawValue), mixed: false)
        }
        try writeFields(cursor.properties, cursor.values, owner: cls.name, to: encoder)
        try encoder.endDocument()
    }

    /// The stored properties of an object, in schema order.
    private func writeFields(_ properties: [Property], _ values: [Value], owner: String, to encoder: DocumentEncoder) throws {
        // Indexes rather than zip: borrowing each property avoids copying (and retaining) it.
        for i in properties.indices where i < values.count {
            try writeProperty(properties[i], values[i], owner: owner, to: encoder)
        }
    }

    private func writeProperty(_ property: Property, _ value: Value, owner: String, to encoder: DocumentEncoder) throws {
        switch (property.collection, value) {
        case (.none, _):
            try writeElement(property.name, property, value, to: encoder)
        case (.list, .list(let elements)):
            try encoder.openArray(property.name)
            for element in elements { try writeElement(nil, property, element, to: encoder) }
            try encoder.closeArray()
        case (.set, .set(let elements)), (.set, .list(let elements)):
            // Sorting the exported values makes the order independent of object keys and of
            // how the database happens to store the set.
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
            throw PorterError(.notADatabase, "stored value of \(owner).\(property.name) is \(value.kindName), not a \(property.collection.rawValue)")
        }
    }

    /// One value (a property's value or one collection element).
    private func writeElement(_ key: String?, _ property: Property, _ value: Value, to encoder: DocumentEncoder) throws {
        if property.type == .object, case .link(let link) = value {
            // Links to top-level objects arrive as exported keys; a link here is an embedded object.
            guard let child = try cursor.embedded(link) else {
                throw PorterError(.notADatabase, "embedded object \(link) is missing", location: property.name)
            }
            try encoder.openDocument(key)
            try writeFields(child.properties, child.values, owner: link.className, to: encoder)
            return try encoder.closeDocument()
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

    /// A value in exported form: a link held by a mixed becomes (class, exported key).
    private func exportedElement(_ value: Value, _ property: Property) throws -> ExportedElement {
        guard case .link(let link) = value else { return .scalar(value) }
        return .reference(link.className, try cursor.exportedKey(of: link))
    }
}

/// An exported collection element: a scalar, or a link as (target class, exported key).
enum ExportedElement {
    case scalar(Value)
    case reference(String, Value)
}
