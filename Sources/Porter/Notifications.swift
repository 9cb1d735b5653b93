import Foundation

/// Keeps notifications coming while it is alive; ``invalidate()`` (or releasing the token) stops them.
public final class NotificationToken {
    private var onInvalidate: (() -> Void)?
    /// The observation the token keeps alive (the realm holds it weakly).
    private(set) var observation: Observation?

    init(_ observation: Observation, _ onInvalidate: @escaping () -> Void) {
        self.observation = observation
        self.onInvalidate = onInvalidate
    }

    /// Stops the notifications.
    public func invalidate() {
        onInvalidate?()
        onInvalidate = nil
        observation = nil
    }

    deinit { onInvalidate?() }
}

/// What changed in an observed collection, as Realm's `RealmCollectionChange`.
public enum RealmCollectionChange<CollectionType> {
    /// The collection when observation began.
    case initial(CollectionType)
    /// The collection after a commit: indices of removed objects in the previous version,
    /// indices of added objects in the new one, and indices of changed objects in the previous one.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The collection could not be evaluated.
    case error(Error)
}

/// What changed in an observed object, as Realm's `ObjectChange`.
public enum ObjectChange<T> {
    /// The object could not be read.
    case error(Error)
    /// One or more properties changed.
    case change(T, [PropertyChange])
    /// The object was deleted.
    case deleted
}

/// One changed property of an observed object.
public struct PropertyChange {
    /// The property name.
    public let name: String
    /// The value before the commit.
    public let oldValue: Any?
    /// The value after it.
    public let newValue: Any?
}

/// One live observation of a realm; ``Realm`` runs ``check()`` after each commit and refresh.
class Observation {
    /// Compares the current state with the last one and delivers a change when there is one.
    func check() {}
    /// Takes the current state as the last one without delivering anything.
    func skip() {}
}

/// The observations of one realm (held weakly: a token owns its observation).
final class RealmNotifier {
    private var observations: [WeakObservation] = []
    /// The database state the observations last saw.
    var seen: DatabaseChangeToken?

    func add(_ observation: Observation) { observations.append(WeakObservation(observation)) }

    func remove(_ observation: Observation) { observations.removeAll { $0.value === observation || $0.value == nil } }

    /// Runs every live observation's check (skipping the given ones).
    func deliver(skipping skipped: [Observation] = []) {
        observations.removeAll { $0.value == nil }
        for observation in observations.compactMap(\.value) {
            if skipped.contains(where: { $0 === observation }) { observation.skip() } else { observation.check() }
        }
    }

    private struct WeakObservation {
        weak var value: Observation?
        init(_ value: Observation) { self.value = value }
    }
}

extension Realm {
    /// Starts observing: registers `observation` and returns the token that ends it.
    func startObserving(_ observation: Observation) -> NotificationToken {
        notifier.add(observation)
        return NotificationToken(observation) { [weak self, weak observation] in
            if let observation { self?.notifier.remove(observation) }
        }
    }

    /// Delivers the changes of a commit to the observations of this realm, which every realm of
    /// the same file opened on this thread shares.
    func notifyAfterCommit(skipping tokens: [NotificationToken] = []) {
        notifier.seen = database.changeToken
        notifier.deliver(skipping: tokens.compactMap(\.observation))
    }

    /// Delivers notifications for changes committed since the last delivery by other realms or
    /// other processes (Realm's `refresh()`).
    /// - Returns: whether there were such changes.
    @discardableResult
    public func refresh() -> Bool {
        guard !isInWriteTransaction else { return false }
        // A Realm file read natively is looked at again (a changed file moves the change token).
        do { _ = try reader.reloadIfChanged() } catch {
            recordReadError(error, location: configuration.resolvedFileURL?.path ?? "")
        }
        let now = database.changeToken
        guard now != notifier.seen else { return false }
        notifier.seen = now
        notifier.deliver()
        return true
    }
}

// MARK: - Collections

/// A collection whose changes can be observed: its elements' identities in order, each with a
/// fingerprint of the properties whose change counts as a modification.
protocol _ObservableCollection {
    /// The elements now.
    func _observedElements(keyPaths: [String]?) -> [(id: AnyHashable, print: [String: Value])]
    /// The same collection read through another realm (for delivery on a queue).
    func _rebound(to realm: Realm) -> Self
    /// The realm, when managed.
    var _observedRealm: Realm? { get }
}

/// Fingerprints of linked objects (only the properties `keyPaths` names, when given).
func objectPrint(_ realm: Realm, _ link: ObjectLink, _ keyPaths: [String]?) -> [String: Value] {
    guard var values = (try? realm.reader.snapshot(link.className, link.key)) ?? nil else { return [:] }
    if let keyPaths {
        let top = Set(keyPaths.map { String($0.split(separator: ".").first ?? "") })
        values = values.filter { top.contains($0.key) }
    }
    return values
}

