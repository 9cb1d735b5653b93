import Foundation

/// Turns Swift values holding objects into stored values: links to managed objects, unmanaged
/// top-level objects added to the realm first, embedded objects as nested `.object` fields.
/// One writer serves one operation (`add`, a property assignment, a collection change) and
/// remembers which objects it made managed, so a failure can make them unmanaged again.
public final class _PorterWriter {
    enum Mode {
        /// Adding objects with this update policy.
        case add(UpdatePolicy)
        /// Encoding a query argument: managed objects only.
        case query
        /// Encoding a schema default: no objects at all.
        case schemaDefault
    }

    let realm: Realm?
    let mode: Mode
    /// Objects added by this writer, so each is added once even in a cycle.
    private var added: [ObjectIdentifier: ObjectKey] = [:]
    /// Objects this writer made managed, in order.
    private(set) var attached: [ObjectBase] = []
    /// Properties of added objects whose unmanaged values may hold other objects: released when
    /// the write commits (see ``Realm/commitWrite()``).
    private(set) var objectHolding: [AnyPersistedProperty] = []

    init(realm: Realm?, mode: Mode) {
        self.realm = realm
        self.mode = mode
    }

    /// The writer for schema defaults: it refuses objects.
    static var schemaDefaults: _PorterWriter { _PorterWriter(realm: nil, mode: .schemaDefault) }

    /// A link to a top-level object, adding it (and what it links to) when it is unmanaged.
    func link(to object: ObjectBase) throws -> Value {
        let className = type(of: object).className()
        guard let realm else {
            throw PorterError(.invalidValue, "an object cannot be a default value", location: className)
        }
        if object is EmbeddedObject {
            throw PorterError(
                .invalidValue, "embedded objects cannot be linked to, only assigned to one parent", location: className)
        }
        if let managed = object._managed {
            guard managed.realm.database === realm.database else {
                throw PorterError(
                    .usage, "the object is managed by another realm; add a copy instead: \(className)(value: object)",
                    location: className)
            }
            return .link(managed.link)
        }
        guard case .add(let policy) = mode else {
            throw PorterError(
                .usage, "an unmanaged object cannot be used here; add it to the realm first", location: className)
        }
        let key = try add(object, policy: policy, in: realm)
        return .link(ObjectLink(className, key))
    }

    /// The fields of an unmanaged embedded object, as a nested `.object` the engine creates.
    func embedded(_ object: ObjectBase) throws -> Value {
        let className = type(of: object).className()
        guard let realm, case .add = mode else {
            throw PorterError(
                .invalidValue, "an embedded object cannot be a default value or a query argument", location: className)
        }
        if object._managed != nil {
            throw PorterError(
                .invalidValue,
                "this embedded object already belongs to a parent; assign a copy instead: \(className)(value: object)",
                location: className)
        }
        let schema = try realm.objectSchema(for: type(of: object))
        var fields: [String: Value] = [:]
        for (name, property) in object._persistedProperties() {
            guard let stored = schema.property(named: name), !stored.isComputed else { continue }
            fields[name] = try property.encodeUnmanaged(self)
        }
        return .object(fields)
    }

    /// Adds an unmanaged top-level object: first its plain values (so it has a key that objects
    /// linking back to it can use), then its links, mixed values and collections of those.
    /// Returns its key; the object is managed from then on.
    func add(_ object: ObjectBase, policy: UpdatePolicy, in realm: Realm) throws -> ObjectKey {
        if let key = added[ObjectIdentifier(object)] { return key }
        let schema = try realm.objectSchema(for: type(of: object))
        if schema.isEmbedded {
            throw PorterError(
                .usage, "embedded objects cannot be added on their own; assign them to a parent's property",
                location: schema.name)
        }
        if case .error = policy, let layout = try? realm.rowLayout(of: type(of: object), schema.name), layout.isFlat {
            return try addFlat(object, layout, in: realm)
        }
        var plain: [String: Value] = [:]
        var linking: [(name: String, property: AnyPersistedProperty, stored: Property)] = []
        for (name, property) in object._persistedProperties() {
            guard let stored = schema.property(named: name), !stored.isComputed else { continue }
            if stored.type == .object || stored.type == .mixed {
                linking.append((name, property, stored))
            } else {
                plain[name] = try property.encodeUnmanaged(self)
            }
        }
        let key = try realm.database.create(schema.name, plain, update: policy)
        added[ObjectIdentifier(object)] = key
        attach(object, ObjectLink(schema.name, key), realm)
        guard !linking.isEmpty else { return key }
        var values: [String: Value] = [:]
        for entry in linking { values[entry.name] = try entry.property.encodeUnmanaged(self) }
        try realm.database.update(schema.name, key, values, policy: policy == .modified ? .modified : .all)
        for entry in linking {
            try attachEmbedded(
                entry.property.embeddedObjects(), owner: ObjectLink(schema.name, key), property: entry.stored)
        }
        objectHolding += linking.map(\.property)
        return key
    }

