import Foundation
import PorterDocument
import PorterModel
import PorterQuery

/// `--fields`: the kept fields of a document, in schema order. A dotted path into an embedded
/// object keeps those of its fields; one through a link to a top-level object becomes a nested
/// document of the target's kept fields (as mongoexport's `--fields owner.name`), read through the
/// query reader.
extension ExportMapper {
    func writeProjected(
        _ fields: [ExportField], _ values: [Value], owner: ObjectLink, _ projection: ExportProjection,
        to encoder: DocumentEncoder
    ) throws {
        for i in 0..<min(fields.count, values.count) {
            let field = fields[i]
            guard let node = projection.node(field.name) else { continue }
            if node.wholeField || node.children.isEmpty {
                if field.collection == .none {
                    try writeElement(field.name, field, values[i], to: encoder)
                } else {
                    try writeCollection(field, values[i], owner: owner.className, to: encoder)
                }
                continue
            }
            if case .link(let link) = values[i], field.isObject, let child = try cursor.embedded(link) {
                // An embedded object: its kept fields, from the values the stream holds.
                try encoder.openDocument(field.name)
                try writeProjected(
                    child.properties.map(ExportField.init), child.values, owner: link, node, to: encoder)
                try encoder.closeDocument()
                continue
            }
            guard let reader, let property = node.property else { continue }
            // A link to a top-level object (the stream holds its exported key): read the target.
            guard case .link(let target) = try reader.value(property, of: owner) else { continue }
            try writeLinked(field.name, node, target, reader: reader, to: encoder)
        }
    }

    /// The kept fields of a linked object, as a nested document.
    private func writeLinked(
        _ key: String?, _ node: ExportProjection, _ target: ObjectLink, reader: any QueryObjectReader,
        to encoder: DocumentEncoder
    ) throws {
        try encoder.openDocument(key)
        for (name, child) in node.children {
            guard let property = child.property else { continue }
            let value = try reader.value(property, of: target)
            if child.wholeField || child.children.isEmpty {
                try writeRead(name, property, value, reader: reader, to: encoder)
            } else if case .link(let next) = value {
                try writeLinked(name, child, next, reader: reader, to: encoder)
            }
        }
        try encoder.closeDocument()
    }

    /// A whole value read through the reader, written as the export writes it: links as the
    /// target's exported key (a DBRef in a mixed), embedded objects as documents, collections as
    /// arrays (sets sorted) and documents (keys sorted).
    private func writeRead(
        _ key: String?, _ property: Property, _ value: Value, reader: any QueryObjectReader,
        to encoder: DocumentEncoder
    ) throws {
        var element = property
        element.collection = .none
        let mixed = property.type == .mixed
        switch value {
        case .link(let link):
            if mixed {
                try encoder.openDocument(key)
                try encoder.write("$ref", .string(link.className), mixed: false)
                try encoder.write("$id", try cursor.exportedKey(of: link), mixed: false)
                return try encoder.closeDocument()
            }
            guard let embedded = projection?.embeddedClasses[link.className] else {
                return try encoder.write(key, try cursor.exportedKey(of: link), mixed: false)
            }
            try encoder.openDocument(key)
            for child in embedded where !child.isComputed {
                try writeRead(child.name, child, try reader.value(child, of: link), reader: reader, to: encoder)
            }
            try encoder.closeDocument()
        case .list(let items), .set(let items):
            var ordered = items
            if case .set = value { ordered.sort(by: ExportOrder.less) }
            try encoder.openArray(key)
            for item in ordered { try writeRead(nil, element, item, reader: reader, to: encoder) }
            try encoder.closeArray()
        case .map(let entries):
            try encoder.openDocument(key)
            for entryKey in entries.keys.sorted(by: ExportOrder.utf8Less) {
                try writeRead(entryKey, element, entries[entryKey] ?? .null, reader: reader, to: encoder)
            }
            try encoder.closeDocument()
        default:
            try encoder.write(key, value, mixed: mixed)
        }
    }
}
