import Foundation

extension ObjectBase {
    /// A detached, unmanaged copy of `value` (Realm's "in-memory copy": `Dog(value: managedDog)`).
    ///
    /// Every persisted property with the same name and type is copied, including the objects it
    /// links to and embeds, which are copied too, once each, so links between them (and cycles)
    /// are kept. The copy never touches the database: it stays usable after the realm is gone and
    /// may be changed outside a write transaction. `LinkingObjects` of the copy are empty, as for
    /// any unmanaged object. Adding the copy with `update: .modified` writes it back.
    public convenience init(value: ObjectBase) {
        self.init()
        let copier = _DetachCopier()
        copier.register(source: value, copy: self)
        copier.copyProperties(from: value, into: self)
    }
}

/// Makes detached copies of object graphs: one copy per stored object (or per unmanaged
/// instance), so a graph keeps its shape.
public final class _DetachCopier {
    /// Identifies a source object: its stored identity when managed, the instance otherwise.
    private enum SourceKey: Hashable {
        case stored(ObjectIdentifier, String, ObjectKey)
        case instance(ObjectIdentifier)
    }

    private var copies: [SourceKey: ObjectBase] = [:]
    /// Whether copies are frozen (remember their source and refuse changes).
    let freezing: Bool

    init(freezing: Bool = false) { self.freezing = freezing }

    private func key(_ object: ObjectBase) -> SourceKey {
        if let managed = object._managed {
            return .stored(ObjectIdentifier(managed.realm.database), managed.className, managed.key)
        }
        return .instance(ObjectIdentifier(object))
    }

    /// Records that `copy` is the copy of `source`.
    func register(source: ObjectBase, copy: ObjectBase) {
        copies[key(source)] = copy
        if freezing { copy._frozenSource = source._managed ?? source._frozenSource }
    }

    /// The copy of `object` (made on first request).
    func detached<T: ObjectBase>(_ object: T) -> T {
        if let existing = copies[key(object)] as? T { return existing }
        let copy = type(of: object).init(_porterMake: ())
        register(source: object, copy: copy)
        copyProperties(from: object, into: copy)
        return copy
    }

    /// Copies each persisted property of `source` that `target` has, by name.
    func copyProperties(from source: ObjectBase, into target: ObjectBase) {
        var sourceProperties: [String: AnyPersistedProperty] = [:]
        for (name, property) in source._persistedProperties() { sourceProperties[name] = property }
        for (name, property) in target._persistedProperties() {
            guard let from = sourceProperties[name], from.typeInfo.type != .linkingObjects else { continue }
            property.assignDetached(from: from.currentValue(of: source), copier: self)
        }
    }
}
