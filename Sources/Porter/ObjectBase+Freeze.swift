import Foundation

/// Frozen objects and results: immutable snapshots of managed data, as Realm's `freeze()`.
///
/// Porter freezes by copying: a frozen object holds the values (and frozen copies of the objects
/// it links to) that were stored when it was frozen, so it can be read on any thread and never
/// changes. Its ``ObjectBase/realm`` is nil, and ``ObjectBase/thaw()`` returns the live object.
extension ObjectBase {
    /// Whether this is a frozen snapshot.
    /// (A snapshot copy, or an object read through a frozen realm.)
    public var isFrozen: Bool { _frozenSource != nil || (_managed?.realm.isFrozen ?? false) }
}

extension _ObjectObservable {
    /// A frozen snapshot of the managed object (itself when frozen already). Freezing an
    /// unmanaged object is a programming error, as in Realm.
    public func freeze() -> Self {
        if isFrozen { return self }
        guard _managed != nil else {
            preconditionFailure(
                "\(type(of: self).className()): only managed objects can be frozen: add it to a realm first")
        }
        let copier = _DetachCopier(freezing: true)
        return copier.detached(self)
    }

    /// The live object a frozen snapshot was taken from, or nil when it has been deleted since
    /// (a live object returns itself).
    public func thaw() -> Self? {
        if let managed = _managed, managed.realm.isFrozen {
            // An object of a frozen realm: the same stored object in the live realm.
            let live = managed.realm.thaw()
            guard (try? live.database.exists(managed.className, managed.key)) == true else { return nil }
            return live.managedObject(Self.self, managed.link)
        }
        guard let source = _frozenSource else { return self }
        guard (try? source.realm.reader.exists(source.className, source.key)) == true else { return nil }
        return source.realm.managedObject(Self.self, source.link)
    }
}

extension Results where Element: Object {
    /// A frozen snapshot of the results: frozen copies of the objects matching now, which never change.
    public func freeze() -> Results<Element> {
        if isFrozen { return self }
        let copier = _DetachCopier(freezing: true)
        let snapshot = Array(self).map { copier.detached($0) }
        return Results(
            realm: home, className: className, predicates: predicates, filters: filters, sortKeys: sortKeys,
            baseKeys: baseKeys, distinctPaths: distinctPaths, frozenElements: snapshot)
    }

    /// The live results a frozen snapshot was taken from.
    public func thaw() -> Results<Element> {
        Results(
            realm: home.thaw(), className: className, predicates: predicates, filters: filters, sortKeys: sortKeys,
            baseKeys: baseKeys, distinctPaths: distinctPaths)
    }
}
