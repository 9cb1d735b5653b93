import Foundation
import PorterModel
import PorterStore

/// Frozen realms, as Realm's `freeze()`: an immutable snapshot of the realm at the moment it was
/// frozen, whose objects and collections keep their values whatever is written afterwards.
///
/// A frozen realm has a connection of its own that holds one read transaction open (a file), or
/// a private copy of the data (an in-memory realm); see `Database.frozenSnapshot()`. Writes to it
/// fail with realm-core's message, and it never delivers change notifications.
extension Realm {
    /// realm-core's message for a transaction begun on a frozen realm.
    static let frozenWriteMessage = "Can't perform transactions on a frozen Realm"

    /// Whether this realm is frozen.
    public var isFrozen: Bool { core.isFrozen }

    /// A frozen snapshot of this realm (itself when frozen already).
    ///
    /// Opening the snapshot fails only when the file cannot be read any more; that stops the
    /// program, as Realm's non-throwing `freeze()` has no way to report it.
    public func freeze() -> Realm {
        if isFrozen { return self }
        do {
            let snapshot = try database.frozenSnapshot()
            let frozen = RealmCore(database: snapshot, typesByName: core.typesByName)
            frozen.isFrozen = true
            frozen.writeRefusal = PorterError(
                .usage, Realm.frozenWriteMessage,
                location: configuration.resolvedFileURL?.path ?? configuration.inMemoryIdentifier ?? "")
            frozen.notifier.seen = snapshot.changeToken
            return Realm(configuration: configuration, core: frozen)
        } catch {
            preconditionFailure("cannot freeze the realm: \(error)")
        }
    }

    /// The live realm of a frozen one (itself when live): the same configuration, opened on this thread.
    public func thaw() -> Realm {
        guard isFrozen else { return self }
        do {
            return try Realm(configuration: configuration)
        } catch {
            preconditionFailure("cannot thaw the realm: \(error)")
        }
    }

    /// A frozen copy of `object` from this realm's frozen snapshot (Realm's `realm.freeze(_:)`).
    public func freeze<T: ObjectBase>(_ object: T) -> T {
        guard let managed = object._managed else { return object.freeze() }
        if managed.realm.isFrozen { return object }
        return managed.realm.freeze().managedObject(T.self, managed.link)
    }

    /// The live object of a frozen one (nil when it was deleted since); a live object is itself.
    public func thaw<T: ObjectBase>(_ object: T) -> T? { object.thaw() }

    /// A frozen copy of a collection (Realm's `realm.freeze(_:)` of a collection).
    public func freeze<Collection: RealmCollection>(_ collection: Collection) -> Collection {
        collection.freezeThroughRealm()
    }
}

extension RealmCollection {
    /// The collection read through a frozen snapshot of its realm.
    fileprivate func freezeThroughRealm() -> Self {
        guard let observable = self as? any _ObservableCollection, let realm = observable._observedRealm else {
            preconditionFailure("Cannot freeze an unmanaged collection: add it to a realm first")
        }
        if realm.isFrozen { return self }
        return (observable._rebound(to: realm.freeze()) as any _ObservableCollection) as! Self
    }
}

/// Freezing and thawing the live collections through their realm (`_rebound(to:)` reads the same
/// property of the same object through another realm).
extension _ObservableCollection {
    /// A frozen copy: the same collection read through a frozen snapshot of its realm.
    func _frozen(_ kind: String) -> Self {
        guard let realm = _observedRealm else {
            preconditionFailure("This method may only be called on \(kind) instances retrieved from an RLMRealm")
        }
        if realm.isFrozen { return self }
        return _rebound(to: realm.freeze())
    }

    /// The live collection of a frozen one (nil when its object was deleted since).
    func _thawed() -> Self? {
        guard let realm = _observedRealm, realm.isFrozen else { return self }
        let live = realm.thaw()
        return _rebound(to: live)
    }

    /// Whether the collection belongs to a frozen realm.
    var _isFrozenCollection: Bool { _observedRealm?.isFrozen ?? false }
}

extension List {
    /// Whether the list belongs to a frozen realm.
    public var isFrozen: Bool { _isFrozenCollection }
    /// A frozen snapshot of the managed list; freezing an unmanaged list stops the program, as in Realm.
    public func freeze() -> List<Element> { _frozen("RLMArray") }
    /// The live list of a frozen one.
    public func thaw() -> List<Element>? { _thawed() }
}

extension MutableSet {
    /// Whether the set belongs to a frozen realm.
    public var isFrozen: Bool { _isFrozenCollection }
    /// A frozen snapshot of the managed set; freezing an unmanaged set stops the program, as in Realm.
    public func freeze() -> MutableSet<Element> { _frozen("RLMSet") }
    /// The live set of a frozen one.
    public func thaw() -> MutableSet<Element>? { _thawed() }
}

extension Map {
    /// Whether the map belongs to a frozen realm.
    public var isFrozen: Bool { _isFrozenCollection }
    /// A frozen snapshot of the managed map; freezing an unmanaged map stops the program, as in Realm.
    public func freeze() -> Map<Key, Value> { _frozen("RLMDictionary") }
    /// The live map of a frozen one.
    public func thaw() -> Map<Key, Value>? { _thawed() }
}

extension LinkingObjects {
    /// Whether the linking objects belong to a frozen realm.
    public var isFrozen: Bool { _isFrozenCollection }
    /// A frozen snapshot of the linking objects.
    public func freeze() -> LinkingObjects<Element> { _frozen("RLMLinkingObjects") }
    /// The live linking objects of frozen ones.
    public func thaw() -> LinkingObjects<Element>? { _thawed() }
}
