import Foundation
import PorterDocument
import PorterModel
import PorterStore

/// The objects of a source that names them by integer keys (a Realm file), imported as `Value`s:
/// each object's values by the source's properties, links naming the source's object keys,
/// resolved to the rows this import made for them, with no document in between.
///
/// The rules are those of any other source (``ObjectReader``): where the source's class and the
/// database's class have the same properties of the same types, an object reads as the document
/// of it would; anything else (another schema, a null in a required property, a value a rule
/// refuses) is read from the object's document (`document` of ``Importer/importKeyed(_:className:key:values:label:document:)``),
/// so every error and message is the document reader's.
package final class KeyedImport {
    /// The source, for messages.
    let source: String
    /// The source's classes (top-level and embedded).
    let sourceSchema: Schema
    /// The primary key of one of the source's objects (for a link to an object not imported yet).
    let primaryKey: (_ className: String, _ key: Int64) throws -> Value?
    /// Rows this import made, by class and source key, for the classes something can link to.
    var rows: [String: KeyedRows] = [:]
    /// How each source class reads into the database's class (nil: by its documents).
    var layouts: [String: KeyedLayout?] = [:]
    /// Classes whose layout is being worked out (an embedded cycle reads by documents).
    var working: Set<String> = []

    init(source: String, sourceSchema: Schema, primaryKey: @escaping (String, Int64) throws -> Value?) {
        self.source = source
        self.sourceSchema = sourceSchema
        self.primaryKey = primaryKey
    }
}

/// How a source class's values fill the database's class of the same name.
struct KeyedLayout {
    let plan: ClassReadPlan
    /// The plan position of each source property, in the source's order.
    let positions: [Int]
    /// Whether the source's objects carry their key as `_key` (a top-level class without a
    /// primary key), which the database's class takes as their label.
    let labelled: Bool
}

/// The rows made for a class's source objects: an array while keys are small and dense (as
/// realm-core makes them), a dictionary for the others.
struct KeyedRows {
    private var dense: [Int64] = []
    private var sparse: [Int64: ObjectKey] = [:]

    subscript(key: Int64) -> ObjectKey? {
        if key >= 0 && key < dense.count {
            let row = dense[Int(key)]
            return row == .min ? nil : ObjectKey(row)
        }
        return sparse[key]
    }

    mutating func set(_ key: Int64, _ row: ObjectKey) {
        if key >= 0 && key < max(1 << 16, Int64(dense.count) * 2) {
            if key >= dense.count { dense.append(contentsOf: repeatElement(.min, count: Int(key) - dense.count + 1)) }
            dense[Int(key)] = row.rawValue
        } else {
            sparse[key] = row
        }
    }
}

extension Importer {
    /// Starts importing a keyed source; `primaryKey` reads the primary key of one of its objects.
    package func keyedImport(
        source: String, schema: Schema, primaryKey: @escaping (String, Int64) throws -> Value?
    ) -> KeyedImport {
        let keyed = KeyedImport(source: source, sourceSchema: schema, primaryKey: primaryKey)
        // As the link resolver remembers labels: the classes some property (or any mixed) can link to.
        let classes = database.schema.classes
        let anyMixed = classes.contains { $0.persistedProperties.contains { $0.type == .mixed } }
        for cls in classes where !cls.isEmbedded {
            let target =
                anyMixed || classes.contains { $0.persistedProperties.contains { $0.objectType == cls.name } }
            if target { keyed.rows[cls.name] = KeyedRows() }
        }
        return keyed
    }

    /// Imports one object of a keyed source: `values` parallel to its class's properties in the
    /// source (nil when they could not be read as values), `document` the same object as a
    /// document, read instead wherever the values do not fit the database's class as they are.
    package func importKeyed(
        _ keyed: KeyedImport, className: String, key: Int64, values: [Value]?, label: String,
        document: () throws -> Document
    ) throws {
        guard let values, let layout = layout(keyed, className), !layout.plan.isEmbedded,
            options.mode == .insert || layout.plan.primaryKey != nil, let cls = database.schema[className],
            let read = readKeyed(keyed, values, layout, key: key)
        else {
            let doc = try document()
            let decoded = DecodedDocument(className: className, label: label, document: doc)
            guard let row = try importDocument(decoded, className: className, source: keyed.source) else { return }
            keyed.rows[className]?.set(key, row)
            return
        }
        report.count(className)
        guard let row = try store(read, cls, source: keyed.source, label: label) else { return }
        keyed.rows[className]?.set(key, row)
    }

    /// The layout of a source class, worked out once (nil: its objects are read as documents).
    private func layout(_ keyed: KeyedImport, _ className: String) -> KeyedLayout? {
        if let known = keyed.layouts[className] { return known }
        guard keyed.working.insert(className).inserted else { return nil }
        defer { keyed.working.remove(className) }
        let made = makeLayout(keyed, className)
        keyed.layouts[className] = .some(made)
        return made
    }

