import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// What reading one document produced.
struct ReadObject {
    /// Values for the store by position in the class's declared properties (nil: not given);
    /// links not yet resolvable hold placeholders. Positions avoid hashing every field name.
    var fields: [Value?] = []
    /// The class's properties, parallel to `fields`.
    var properties: [Property] = []
    /// The primary key's position in `fields`, for a class with one.
    var primaryKeyIndex: Int?
    /// The document's `_key` label, for a class without a primary key.
    var label: ImportLabel?
    /// Properties to complete once every document has been read.
    var deferred: [DeferredProperty] = []
    /// Every problem found, with its field path.
    var errors: [FieldError] = []

    /// The value given for a property, by name.
    func value(_ name: String) -> Value? {
        guard let index = properties.firstIndex(where: { $0.name == name }) else { return nil }
        return fields[index]
    }

    /// The given values keyed by property name (for the store's update API).
    var dictionary: [String: Value] {
        var out: [String: Value] = Dictionary(minimumCapacity: fields.count)
        for (property, value) in zip(properties, fields) { if let value { out[property.name] = value } }
        return out
    }
}

/// Reads documents by the schema: matches fields to properties, reads each value with the forms
/// its type accepts, recurses into embedded objects, and turns link keys into links (or pending
/// references). It reports every bad field of a document, not just the first.
final class ObjectReader {
    let schema: Schema
    let options: ImportOptions
    let resolver: LinkResolver
    let plans: [ClassReadPlan]
    let planIndex: [String: Int]
    /// Missing required fields given their zero value with `--fill-missing`, per `Class.property`.
    var filled: [String: Int] = [:]

    init(schema: Schema, options: ImportOptions, resolver: LinkResolver) {
        self.schema = schema
        self.options = options
        self.resolver = resolver
        (plans, planIndex) = ClassReadPlan.plans(for: schema)
    }

    /// The plan of a class of the schema.
    func plan(_ className: String) -> ClassReadPlan? {
        planIndex[className].map { plans[$0] }
    }

    /// Reads a top-level document of `cls`.
    func read(_ doc: Document, as cls: ObjectSchema) -> ReadObject {
        var result = ReadObject()
        guard let plan = plan(cls.name) else {
            result.errors.append(FieldError(path: "", message: "no class named '\(cls.name)' in the schema"))
            return result
        }
        result.properties = plan.properties
        result.primaryKeyIndex = plan.primaryKeyIndex
        result.fields = readFields(doc, plan, path: "", steps: [], topLevel: true, into: &result)
        if let pkIndex = plan.primaryKeyIndex, result.fields[pkIndex] == nil, let pk = plan.primaryKey,
            !doc.fields.contains(where: { $0.key == pk.name }),
            pk.defaultValue == nil, !pk.isOptional, pk.type == .int || pk.type == .string
        {
            result.errors.append(FieldError(path: pk.name, message: "missing primary key field '\(pk.name)'"))
        }
        return result
    }

