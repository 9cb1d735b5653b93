import Foundation
import Synchronization

/// The `@Persisted` storages that objects a realm makes share, per model class.
///
/// A managed object never uses its storages' values (its properties read and write the database),
/// so making a new storage per property for every object read (8 allocations for an object of 8
/// properties, a third of reading it) is waste. The first object of a class a realm makes records
/// the storages its initializer makes, in order; later ones get those same storages back from
/// ``PersistedStorage/make(initial:options:)`` while ``SharedStorages/construct(_:)`` runs their
/// initializer. A class whose initializer makes other `@Persisted` storages than its own (another
/// model object made in a property's initial value or in `init()`) keeps getting fresh ones.
/// Shared storages are named before they are shared and never hold a value afterwards (see
/// ``PersistedStorage/isShared``): an object that is unmanaged never has them.
enum SharedStorages {
    /// What is known of one model class.
    private enum Entry {
        /// Objects get the recorded storages, in this order.
        case shareable([AnyObject])
        /// Objects get storages of their own.
        case notShareable
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [ObjectIdentifier: Entry] = [:]

    /// A new instance of `type` for a realm to make managed (made with `init()`): with the class's
    /// shared storages when it has them.
    static func construct<T: ObjectBase>(_ type: T.Type) -> T {
        // Made on the process's construct slot when this thread holds it or can claim it (see
        // ``ConstructSlot``), else with this thread's own context and cache.
        if ConstructSlot.isHeldHere { return ConstructSlot.withCache { construct(type, in: $0, onSlot: true) } }
        if !ConstructSlot.isHeld && ConstructSlot.claim() {
            let object = ConstructSlot.withCache { construct(type, in: $0, onSlot: true) }
            ConstructSlot.free()
            return object
        }
        return construct(type, in: ConstructCache.current, onSlot: false)
    }

    /// ``construct(_:)`` with `cache`, handing storages out on the slot or through this thread's
    /// context.
    @inline(__always)
    private static func construct<T: ObjectBase>(_ type: T.Type, in cache: ConstructCache, onSlot: Bool) -> T {
        let id = ObjectIdentifier(type)
        // Most objects are made one class after another (iterating results): the cache answers
        // without the lock, the table lookup and a new context each.
        if let context = cache.context(for: id) {
            let object = make(type, with: context, onSlot: onSlot)
            context.inUse = false
            if context.isAsRecorded { return object }
            cache.forget(id)
            return notShareable(type, id, onSlot: onSlot)
        }
        lock.lock()
        let entry = entries[id]
        lock.unlock()
        switch entry {
        case .notShareable: return make(type, with: nil, onSlot: onSlot)
        case .shareable(let storages):
            cache.remember(id, storages)
            let context = SharedStorageContext(storages: storages)
            let object = make(type, with: context, onSlot: onSlot)
            if context.isAsRecorded { return object }
            cache.forget(id)
            // Not as recorded (the initializer does not always make the same storages).
            return notShareable(type, id, onSlot: onSlot)
        case nil:
            let context = SharedStorageContext(storages: [])
            let object = make(type, with: context, onSlot: onSlot)
            let shareable = isOwnStorages(context.made, of: object)
            if shareable {
                // Named now (a shared storage is never written again).
                _ = object._persistedProperties()
                for storage in context.made { (storage as? SharedStorageMarking)?.markShared() }
            }
            lock.lock()
            if entries[id] == nil { entries[id] = shareable ? .shareable(context.made) : .notShareable }
            lock.unlock()
            return object
        }
    }

    /// Records that `type`'s objects are not made as recorded, and makes one with storages of its own.
    private static func notShareable<T: ObjectBase>(_ type: T.Type, _ id: ObjectIdentifier, onSlot: Bool) -> T {
        lock.lock()
        entries[id] = .notShareable
        lock.unlock()
        return make(type, with: nil, onSlot: onSlot)
    }

    /// Runs `type.init()` with `context` handing out storages (none with nil: every storage is new).
    @inline(__always)
    private static func make<T: ObjectBase>(_ type: T.Type, with context: SharedStorageContext?, onSlot: Bool) -> T {
        guard onSlot else { return SharedStorageContext.with(context) { type.init() } }
        return ConstructSlot.make(type, with: context)
    }

