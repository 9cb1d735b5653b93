import Foundation

// Realm's actor-isolated notifications (`observe(keyPaths:on: actor) { actor, change in }`, the
// async form of `observe` in realm-swift 10.39+): the change is observed where it happens and
// handed to the actor, which reads the object or collection through a realm of its own (opened
// on the actor on first delivery, as a queue observation opens one on its queue). Deliveries
// reach the actor in commit order, after the commit, as in Realm.

/// Hands an observation's changes to an actor in order.
final class ActorDelivery<Change>: @unchecked Sendable {
    private let continuation: AsyncStream<UncheckedSendable<Change>>.Continuation
    /// The realm the actor reads through (opened on the actor).
    private let receiver = QueueRealm()

    /// Starts the actor's side: each change sent is given to `handle` on `actor`, read through
    /// the actor's realm of `configuration`.
    init<A: Actor>(
        actor: A, configuration: Realm.Configuration,
        handle: @Sendable @escaping (isolated A, Realm, Change) -> Void
    ) {
        let (stream, continuation) = AsyncStream<UncheckedSendable<Change>>.makeStream()
        self.continuation = continuation
        let receiver = receiver
        let configuration = UncheckedSendable(value: configuration)
        Task {
            for await change in stream {
                await Self.deliver(change, on: actor, receiver, configuration, handle)
            }
        }
    }

    private static func deliver<A: Actor>(
        _ change: UncheckedSendable<Change>, on actor: isolated A, _ receiver: QueueRealm,
        _ configuration: UncheckedSendable<Realm.Configuration>,
        _ handle: @Sendable (isolated A, Realm, Change) -> Void
    ) {
        guard let realm = receiver.realm(configuration.value) else { return }
        handle(actor, realm, change.value)
    }

    /// Queues one change for the actor.
    func send(_ change: Change) { continuation.yield(UncheckedSendable(value: change)) }

    /// Ends the deliveries (the token was invalidated or released).
    func finish() { continuation.finish() }
}

extension _ObservableCollection {
    /// Observes the collection with deliveries isolated to `actor`.
    func _observe<A: Actor>(
        keyPaths: [String]?, on actor: A,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void
    ) -> NotificationToken {
        guard let realm = _observedRealm else {
            preconditionFailure("only managed collections can be observed: add the object to a realm first")
        }
        let delivery = ActorDelivery<RealmCollectionChange<Self>>(
            actor: actor, configuration: realm.configuration
        ) { actor, target, change in
            switch change {
            case .initial(let c): block(actor, .initial(c._rebound(to: target)))
            case .update(let c, let d, let i, let m):
                block(actor, .update(c._rebound(to: target), deletions: d, insertions: i, modifications: m))
            case .error(let e): block(actor, .error(e))
            }
        }
        let token = _observe(keyPaths: keyPaths, on: nil) { delivery.send($0) }
        return NotificationToken(wrapping: token) { delivery.finish() }
    }
}

extension NotificationToken {
    /// A token that invalidates `inner` and then runs `onInvalidate`.
    convenience init(wrapping inner: NotificationToken, _ onInvalidate: @escaping () -> Void) {
        self.init(inner.observation ?? Observation()) {
            inner.invalidate()
            onInvalidate()
        }
    }
}

extension Results {
    /// Observes the results, delivering `.initial` and then each `.update` to the block isolated
    /// to `actor`, with the results read through the actor's own realm (Realm's async `observe`).
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void
    ) async -> NotificationToken {
        _observe(keyPaths: keyPaths, on: actor, block)
    }
}

extension List {
    /// Observes the list with deliveries isolated to `actor` (see ``Results/observe(keyPaths:on:_isolation:_:)``).
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<List<Element>>) -> Void
    ) async -> NotificationToken {
        _observe(keyPaths: keyPaths, on: actor, block)
    }
}

extension MutableSet {
    /// Observes the set with deliveries isolated to `actor`.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<MutableSet<Element>>) -> Void
    ) async -> NotificationToken {
        _observe(keyPaths: keyPaths, on: actor, block)
    }
}

extension Map {
    /// Observes the map with deliveries isolated to `actor`.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Map<Key, Value>>) -> Void
    ) async -> NotificationToken {
        _observe(keyPaths: keyPaths, on: actor, block)
    }
}

extension LinkingObjects {
    /// Observes the linking objects with deliveries isolated to `actor`.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) async -> NotificationToken {
        _observe(keyPaths: keyPaths, on: actor, block)
    }
}

extension _ObjectObservable {
    /// Observes the object with deliveries isolated to `actor`, the object read through the
    /// actor's own realm (Realm's async `observe(keyPaths:on:)`).
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void
    ) async -> NotificationToken {
        guard let managed = _managed else {
            preconditionFailure(
                "\(type(of: self).className()): only managed objects can be observed: add it to a realm first")
        }
        let link = managed.link
        let delivery = ActorDelivery<ObjectChange<Self>>(actor: actor, configuration: managed.realm.configuration) {
            actor, target, change in
            switch change {
            case .change(_, let properties): block(actor, .change(target.managedObject(Self.self, link), properties))
            case .deleted: block(actor, .deleted)
            case .error(let error): block(actor, .error(error))
            }
        }
        let token = observe(keyPaths: keyPaths, on: nil) { delivery.send($0) }
        return NotificationToken(wrapping: token) { delivery.finish() }
    }

    /// Observes the properties the key paths name, with deliveries isolated to `actor`.
    public func observe<A: Actor>(
        keyPaths: [PartialKeyPath<Self>], on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void
    ) async -> NotificationToken {
        let names = keyPaths.compactMap { KeyPathNames.name(of: $0 as AnyKeyPath, on: Self.self) }
        return await observe(keyPaths: names, on: actor, block)
    }
}
