import Foundation
import PorterDocument
import PorterModel
import PorterQuery

/// The document mapping rules of an export: turns stored objects into encoder calls.
///
/// Fields follow schema order (`linkingObjects` are skipped); a top-level class without a primary
/// key gets its object key as `_key` first; links become the target's primary key (or `_key`);
/// embedded objects become nested documents; sets are sorted into one deterministic order and maps
/// by key; a link held by a `mixed` becomes `{ "$ref": Class, "$id": key }`; a list or dictionary
/// nested in a `mixed` becomes an array or a document (keys sorted), to any depth.
final class ExportMapper {
    let cursor: ExportObjectSource
    /// The exported class's fields, and those of embedded classes met so far.
    private let topFields: [ExportField]
    private var embeddedFields: [String: [ExportField]] = [:]
    /// `--fields`: what to keep (nil: everything); `reader` reads what it takes through links.
    let projection: ExportProjection?
    let reader: (any QueryObjectReader)?

    init(cursor: ExportObjectSource, projection: ExportProjection? = nil, reader: (any QueryObjectReader)? = nil) {
        self.cursor = cursor
        topFields = cursor.properties.map(ExportField.init)
        self.projection = projection
        self.reader = reader
    }

    /// Writes one object of the cursor's class as one document.
    func writeDocument(_ cls: ObjectSchema, key: ObjectKey, values: [Value], to encoder: DocumentEncoder) throws {
        try encoder.beginDocument()
        if cls.primaryKey == nil {
            try encoder.write("_key", .int(key.rawValue), mixed: false)
        }
        if let projection {
            try writeProjected(topFields, values, owner: ObjectLink(cls.name, key), projection, to: encoder)
        } else {
            try writeFields(topFields, values, owner: cls.name, to: encoder)
        }
        try encoder.endDocument()
    }

    /// The stored properties of an object, in schema order.
    private func writeFields(_ fields: [ExportField], _ values: [Value], owner: String, to encoder: DocumentEncoder)
        throws
    {
        for i in 0..<min(fields.count, values.count) {
            let field = fields[i]
            if field.collection == .none {
                try writeElement(field.name, field, values[i], to: encoder)
            } else {
                try writeCollection(field, values[i], owner: owner, to: encoder)
            }
        }
    }

    func writeCollection(_ field: ExportField, _ value: Value, owner: String, to encoder: DocumentEncoder)
        throws
    {
        switch (field.collection, value) {
        case (.list, .list(let elements)):
            try encoder.openArray(field.name)
            for element in elements { try writeElement(nil, field, element, to: encoder) }
            try encoder.closeArray()
        case (.set, .set(let elements)), (.set, .list(let elements)):
            // Sorting the exported values makes the order independent of object keys and of
            // how the database happens to store the set.
            var exported = try elements.map { try exportedElement($0) }
            exported.sort(by: ExportOrder.less)
            try encoder.openArray(field.name)
            for element in exported { try writeExported(nil, element, mixed: field.mixed, to: encoder) }
            try encoder.closeArray()
        case (.map, .map(let entries)):
            try encoder.openDocument(field.name)
            for key in entries.keys.sorted(by: ExportOrder.utf8Less) {
                try writeElement(key, field, entries[key] ?? .null, to: encoder)
            }
            try encoder.closeDocument()
        default:
            throw PorterError(
                .notADatabase,
                "stored value of \(owner).\(field.name) is \(value.kindName), not a \(field.collection.rawValue)")
        }
    }

    /// One value (a property's value or one collection element).
    func writeElement(_ key: String?, _ field: ExportField, _ value: Value, to encoder: DocumentEncoder) throws {
        switch value {
        case .link: break
        case .list(let elements) where field.mixed:
            try encoder.openArray(key)
            for element in elements { try writeElement(nil, field, element, to: encoder) }
            return try encoder.closeArray()
        case .map(let entries) where field.mixed:
            try encoder.openDocument(key)
            for entryKey in entries.keys.sorted(by: ExportOrder.utf8Less) {
                try writeElement(entryKey, field, entries[entryKey] ?? .null, to: encoder)
            }
            return try encoder.closeDocument()
        default:
            return try encoder.write(key, value, mixed: field.mixed)
        }
        guard case .link(let link) = value else { return }
        if field.isObject {
            // Links to top-level objects arrive as exported keys; a link here is an embedded object.
            guard let child = try cursor.embedded(link) else {
                throw PorterError(.notADatabase, "embedded object \(link) is missing", location: field.name)
            }
            try encoder.openDocument(key)
            try writeFields(
                fields(ofEmbedded: link.className, child.properties), child.values, owner: link.className, to: encoder)
            return try encoder.closeDocument()
        }
        try writeExported(
            key, .reference(link.className, try cursor.exportedKey(of: link)), mixed: field.mixed, to: encoder)
    }

    private func fields(ofEmbedded className: String, _ properties: [Property]) -> [ExportField] {
        if let cached = embeddedFields[className] { return cached }
        let fields = properties.map(ExportField.init)
        embeddedFields[className] = fields
        return fields
    }

    private func writeExported(_ key: String?, _ element: ExportedElement, mixed: Bool, to encoder: DocumentEncoder)
        throws
    {
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
    private func exportedElement(_ value: Value) throws -> ExportedElement {
        guard case .link(let link) = value else { return .scalar(value) }
        return .reference(link.className, try cursor.exportedKey(of: link))
    }
}

/// A stored property as the mapper needs it, computed once per class so that documents do not
/// copy (and retain the strings of) `Property` values.
final class ExportField {
    let name: String
    let collection: CollectionKind
    /// A `mixed` property: plain JSON keeps Extended JSON wrappers, links become DBRefs.
    let mixed: Bool
    /// A link property: a `.link` value is an embedded object (top-level targets arrive as keys).
    let isObject: Bool

    init(_ property: Property) {
        name = property.name
        collection = property.collection
        mixed = property.type == .mixed
        isObject = property.type == .object
    }
}

/// An exported collection element: a scalar, or a link as (target class, exported key).
enum ExportedElement {
    case scalar(Value)
    case reference(String, Value)
}