    /// Same properties (by name, none left over on either side, no computed one given), each of
    /// the same type, collection and target; a `_key` only where the database's class takes it.
    private func makeLayout(_ keyed: KeyedImport, _ className: String) -> KeyedLayout? {
        guard let source = keyed.sourceSchema[className], let plan = reader.plan(className),
            source.isEmbedded == plan.isEmbedded
        else { return nil }
        let labelled = !source.isEmbedded && source.primaryKey == nil
        if labelled && plan.primaryKey != nil { return nil }
        var positions: [Int] = []
        var given = Set<Int>()
        for property in source.properties {
            guard let index = plan.byName[property.name], given.insert(index).inserted else { return nil }
            let target = plan.properties[index]
            guard !target.isComputed, target.type == property.type, target.collection == property.collection
            else { return nil }
            if target.type == .object {
                guard let objectType = target.objectType, objectType == property.objectType,
                    linkable(keyed, objectType)
                else { return nil }
            }
            positions.append(index)
        }
        for (index, property) in plan.properties.enumerated() where !property.isComputed && !given.contains(index) {
            return nil
        }
        return KeyedLayout(plan: plan, positions: positions, labelled: labelled)
    }

    /// Whether links to `className` read as they are: an embedded class with a layout, or a
    /// top-level class keyed the same way in the source and the database (the same primary key
    /// of the same type, or none in both).
    private func linkable(_ keyed: KeyedImport, _ className: String) -> Bool {
        guard let source = keyed.sourceSchema[className], let plan = reader.plan(className),
            source.isEmbedded == plan.isEmbedded
        else { return false }
        if plan.isEmbedded { return layout(keyed, className) != nil }
        guard let pk = plan.primaryKey else { return source.primaryKey == nil }
        return source.primaryKeyProperty.map { $0.name == pk.name && $0.type == pk.type } ?? false
    }

    /// A top-level object's values as the reader would read its document; nil where they do not
    /// fit as they are.
    private func readKeyed(_ keyed: KeyedImport, _ values: [Value], _ layout: KeyedLayout, key: Int64) -> ReadObject? {
        guard values.count == layout.positions.count else { return nil }
        let plan = layout.plan
        var result = ReadObject()
        result.properties = plan.properties
        result.primaryKeyIndex = plan.primaryKeyIndex
        var fields = [Value?](repeating: nil, count: plan.properties.count)
        for (i, value) in values.enumerated() {
            let index = layout.positions[i]
            guard let read = keyedProperty(keyed, value, plan, index, into: &result) else { return nil }
            fields[index] = read
        }
        result.fields = fields
        if layout.labelled { result.label = .int(key) }
        return result
    }

    /// One property's value (pending links deferred as the reader defers them); nil where the
    /// value does not fit.
    private func keyedProperty(
        _ keyed: KeyedImport, _ value: Value, _ plan: ClassReadPlan, _ index: Int, into result: inout ReadObject
    ) -> Value? {
        let property = plan.properties[index]
        let target = plan.targets[index].map { reader.plans[$0] }
        switch property.collection {
        case .none:
            guard let slot = keyedElement(keyed, value, property, target, path: property.name) else { return nil }
            if case .value(let v) = slot { return v }
            result.deferred.append(DeferredProperty(ownerSteps: [], property: property.name, value: .single(slot)))
            return .null
        case .list, .set:
            let elements: [Value]
            switch value {
            case .list(let e), .set(let e): elements = e
            default: return nil
            }
            var slots: [LinkSlot] = []
            slots.reserveCapacity(elements.count)
            var pending = false
            for (i, element) in elements.enumerated() {
                guard let slot = keyedElement(keyed, element, property, target, path: property.name + "." + String(i))
                else { return nil }
                if slot.isPending { pending = true }
                slots.append(slot)
            }
            if property.collection == .set, reader.firstDuplicate(slots) != nil { return nil }
            if pending {
                result.deferred.append(
                    DeferredProperty(
                        ownerSteps: [], property: property.name,
                        value: property.collection == .list ? .list(slots) : .set(slots)))
                return property.collection == .list ? .list([]) : .set([])
            }
            let read = slots.map(\.settled)
            return property.collection == .list ? .list(read) : .set(read)
        case .map:
            guard case .map(let entries) = value else { return nil }
            var map: [String: Value] = Dictionary(minimumCapacity: entries.count)
            for (key, element) in entries {
                // A pending link in a map reads by the document (its entries' order names them).
                guard reader.mapKeyProblem(key) == nil,
                    case .value(let read)? = keyedElement(keyed, element, property, target, path: "")
                else { return nil }
                map[key] = read
            }
            return .map(map)
        }
    }