    /// Whether `made` are exactly the storages of `object`'s fields (no other object's).
    private static func isOwnStorages(_ made: [AnyObject], of object: ObjectBase) -> Bool {
        guard let fields = PersistedFieldTable.shared.fields(of: object), fields.count == made.count else {
            return false
        }
        let own = Set(fields.map { ObjectIdentifier($0.access.property(in: object, at: $0.offset).storageObject) })
        return own.count == made.count && made.allSatisfy { own.contains(ObjectIdentifier($0)) }
    }
}

/// Marks a storage as shared (see ``PersistedStorage/isShared``).
protocol SharedStorageMarking: AnyObject {
    func markShared()
}

/// The storages handed out while one object is made (see ``SharedStorages``), per thread.
@usableFromInline final class SharedStorageContext {
    /// The recorded storages (empty while recording).
    let storages: [AnyObject]
    /// The same, in memory of its own that a hand-out reads without an array's checks.
    let recorded: UnsafeMutablePointer<AnyObject>
    /// The next one to hand out.
    @exclusivity(unchecked) var position = 0
    /// Storages made while recording, in order.
    @exclusivity(unchecked) var made: [AnyObject] = []
    /// Whether a storage asked for was not the recorded one's type.
    @exclusivity(unchecked) var failed = false

    init(storages: [AnyObject]) {
        self.storages = storages
        recorded = .allocate(capacity: max(storages.count, 1))
        recorded.initialize(from: storages, count: storages.count)
    }

    deinit {
        recorded.deinitialize(count: storages.count)
        recorded.deallocate()
    }

    /// Whether an object is being made with this context (see ``ConstructCache``).
    @exclusivity(unchecked) var inUse = false

    /// Starts handing out the recorded storages again, for the next object.
    func restart() {
        position = 0
        failed = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The context handing out storages to properties being initialized on this thread: the
    /// slot's when this thread holds the slot (see ``ConstructSlot``), else the thread's own.
    @inline(__always) private static func installed() -> Unmanaged<SharedStorageContext>? {
        if ConstructSlot.isHeldHere { return ConstructSlot.handout.context }
        return threadContext()
    }

    /// This thread's own context (see ``with(_:_:)``).
    @inline(__always) private static func threadContext() -> Unmanaged<SharedStorageContext>? {
        guard installedCount.load(ordering: .relaxed) != 0, let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<SharedStorageContext>.fromOpaque(raw)
    }

    /// The recorded storage a property being initialized on this thread gets while a realm makes
    /// a managed object (see ``SharedStorages``); nil when none is being made, while recording, or
    /// when the next recorded storage is not of `type` (the object then fails as recorded).
    /// One call per property of every object a realm hands out: the context is used without
    /// retaining it (its maker keeps it alive), and the storage's class is compared exactly.
    @usableFromInline static func nextShared(_ type: ObjectIdentifier) -> AnyObject? {
        if ConstructSlot.isHeldHere { return ConstructSlot.takeNext(type) }
        guard let context = threadContext() else { return nil }
        return context._withUnsafeGuaranteedRef { $0.takeNext(type) }
    }

    /// Records a storage made for a property while this thread's context records (a storage of
    /// its own otherwise: nothing to do).
    @usableFromInline static func recordMade(_ storage: AnyObject) {
        installed()?._withUnsafeGuaranteedRef { $0.record(storage) }
    }

    /// How many contexts are installed (see ``with(_:_:)``), on all threads.
    @usableFromInline static let installedCount = Atomic<Int>(0)

    /// Whether a context may be installed on this thread through ``with(_:_:)``: false when none
    /// is on any thread. (A thread always sees its own installing, so false is exact for it.)
    @inlinable static var isAnyThreadContextInstalled: Bool { installedCount.load(ordering: .relaxed) != 0 }

    /// Runs `body` with `context` as this thread's (none with nil; the previous one restored
    /// afterwards).
    static func with<T>(_ context: SharedStorageContext?, _ body: () -> T) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, context.map { Unmanaged.passUnretained($0).toOpaque() })
        installedCount.add(1, ordering: .relaxed)
        defer {
            installedCount.subtract(1, ordering: .relaxed)
            pthread_setspecific(key, previous)
        }
        return withExtendedLifetime(context) { body() }
    }

    /// Whether the object just made got exactly the recorded storages, in order.
    var isAsRecorded: Bool { position == storages.count && !failed }

    /// The recorded storage to use next, or nil (recording, or not of `type`: then a new one).
    @inline(__always) fileprivate func takeNext(_ type: ObjectIdentifier) -> AnyObject? {
        guard position < storages.count else {
            if !storages.isEmpty { failed = true }
            return nil
        }
        let recorded = storages[position]
        position += 1
        guard ObjectIdentifier(Swift.type(of: recorded)) == type else {
            failed = true
            return nil
        }
        return recorded
    }

    /// Records a storage made while recording.
    fileprivate func record(_ storage: AnyObject) {
        if storages.isEmpty { made.append(storage) }
    }
}