    /// The fields of one object (top-level or embedded), by position in the class's properties.
    func readFields(
        _ doc: Document, _ plan: ClassReadPlan, path: String, steps: [PathStep], topLevel: Bool,
        into result: inout ReadObject
    ) -> [Value?] {
        let count = plan.properties.count
        var values = [Value?](repeating: nil, count: count)
        // Per property: 0 not seen, 1 read, 2 failed (so duplicates are noticed either way).
        // On the stack: one document's worth, and readFields recurses for embedded objects.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { state in
            state.initialize(repeating: 0)
            readFields(
                doc, plan, path: path, steps: steps, topLevel: topLevel, values: &values, state: state, into: &result)
            return values
        }
    }

    private func readFields(
        _ doc: Document, _ plan: ClassReadPlan, path: String, steps: [PathStep], topLevel: Bool,
        values: inout [Value?], state: UnsafeMutableBufferPointer<UInt8>, into result: inout ReadObject
    ) {
        var unknown: Set<String> = []
        var expected = 0
        for (key, value) in doc.fields {
            // A hostile document may hold a million bad fields: stop at the error limit.
            if result.errors.count >= options.maxErrors { break }
            let fieldPath = path.isEmpty ? key : path + "." + key
            guard let index = plan.index(of: key, expected: expected) else {
                if !unknown.insert(key).inserted {
                    result.errors.append(FieldError(path: fieldPath, message: "duplicate field '\(abbreviated(key))'"))
                } else if topLevel, key == "_key", plan.primaryKey == nil {
                    readLabel(value, fieldPath, into: &result)
                } else if key == "_id", plan.isEmbedded {
                    result.errors.append(
                        FieldError(
                            path: fieldPath,
                            message:
                                "embedded objects have no _id ('\(plan.name)' is an embedded class without a primary key)"
                        ))
                } else if !options.ignoreUnknown {
                    result.errors.append(
                        FieldError(
                            path: fieldPath,
                            message:
                                "unknown field (class '\(plan.name)' has no property '\(abbreviated(key))'; use --ignore-unknown to skip it)"
                        ))
                }
                continue
            }
            expected = index + 1
            if state[index] != 0 {
                result.errors.append(FieldError(path: fieldPath, message: "duplicate field '\(abbreviated(key))'"))
                continue
            }
            state[index] = 2
            if plan.infos[index].property.isComputed {
                if !options.ignoreUnknown {
                    result.errors.append(
                        FieldError(
                            path: fieldPath,
                            message: "'\(key)' is a computed linkingObjects property and cannot be imported"))
                }
                continue
            }
            if let read = readProperty(value, plan, index, path: fieldPath, steps: steps, into: &result) {
                values[index] = read
                state[index] = 1
            }
        }
        if options.mode != .merge { checkRequired(plan, path: path, values: &values, state: state, into: &result) }
        // Upsert replaces objects: every field the document leaves out goes back to its default.
        if topLevel, options.mode == .upsert {
            for (index, property) in plan.properties.enumerated()
            where state[index] == 0 && !property.isComputed && property.name != plan.primaryKey?.name {
                values[index] = Database.defaultValue(for: property)
            }
        }
    }

    /// A required field the document leaves out is an error, unless the schema declares a default
    /// (which the store fills in) or `--fill-missing` asks for the type's zero value. Merge
    /// imports update present fields only, so they are not checked.
    private func checkRequired(
        _ plan: ClassReadPlan, path: String, values: inout [Value?],
        state: UnsafeMutableBufferPointer<UInt8>, into result: inout ReadObject
    ) {
        for index in plan.requiredIndexes where state[index] == 0 {
            let property = plan.properties[index]
            if options.fillMissing {
                values[index] = Database.defaultValue(for: property)
                filled["\(plan.name).\(property.name)", default: 0] += 1
            } else {
                let fieldPath = path.isEmpty ? property.name : path + "." + property.name
                result.errors.append(
                    FieldError(
                        path: fieldPath,
                        message:
                            "missing required field '\(property.name)' (\(plan.name).\(property.name) has no default; pass --fill-missing to use \(Self.zeroDescription(property)))"
                    ))
            }
        }
    }

    /// How the zero value of a property's type reads in messages.
    static func zeroDescription(_ property: Property) -> String {
        switch Database.defaultValue(for: property) {
        case .string: return "\"\""
        case .date: return "1970-01-01T00:00:00Z"
        case .bool(let b): return String(b)
        case .int, .double, .float, .decimal128: return "0"
        case .data: return "empty data"
        case .objectId: return "the zero ObjectId"
        case .uuid: return "the zero UUID"
        default: return "its zero value"
        }
    }

    private func readLabel(_ value: DocumentValue, _ path: String, into result: inout ReadObject) {
        switch value {
        case .int32(let i): result.label = .int(Int64(i))
        case .int64(let i): result.label = .int(i)
        case .double(let d) where Int64(exactly: d) != nil: result.label = .int(Int64(d))
        case .string(let s): result.label = .string(s)
        default:
            result.errors.append(
                FieldError(
                    path: path, message: "_key must be an integer or a string label, not \(value.kindDescription)"))
        }
    }

    /// One property's value; nil after recording an error.
    private func readProperty(
        _ value: DocumentValue, _ plan: ClassReadPlan, _ index: Int, path: String, steps: [PathStep],
        into result: inout ReadObject
    ) -> Value? {
        // Through the class instance: a local `Property` would be a copy of all its strings.
        let info = plan.infos[index]
        let target = plan.targets[index].map { plans[$0] }
        let errorCount = result.errors.count
        var slots: [LinkSlot] = []
        var hasReference = false
        // Element paths and steps are built only when needed (errors, embedded objects, pending links).
        func element(_ v: DocumentValue, _ elementPath: () -> String, _ step: () -> [PathStep]) -> LinkSlot? {
            let slot = readElement(
                v, info.property, target, path: elementPath, steps: { steps + step() }, into: &result)
            if slot?.isPending == true { hasReference = true }
            return slot
        }
        switch info.property.collection {
        case .none:
            guard let slot = element(value, { path }, { [.property(info.property.name)] }) else { return nil }
            if case .value(let v) = slot { return v }
            result.deferred.append(
                DeferredProperty(ownerSteps: steps, property: info.property.name, value: .single(slot)))
            return .null
        case .list, .set:
            guard case .array(let elements) = value else {
                result.errors.append(
                    FieldError(
                        path: path,
                        message:
                            "expected an array (\(info.property.collection == .list ? "list" : "set") of \(elementName(info.property))) but got \(value.kindDescription)"
                    ))
                return nil
            }
            slots.reserveCapacity(elements.count)
            for (i, v) in elements.enumerated() {
                if let slot = element(v, { path + "." + String(i) }, { [.property(info.property.name), .index(i)] }) {
                    slots.append(slot)
                }
            }
            guard result.errors.count == errorCount else { return nil }
            if info.property.collection == .set, let duplicate = firstDuplicate(slots) {
                result.errors.append(FieldError(path: path, message: "duplicate set element \(duplicate)"))
                return nil
            }
            if hasReference {
                result.deferred.append(
                    DeferredProperty(
                        ownerSteps: steps, property: info.property.name,
                        value: info.property.collection == .list ? .list(slots) : .set(slots)))
                return info.property.collection == .list ? .list([]) : .set([])
            }
            let values = slots.map { if case .value(let v) = $0 { return v } else { return Value.null } }
            return info.property.collection == .list ? .list(values) : .set(values)
        case .map:
            guard case .document(let doc) = value else {
                result.errors.append(
                    FieldError(
                        path: path,
                        message:
                            "expected a document (map of \(elementName(info.property))) but got \(value.kindDescription)"
                    ))
                return nil
            }
            var entries: [(String, LinkSlot)] = []
            var keys: [String: String] = [:]
            for (key, v) in doc.fields {
                let entryPath = path + "." + key
                if let problem = mapKeyProblem(key) {
                    result.errors.append(FieldError(path: entryPath, message: problem))
                    continue
                }
                if let earlier = keys.updateValue(key, forKey: key) {
                    let message =
                        earlier.utf8.elementsEqual(key.utf8)
                        ? "duplicate map key '\(abbreviated(key))'"
                        : "map keys '\(abbreviated(earlier))' and '\(abbreviated(key))' are canonically equivalent Unicode; a map cannot hold both"
                    result.errors.append(FieldError(path: entryPath, message: message))
                    continue
                }
                if let slot = element(v, { entryPath }, { [.property(info.property.name), .key(key)] }) {
                    entries.append((key, slot))
                }
            }
            guard result.errors.count == errorCount else { return nil }
            if hasReference {
                result.deferred.append(
                    DeferredProperty(ownerSteps: steps, property: info.property.name, value: .map(entries)))
                return .map([:])
            }
            var map: [String: Value] = Dictionary(minimumCapacity: entries.count)
            for (key, slot) in entries { if case .value(let v) = slot { map[key] = v } }
            return .map(map)
        }
    }

    /// Why a map key is not allowed, or nil (the store's rule, checked here to name the entry).
    func mapKeyProblem(_ key: String) -> String? {
        if key.hasPrefix("$") { return "invalid map key '\(abbreviated(key))': keys must not start with '$'" }
        if key.contains(".") { return "invalid map key '\(abbreviated(key))': keys must not contain '.'" }
        if key.utf8.contains(0) { return "invalid map key '\(abbreviated(key))': keys must not contain NUL" }
        return nil
    }

    func firstDuplicate(_ slots: [LinkSlot]) -> String? {
        var seenValues = Set<Value>()
        var seenKeys = Set<LinkKey>()
        for slot in slots {
            switch slot {
            case .value(let v):
                if !seenValues.insert(v).inserted { return describeKey(v) }
            case .reference(let ref):
                if !seenKeys.insert(ref.key).inserted { return ref.key.description }
            case .nestedList, .nestedMap:
                continue  // Sets never hold nested collections (the reader refuses them).
            }
        }
        return nil
    }

    func elementName(_ property: Property) -> String {
        let base = property.type == .object ? (property.objectType ?? "?") : property.type.rawValue
        return base + (property.isOptional && property.type != .mixed ? "?" : "")
    }
}