    /// One value or collection element, as ``ObjectReader/readElement`` reads it.
    private func keyedElement(
        _ keyed: KeyedImport, _ value: Value, _ property: Property, _ target: ClassReadPlan?, path: String
    ) -> LinkSlot? {
        if case .null = value { return property.isOptional ? .value(.null) : nil }
        switch property.type {
        case .object:
            guard let target else { return nil }
            if target.isEmbedded {
                guard case .object(let fields) = value, let layout = layout(keyed, target.name),
                    let object = keyedEmbedded(keyed, fields, layout)
                else { return nil }
                return .value(object)
            }
            guard case .link(let link) = value, link.className == target.name else { return nil }
            return keyedLink(keyed, target, link.key.rawValue, path: path)
        case .mixed:
            return keyedMixed(keyed, value, nested: property.collection != .set, path: path)
        default:
            return Self.keyedScalar(value, property.type).map { .value($0) }
        }
    }

    /// An embedded object's fields (every property of its class given); nil where they do not fit
    /// or a link in them waits (a pending link in an embedded object reads by the document).
    private func keyedEmbedded(_ keyed: KeyedImport, _ fields: [String: Value], _ layout: KeyedLayout) -> Value? {
        guard fields.count == layout.positions.count else { return nil }
        var object: [String: Value] = Dictionary(minimumCapacity: fields.count)
        var scratch = ReadObject()
        for (name, value) in fields {
            guard let index = layout.plan.byName[name],
                let read = keyedProperty(keyed, value, layout.plan, index, into: &scratch), scratch.deferred.isEmpty
            else { return nil }
            object[name] = read
        }
        return .object(object)
    }

    /// A `mixed` value as the reader reads its document form (a float widened to a double, as
    /// documents carry it); nil where it does not fit.
    private func keyedMixed(_ keyed: KeyedImport, _ value: Value, nested: Bool, path: String) -> LinkSlot? {
        switch value {
        case .null, .bool, .int, .double, .objectId, .uuid, .date, .decimal128: return .value(value)
        case .float(let f): return .value(.double(Double(f)))
        case .string(let s): return s.utf8.count > Database.maxBinarySize ? nil : .value(value)
        case .data(let d): return d.count > Database.maxBinarySize ? nil : .value(value)
        case .link(let link):
            guard let target = reader.plan(link.className), !target.isEmbedded, linkable(keyed, link.className) else {
                return nil
            }
            return keyedLink(keyed, target, link.key.rawValue, path: path)
        case .list(let elements):
            guard nested else { return nil }
            var slots: [LinkSlot] = []
            slots.reserveCapacity(elements.count)
            for (i, element) in elements.enumerated() {
                guard let slot = keyedMixed(keyed, element, nested: true, path: path + "." + String(i)) else {
                    return nil
                }
                slots.append(slot)
            }
            guard slots.contains(where: \.isPending) else { return .value(.list(slots.map(\.settled))) }
            return .nestedList(slots)
        case .map(let entries):
            guard nested else { return nil }
            var map: [String: Value] = Dictionary(minimumCapacity: entries.count)
            for (key, element) in entries {
                // A pending link in a dictionary reads by the document (its entries' order names them).
                guard reader.mapKeyProblem(key) == nil,
                    case .value(let read)? = keyedMixed(keyed, element, nested: true, path: "")
                else { return nil }
                map[key] = read
            }
            return .value(.map(map))
        case .set, .object:
            return nil
        }
    }

    /// A link to the source object `key` of `target`: the row this import made for it, else what
    /// the document's key (its primary key or `_key`) finds now, else a pending reference.
    private func keyedLink(_ keyed: KeyedImport, _ target: ClassReadPlan, _ key: Int64, path: String) -> LinkSlot? {
        if let row = keyed.rows[target.name]?[key] { return .value(.link(ObjectLink(target.name, row))) }
        let linkKey: LinkKey
        if let pk = target.primaryKey {
            // A missing target or unreadable key: the document reader reports it.
            guard let stored = try? keyed.primaryKey(target.name, key), let value = Self.keyedScalar(stored, pk.type)
            else { return nil }
            linkKey = .primaryKey(value)
        } else {
            linkKey = .label(.int(key))
        }
        let found: ObjectKey?
        do {
            found = try resolver.lookup(target.name, linkKey, final: false)
        } catch {
            return nil  // the document reader reports it
        }
        if let found { return .value(.link(ObjectLink(target.name, found))) }
        return .reference(PendingReference(targetClass: target.name, key: linkKey, path: path))
    }

    /// A scalar of `type` as ``ScalarReader`` reads its document form: the same value, where the
    /// kinds agree, a float is not NaN (a NaN's payload need not survive the double it travels
    /// as) and strings and data are within the store's limit; nil otherwise.
    static func keyedScalar(_ value: Value, _ type: PropertyType) -> Value? {
        switch (type, value) {
        case (.bool, .bool), (.int, .int), (.double, .double), (.date, .date), (.decimal128, .decimal128),
            (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.float, .float(let f)): return f.isNaN ? nil : value
        case (.string, .string(let s)): return s.utf8.count > Database.maxBinarySize ? nil : value
        case (.data, .data(let d)): return d.count > Database.maxBinarySize ? nil : value
        default: return nil
        }
    }
}