/// Identities and fingerprints of stored elements: objects by link, values by value and occurrence.
func observedElements(_ realm: Realm, _ values: [Value], _ keyPaths: [String]?) -> [(
    id: AnyHashable, print: [String: Value]
)] {
    var occurrences: [Value: Int] = [:]
    return values.map { value in
        if case .link(let link) = value { return (AnyHashable(link), objectPrint(realm, link, keyPaths)) }
        let n = occurrences[value, default: 0]
        occurrences[value] = n + 1
        return (AnyHashable([AnyHashable(value), AnyHashable(n)]), [:])
    }
}

/// Observes one collection, diffing its elements after each commit.
final class CollectionObservation<C: _ObservableCollection>: Observation {
    private let collection: C
    private let keyPaths: [String]?
    private let deliverChange: (RealmCollectionChange<C>) -> Void
    private var previous: [(id: AnyHashable, print: [String: Value])]

    init(_ collection: C, keyPaths: [String]?, deliver: @escaping (RealmCollectionChange<C>) -> Void) {
        self.collection = collection
        self.keyPaths = keyPaths
        self.deliverChange = deliver
        previous = collection._observedElements(keyPaths: keyPaths)
    }

    override func skip() { previous = collection._observedElements(keyPaths: keyPaths) }

    override func check() {
        let current = collection._observedElements(keyPaths: keyPaths)
        let change = CollectionDiff(previous, current)
        previous = current
        guard !change.isEmpty else { return }
        deliverChange(
            .update(
                collection, deletions: change.deletions, insertions: change.insertions,
                modifications: change.modifications))
    }
}

/// Deletions, insertions and modifications between two versions of a collection: elements that
/// left or arrived, elements that moved (outside the longest run kept in order) as a deletion
/// and an insertion, and elements whose fingerprint changed.
struct CollectionDiff {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    init(_ old: [(id: AnyHashable, print: [String: Value])], _ new: [(id: AnyHashable, print: [String: Value])]) {
        var newIndex: [AnyHashable: Int] = [:]
        for (i, element) in new.enumerated() { newIndex[element.id] = i }
        // Common elements in old order, with their new positions; the longest increasing run stays.
        var common: [(old: Int, new: Int)] = []
        for (i, element) in old.enumerated() {
            if let j = newIndex[element.id] { common.append((i, j)) } else { deletions.append(i) }
        }
        let kept = CollectionDiff.longestIncreasing(common.map(\.new))
        var keptNew = Set<Int>()
        for (index, pair) in common.enumerated() {
            if kept.contains(index) {
                keptNew.insert(pair.new)
                if old[pair.old].print != new[pair.new].print { modifications.append(pair.old) }
            } else {
                deletions.append(pair.old)
            }
        }
        deletions.sort()
        insertions = new.indices.filter { !keptNew.contains($0) }
    }

    /// Positions (in `values`) of a longest strictly increasing subsequence.
    static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var parent = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < v { low = mid + 1 } else { high = mid }
            }
            if low > 0 { parent[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var out = Set<Int>()
        var current = tails.last ?? -1
        while current >= 0 {
            out.insert(current)
            current = parent[current]
        }
        return out
    }
}

/// Lets a non-Sendable value cross to the queue it is delivered on (the receiving side uses
/// its own realm, opened on that queue).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
}

extension _ObservableCollection {
    /// Observes the collection: `.initial` now (on `queue` when given), then `.update` after
    /// each commit that changes it — synchronously on the committing thread, or on `queue` with
    /// the collection read through a realm opened on that queue.
    func _observe(
        keyPaths: [String]?, on queue: DispatchQueue?,
        _ block: @escaping (RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        guard let realm = _observedRealm else {
            preconditionFailure("only managed collections can be observed: add the object to a realm first")
        }
        let deliver: (RealmCollectionChange<Self>) -> Void
        if let queue {
            let configuration = UncheckedSendable(value: realm.configuration)
            let receiver = QueueRealm()
            let send = UncheckedSendable(value: block)
            deliver = { change in
                let moved = UncheckedSendable(value: change)
                queue.async {
                    guard let target = receiver.realm(configuration.value) else { return }
                    switch moved.value {
                    case .initial(let c): send.value(.initial(c._rebound(to: target)))
                    case .update(let c, let d, let i, let m):
                        send.value(.update(c._rebound(to: target), deletions: d, insertions: i, modifications: m))
                    case .error(let e): send.value(.error(e))
                    }
                }
            }
        } else {
            deliver = block
        }
        let observation = CollectionObservation(self, keyPaths: keyPaths, deliver: deliver)
        let token = realm.startObserving(observation)
        deliver(.initial(self))
        return token
    }
}

/// The realm an observation opens on its delivery queue (made there on first delivery).
final class QueueRealm: @unchecked Sendable {
    private var opened: Realm?

