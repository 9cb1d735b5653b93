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
        let id = ObjectIdentifier(type)
        // Most objects are made one class after another on one thread (iterating results): the
        // thread's cache answers without the lock, the table lookup and a new context each.
        let cache = ConstructCache.current
        if let context = cache.context(for: id) {
            let object = SharedStorageContext.with(context) { type.init() }
            let asRecorded = context.position == context.storages.count && !context.failed
            context.inUse = false
            if asRecorded { return object }
            cache.forget(id)
            lock.lock()
            entries[id] = .notShareable
            lock.unlock()
            return type.init()
        }
        lock.lock()
        let entry = entries[id]
        lock.unlock()
        switch entry {
        case .notShareable: return type.init()
        case .shareable(let storages):
            cache.remember(id, storages)
            let context = SharedStorageContext(storages: storages)
            let object = SharedStorageContext.with(context) { type.init() }
            if context.position == storages.count && !context.failed { return object }
            cache.forget(id)
            // Not as recorded (the initializer does not always make the same storages).
            lock.lock()
            entries[id] = .notShareable
            lock.unlock()
            return type.init()
        case nil:
            let context = SharedStorageContext(storages: [])
            let object = SharedStorageContext.with(context) { type.init() }
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
    /// The next one to hand out.
    var position = 0
    /// Storages made while recording, in order.
    var made: [AnyObject] = []
    /// Whether a storage asked for was not the recorded one's type.
    var failed = false

    init(storages: [AnyObject]) {
        self.storages = storages
    }

    /// Whether an object is being made with this context (see ``ConstructCache``).
    var inUse = false

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

    /// The recorded storage a property being initialized on this thread gets while a realm makes
    /// a managed object (see ``SharedStorages``); nil when none is being made, while recording, or
    /// when the next recorded storage is not of `type` (the object then fails as recorded).
    /// One call per property of every object a realm hands out: the context is used without
    /// retaining it (``with(_:_:)`` keeps it alive), and the storage's class is compared exactly.
    @usableFromInline static func nextShared(_ type: ObjectIdentifier) -> AnyObject? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<SharedStorageContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.takeNext(type) }
    }

    /// Records a storage made for a property while this thread's context records (a storage of
    /// its own otherwise: nothing to do).
    @usableFromInline static func recordMade(_ storage: AnyObject) {
        guard let raw = pthread_getspecific(key) else { return }
        Unmanaged<SharedStorageContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.record(storage) }
    }

    /// How many contexts are installed (see ``with(_:_:)``), on all threads.
    private static let installed = Atomic<Int>(0)

    /// Whether a context may be installed on this thread: false when none is on any thread.
    /// (A thread always sees its own installing, so false is exact for the asking thread.)
    @usableFromInline static var isAnyInstalled: Bool { installed.load(ordering: .relaxed) != 0 }

    /// Runs `body` with `context` as this thread's (the previous one restored afterwards).
    static func with<T>(_ context: SharedStorageContext, _ body: () -> T) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        installed.add(1, ordering: .relaxed)
        defer {
            installed.subtract(1, ordering: .relaxed)
            pthread_setspecific(key, previous)
        }
        return withExtendedLifetime(context) { body() }
    }

    /// The recorded storage to use next, or nil (recording, or not of `type`: then a new one).
    private func takeNext(_ type: ObjectIdentifier) -> AnyObject? {
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
    private func record(_ storage: AnyObject) {
        if storages.isEmpty { made.append(storage) }
    }
}