    /// Adds an object of a flat class (see ``RowLayout/isFlat``): its values by column position,
    /// one INSERT after checks, so a failure leaves nothing behind.
    private func addFlat(_ object: ObjectBase, _ layout: RowLayout, in realm: Realm) throws -> ObjectKey {
        var columns = [Value?](repeating: nil, count: layout.columnCount)
        for (field, column) in layout.fieldColumns(of: object) {
            guard let column else { continue }
            columns[column] = try field.reader.encodeUnmanaged(in: object, at: field.offset, name: field.name, self)
        }
        let key = try realm.database.createRow(layout.className, columns)
        // Not remembered in `added`: the object links to nothing that could lead back to it, and
        // once managed it is linked to, not added, by the rest of this operation.
        attach(object, ObjectLink(layout.className, key), realm)
        return key
    }

    /// Whether adding an object of this class is one INSERT after checks that change nothing
    /// (no links, mixed values or collections to write, no existing object to update), so that a
    /// failure cannot leave part of it behind.
    static func isSingleInsert(_ realm: Realm, _ type: ObjectBase.Type, _ className: String, _ policy: UpdatePolicy)
        -> Bool
    {
        guard case .error = policy, let layout = try? realm.rowLayout(of: type, className) else { return false }
        return layout.isFlat
    }

    /// Makes the Swift embedded objects just stored under `owner.property` managed, pairing them
    /// with the stored links (single, in list order, or by map key), then their own embedded objects.
    func attachEmbedded(_ objects: [(key: String?, object: ObjectBase)], owner: ObjectLink, property: Property) throws {
        guard let realm, !objects.isEmpty, property.type == .object,
            let target = property.objectType, realm.database.schema[target]?.isEmbedded == true
        else { return }
        try attachEmbedded(objects, stored: try realm.database.value(owner.className, owner.key, property.name))
    }

    /// Makes Swift embedded objects managed, pairing them with `stored`: one link, a list of
    /// links in the same order, or a map of links by key.
    func attachEmbedded(_ objects: [(key: String?, object: ObjectBase)], stored: Value) throws {
        guard let realm, !objects.isEmpty else { return }
        var pairs: [(ObjectBase, ObjectLink)] = []
        switch stored {
        case .link(let link):
            pairs = objects.prefix(1).map { ($0.object, link) }
        case .list(let links):
            for (entry, value) in zip(objects, links) {
                if case .link(let link) = value { pairs.append((entry.object, link)) }
            }
        case .map(let links):
            for entry in objects {
                if let key = entry.key, case .link(let link)? = links[key] { pairs.append((entry.object, link)) }
            }
        default:
            break
        }
        for (object, link) in pairs {
            attach(object, link, realm)
            guard let schema = realm.database.schema[link.className] else { continue }
            for (name, child) in object._persistedProperties() {
                if let childProperty = schema.property(named: name), childProperty.type == .object {
                    try attachEmbedded(child.embeddedObjects(), owner: link, property: childProperty)
                }
            }
        }
    }

    private func attach(_ object: ObjectBase, _ link: ObjectLink, _ realm: Realm) {
        object._managed = ManagedState(
            realm: realm, className: link.className, key: link.key, addedIn: realm.core.writeAttachment)
        attached.append(object)
    }

    /// Makes every object this writer attached unmanaged again (after its operation failed).
    func detachAll() {
        for object in attached { object._managed = nil }
        attached.removeAll()
        objectHolding.removeAll()
    }
}