    func realm(_ configuration: Realm.Configuration) -> Realm? {
        if let opened {
            opened.refresh()
            return opened
        }
        // A connection of its own: the queue's jobs run on changing threads.
        opened = try? Realm(configuration: configuration, sharing: false)
        return opened
    }
}

extension Results: _ObservableCollection {
    func _observedElements(keyPaths: [String]?) -> [(id: AnyHashable, print: [String: Value])] {
        keys.map { key in
            let link = ObjectLink(className, key)
            return (AnyHashable(link), objectPrint(home, link, keyPaths))
        }
    }
    func _rebound(to realm: Realm) -> Results<Element> {
        Results(
            realm: realm, className: className, predicates: predicates, filters: filters, sortKeys: sortKeys,
            baseKeys: baseKeys, distinctPaths: distinctPaths)
    }
    var _observedRealm: Realm? { home }

    /// Observes the results, with modifications limited to the properties the key paths name.
    public func observe(
        keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken
    where Element: ObjectBase {
        let names = keyPaths.compactMap { KeyPathNames.name(of: $0 as AnyKeyPath, on: Element.self) }
        return _observe(keyPaths: names, on: queue, block)
    }

    /// Observes the results; see ``RealmCollectionChange``. `keyPaths` limits modifications to
    /// changes of those properties.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        _observe(keyPaths: keyPaths, on: queue, block)
    }
}

extension _ManagedProperty {
    /// The same property read through another realm.
    func rebound(to realm: Realm) -> _ManagedProperty {
        _ManagedProperty(realm: realm, owner: owner, property: property)
    }
}

/// `List` and `MutableSet`: their elements kept in an ``ElementStorage``, which is all their
/// observation needs (the public `observe` stays on each type, for its change type).
protocol _ElementStorageCollection: _ObservableCollection {
    associatedtype StoredElement: RealmCollectionValue
    var storage: ElementStorage<StoredElement> { get }
    init(managed: _ManagedProperty)
}

extension _ElementStorageCollection {
    func _observedElements(keyPaths: [String]?) -> [(id: AnyHashable, print: [String: Value])] {
        guard case .managed(let p) = storage else { return [] }
        return observedElements(p.realm, p.storedElements(), keyPaths)
    }
    func _rebound(to realm: Realm) -> Self {
        guard case .managed(let p) = storage else { return self }
        return Self(managed: p.rebound(to: realm))
    }
    var _observedRealm: Realm? { storage.realm }
}

extension List: _ElementStorageCollection {
    typealias StoredElement = Element

    /// Observes the list; see ``RealmCollectionChange``.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void
    ) -> NotificationToken {
        _observe(keyPaths: keyPaths, on: queue, block)
    }
}

extension MutableSet: _ElementStorageCollection {
    typealias StoredElement = Element

    /// Observes the set; see ``RealmCollectionChange``.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void
    ) -> NotificationToken {
        _observe(keyPaths: keyPaths, on: queue, block)
    }
}

extension Map: _ObservableCollection {
    func _observedElements(keyPaths: [String]?) -> [(id: AnyHashable, print: [String: PorterModel.Value])] {
        guard case .managed(let p) = storage else { return [] }
        let stored: [String: PorterModel.Value] = p.read(fallback: [:]) {
            if case .map(let entries) = try p.storedValue() { return entries }
            return [:]
        }
        return stored.keys.sorted().map { key in
            let value = stored[key] ?? .null
            var print = ["value": value]
            if case .link(let link) = value { print.merge(objectPrint(p.realm, link, keyPaths)) { a, _ in a } }
            return (AnyHashable(key), print)
        }
    }
    func _rebound(to realm: Realm) -> Self {
        guard case .managed(let p) = storage else { return self }
        return Self(managed: p.rebound(to: realm))
    }
    var _observedRealm: Realm? { realm }

    /// Observes the map (indices are positions in key order); see ``RealmCollectionChange``.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<Map<Key, Value>>) -> Void
    ) -> NotificationToken {
        _observe(keyPaths: keyPaths, on: queue, block)
    }
}

extension LinkingObjects: _ObservableCollection {
    func _observedElements(keyPaths: [String]?) -> [(id: AnyHashable, print: [String: Value])] {
        guard let source else { return [] }
        let links = source.read(fallback: []) {
            try source.reader.linkingObjects(source.owner.className, source.owner.key, source.property.name)
        }
        return observedElements(source.realm, links.map(Value.link), keyPaths)
    }
    func _rebound(to realm: Realm) -> Self {
        guard let source else { return self }
        return Self(source: source.rebound(to: realm))
    }
    var _observedRealm: Realm? { realm }

    /// Observes the linking objects; see ``RealmCollectionChange``.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) -> NotificationToken {
        _observe(keyPaths: keyPaths, on: queue, block)
    }
}
