import Foundation
import PorterDocument
import PorterModel

extension ObjectReader {
    /// One value or collection element of `property`; nil after recording an error.
    func readElement(
        _ value: DocumentValue, _ property: Property, _ target: ClassReadPlan?, path: () -> String,
        steps: () -> [PathStep], into result: inout ReadObject
    ) -> LinkSlot? {
        func fail(_ message: String) -> LinkSlot? {
            result.errors.append(FieldError(path: path(), message: message))
            return nil
        }
        if case .null = value {
            if property.isOptional { return .value(.null) }
            if property.isCollection {
                return fail(
                    "null is not allowed in a \(collectionName(property)) of required \(elementName(property)) values")
            }
            return fail("required property cannot be null")
        }
        switch property.type {
        case .object:
            guard let target else {
                return fail("property links to unknown class '\(property.objectType ?? "")'")
            }
            if target.isEmbedded {
                guard case .document(let doc) = value else {
                    return fail("expected an embedded \(target.name) document but got \(value.kindDescription)")
                }
                // `steps` already ends with this property (and index or key): the child's place.
                let fields = readFields(doc, target, path: path(), steps: steps(), topLevel: false, into: &result)
                var object: [String: Value] = Dictionary(minimumCapacity: fields.count)
                for (property, value) in zip(target.properties, fields) {
                    if let value { object[property.name] = value }
                }
                return .value(.object(object))
            }
            do {
                return try link(to: target, key: try linkKey(value, target), path: path)
            } catch {
                return fail(error.message)
            }
        case .mixed:
            return readMixed(value, nested: property.collection != .set, path: path, into: &result)
        default:
            do {
                return .value(try ScalarReader.read(value, as: property.type))
            } catch {
                return fail(error.message)
            }
        }
    }

    /// A link value now, or a pending reference when the target is not known yet.
    private func link(to target: ClassReadPlan, key: LinkKey, path: () -> String) throws(FieldErrorMessage) -> LinkSlot
    {
        let found: ObjectKey?
        do {
            found = try resolver.lookup(target.name, key, final: false)
        } catch let error as PorterError {
            throw FieldErrorMessage("cannot look up the link target: \(error.message)")
        } catch {
            throw FieldErrorMessage("cannot look up the link target: \(error)")
        }
        if let found { return .value(.link(ObjectLink(target.name, found))) }
        return .reference(PendingReference(targetClass: target.name, key: key, path: path()))
    }

    /// How a document names the target of a link: its primary key, or its `_key` label.
    func linkKey(_ value: DocumentValue, _ target: ClassReadPlan) throws(FieldErrorMessage) -> LinkKey {
        guard let pk = target.primaryKey else {
            switch value {
            case .int32(let i): return .label(.int(Int64(i)))
            case .int64(let i): return .label(.int(i))
            case .double(let d) where Int64(exactly: d) != nil: return .label(.int(Int64(d)))
            case .string(let s): return .label(.string(s))
            default:
                throw FieldErrorMessage(
                    "expected the _key (an integer or string label) of a \(target.name) but got \(value.kindDescription)"
                )
            }
        }
        if case .document = value {
            throw FieldErrorMessage(
                "expected the primary key of a \(target.name) (\(pk.type.rawValue)) but got a document: links are written as the target's primary key"
            )
        }
        do {
            return .primaryKey(try ScalarReader.read(value, as: pk.type))
        } catch {
            throw FieldErrorMessage("link to \(target.name): \(error.message)")
        }
    }

