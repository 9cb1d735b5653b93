import Foundation

// Realm Swift's realm notifications and its async API that needs no sync: `try await Realm()`,
// actor-isolated realms, `asyncWrite` and the callback-based `writeAsync` family.

extension Realm {
    /// What happened to a realm, as Realm's `Realm.Notification`.
    public enum Notification: String, Sendable {
        /// A write transaction was committed in this realm, or `refresh()` brought in changes
        /// committed elsewhere.
        case didChange = "RLMRealmDidChangeNotification"
        /// Kept for Realm's spelling: Porter's realms always read the latest version, so it is
        /// never delivered.
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }

    /// The block ``observe(_:)`` calls.
    public typealias NotificationBlock = (_ notification: Notification, _ realm: Realm) -> Void

    /// Calls `block` with ``Notification/didChange`` after every commit of this realm (and of
    /// the realms of the same file sharing its connection on this thread) and after every
    /// ``refresh()`` that found changes, until the token is invalidated or released.
    public func observe(_ block: @escaping NotificationBlock) -> NotificationToken {
        startObserving(RealmObservation(realm: self, block: block))
    }

    /// An identifier of a write started with ``writeAsync(_:onComplete:)``.
    public typealias AsyncTransactionId = UInt32

    /// Opens a realm from asynchronous code (Realm's `try await Realm()`), on the caller's
    /// isolation: the realm belongs to the calling actor or thread, as a realm opened with
    /// `Realm(configuration:)` there would.
    /// - Throws: what ``init(configuration:)`` throws.
    public convenience init(
        configuration: Configuration = .defaultConfiguration,
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try self.init(configuration: configuration, sharing: true)
    }

    /// Opens a realm confined to `actor` (Realm's actor-isolated realm): it has a connection of
    /// its own, so it can be used from the actor whichever thread the actor runs on.
    /// - Throws: what ``init(configuration:)`` throws.
    public convenience init<A: Actor>(
        configuration: Configuration = .defaultConfiguration,
        actor: isolated A
    ) async throws {
        try self.init(configuration: configuration, sharing: false)
    }

    /// Runs `block` in a write transaction from asynchronous code and returns its result
    /// (Realm's `asyncWrite`): committed when it returns, rolled back when it throws.
    /// - Throws: what `block` throws, or the commit's error.
    @discardableResult
    public func asyncWrite<Result>(
        _ block: () throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Result {
        try write(block)
    }

    /// Whether a write started with ``writeAsync(_:onComplete:)`` or ``beginAsyncWrite(_:)``
    /// has not been committed or cancelled yet.
    public var isPerformingAsynchronousWriteOperations: Bool { core.asyncWriteId != nil }

    /// Runs `block` in a write transaction and commits it, then calls `onComplete` with the
    /// commit's error or nil (Realm's `writeAsync`). Porter's realms have no run-loop scheduler,
    /// so the transaction runs at once on the calling thread and `onComplete` is called before
    /// this returns.
    @discardableResult
    public func writeAsync(
        _ block: @escaping () -> Void,
        onComplete: ((Swift.Error?) -> Void)? = nil
    ) -> AsyncTransactionId {
        let id = beginAsyncWrite(block)
        _ = commitAsyncWrite(onComplete)
        return id
    }

    /// Begins a write transaction and runs `block` in it; commit it with ``commitAsyncWrite(allowGrouping:_:)``
    /// or cancel it with ``cancelAsyncWrite(_:)`` (Realm's `beginAsyncWrite`). Runs at once on
    /// the calling thread (see ``writeAsync(_:onComplete:)``).
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        core.lastAsyncWriteId &+= 1
        let id = core.lastAsyncWriteId
        beginWrite()
        core.asyncWriteId = id
        asyncWriteBlock()
        return id
    }

    /// Commits the transaction ``beginAsyncWrite(_:)`` began and calls `onComplete` with the
    /// commit's error or nil. Without such a transaction `onComplete` gets Realm's error
    /// "Can't commit a non-existing write transaction".
    @discardableResult
    public func commitAsyncWrite(
        allowGrouping: Bool = false,
        _ onComplete: ((Swift.Error?) -> Void)? = nil
    ) -> AsyncTransactionId {
        guard let id = core.asyncWriteId, isInWriteTransaction else {
            onComplete?(PorterError(.usage, "Can't commit a non-existing write transaction"))
            return 0
        }
        core.asyncWriteId = nil
        do {
            try commitWrite()
            onComplete?(nil)
        } catch {
            onComplete?(error)
        }
        return id
    }

    /// Cancels (rolls back) the transaction `asyncTransactionId` names.
    /// - Throws: `PorterError/Code/usage` when no such transaction is open.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        guard core.asyncWriteId == asyncTransactionId, isInWriteTransaction else {
            throw PorterError(.usage, "no asynchronous write transaction \(asyncTransactionId) is open")
        }
        core.asyncWriteId = nil
        cancelWrite()
    }

    /// Delivers changes committed elsewhere (Realm's `asyncRefresh`); returns whether there were any.
    @discardableResult
    public func asyncRefresh(isolation: isolated (any Actor)? = #isolation) async -> Bool { refresh() }
}

/// A realm observation: calls the block after every commit and refresh that changed the file.
final class RealmObservation: Observation {
    let realm: Realm
    let block: Realm.NotificationBlock

    init(realm: Realm, block: @escaping Realm.NotificationBlock) {
        self.realm = realm
        self.block = block
    }

    override func check() { block(.didChange, realm) }
}

extension Realm {
    /// Runs the configuration's `shouldCompactOnLaunch` with the file's size and used bytes on
    /// the first open of the file on this thread, and compacts the file when it returns true
    /// (not for in-memory or read-only realms, as in Realm).
    static func compactOnLaunchIfAsked(_ configuration: Configuration, _ database: Database) throws {
        guard let ask = configuration.shouldCompactOnLaunch, configuration.resolvedFileURL != nil,
            !configuration.readOnly
        else { return }
        let usage = try database.fileUsage()
        if ask(usage.totalBytes, usage.usedBytes) { try database.compact() }
    }
}