    /// A `mixed` value: any scalar Porter stores, a DBRef naming a link, or (where `nested`: not in
    /// a set) an array or document, which becomes a nested list or dictionary of mixed values.
    private func readMixed(_ value: DocumentValue, nested: Bool, path: () -> String, into result: inout ReadObject)
        -> LinkSlot?
    {
        func fail(_ message: String) -> LinkSlot? {
            result.errors.append(FieldError(path: path(), message: message))
            return nil
        }
        switch value {
        case .null: return .value(.null)
        case .bool(let b): return .value(.bool(b))
        case .int32(let i): return .value(.int(Int64(i)))
        case .int64(let i): return .value(.int(i))
        case .double(let d): return .value(.double(d))
        case .string(let s):
            do { try ScalarReader.checkSize(s.utf8.count, "string") } catch { return fail(error.message) }
            return .value(.string(s))
        case .binary(let d, 0), .binary(let d, 2):
            do { try ScalarReader.checkSize(d.count, "data") } catch { return fail(error.message) }
            return .value(.data(d))
        case .binary(_, 4):
            do { return .value(try ScalarReader.read(value, as: .uuid)) } catch { return fail(error.message) }
        case .binary(_, let subtype):
            return fail(
                "binary subtype 0x\(hexByte(subtype)) cannot be stored (Porter keeps data as subtype 0x00 and UUIDs as subtype 0x04)"
            )
        case .objectId(let o): return .value(.objectId(o))
        case .dateTime(let t): return .value(.date(t))
        case .decimal128(let d): return .value(.decimal128(d))
        case .dbRef(let className, let id):
            guard let target = plan(className) else {
                return fail("DBRef to unknown class '\(abbreviated(className))'")
            }
            if target.isEmbedded {
                return fail("DBRef to embedded class '\(className)': a mixed value can only link to top-level objects")
            }
            do {
                return try link(to: target, key: try linkKey(id, target), path: path)
            } catch {
                return fail(error.message)
            }
        case .document(let doc):
            guard nested else {
                return fail(
                    "a mixed value in a set cannot hold a document (only scalars, or a link written as {\"$ref\": …, \"$id\": …})"
                )
            }
            var entries: [(String, LinkSlot)] = []
            var keys: [String: String] = [:]
            var failed = false
            for (key, element) in doc.fields {
                // The store's map-key rules, checked here to name the entry.
                if let problem = mapKeyProblem(key) ?? duplicateKeyProblem(key, &keys) {
                    result.errors.append(FieldError(path: path() + "." + key, message: problem))
                    failed = true
                } else if let slot = readMixed(element, nested: true, path: { path() + "." + key }, into: &result) {
                    entries.append((key, slot))
                } else {
                    failed = true
                }
            }
            if failed { return nil }
            guard entries.contains(where: { $0.1.isPending }) else {
                var map: [String: Value] = Dictionary(minimumCapacity: entries.count)
                for (key, slot) in entries { map[key] = slot.settled }
                return .value(.map(map))
            }
            return .nestedMap(keys: entries.map { $0.0 }, slots: entries.map { $0.1 })
        case .array(let elements):
            guard nested else { return fail("a mixed value in a set cannot hold an array") }
            var slots: [LinkSlot] = []
            var failed = false
            for (i, element) in elements.enumerated() {
                if let slot = readMixed(element, nested: true, path: { path() + "." + String(i) }, into: &result) {
                    slots.append(slot)
                } else {
                    failed = true
                }
            }
            if failed { return nil }
            guard slots.contains(where: { $0.isPending }) else { return .value(.list(slots.map { $0.settled })) }
            return .nestedList(slots)
        case .unsupported(let name):
            return fail("a BSON \(name) cannot be stored in a mixed property")
        }
    }

    /// Why `key` cannot join a nested dictionary already holding `keys`, or nil (recording it).
    private func duplicateKeyProblem(_ key: String, _ keys: inout [String: String]) -> String? {
        guard let earlier = keys.updateValue(key, forKey: key) else { return nil }
        return earlier.utf8.elementsEqual(key.utf8)
            ? "duplicate key '\(abbreviated(key))' in a nested dictionary"
            : "keys '\(abbreviated(earlier))' and '\(abbreviated(key))' are canonically equivalent Unicode; a dictionary cannot hold both"
    }

    func collectionName(_ property: Property) -> String {
        switch property.collection {
        case .list: return "list"
        case .set: return "set"
        case .map: return "map"
        case .none: return "value"
        }
    }
}
