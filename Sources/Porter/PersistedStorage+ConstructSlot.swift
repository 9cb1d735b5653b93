import Foundation
import Synchronization

/// The process's one construct slot: the thread holding it makes managed objects (see
/// ``SharedStorages/construct(_:)``) with the slot's context and cache instead of its own
/// thread-local ones. Claiming it costs one compare-and-swap per object, and a property being
/// initialized finds the context with one atomic load and `pthread_self()` (a register read)
/// instead of a `pthread_getspecific` per property. A thread that finds the slot held by another
/// uses its thread-local context and cache (``SharedStorageContext/with(_:_:)``,
/// ``ConstructCache/current``), as every thread did before.
///
/// Only the owner reads or writes ``handout`` and ``cache``: the slot is claimed with acquiring
/// and freed with releasing ordering, so the next owner sees what the last one left. While a
/// thread holds it, the innermost `construct` running on that thread is a slot one (a thread
/// that claims the slot inside a thread-local construct frees it before returning there), so
/// ``handout`` is the only context its properties may get storages from.
@usableFromInline enum ConstructSlot {
    /// The holding thread's `pthread_self()`, 0 when free.
    @usableFromInline static let owner = Atomic<UInt>(0)
    /// What the owner thread hands out now: the context's storages, and how far it got.
    @usableFromInline struct Handout {
        /// The context being used (nil: every storage is new); written back when the object is made.
        @usableFromInline var context: Unmanaged<SharedStorageContext>?
        /// The context's recorded storages (``SharedStorageContext/recorded``) and their count.
        @usableFromInline var base: UnsafeMutablePointer<AnyObject>?
        @usableFromInline var count = 0
        /// The next one to hand out.
        @usableFromInline var position = 0
        /// Whether a storage asked for was not the recorded one's type, or one too many.
        @usableFromInline var failed = false

        init(
            context: Unmanaged<SharedStorageContext>? = nil, base: UnsafeMutablePointer<AnyObject>? = nil,
            count: Int = 0
        ) {
            self.context = context
            self.base = base
            self.count = count
        }
    }

    /// The owner thread's hand-out: kept here, not in the context, so that a property finds the
    /// next storage without a call through the context.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) static var handout = Handout()
    /// The contexts of the classes last made on the slot (see ``ConstructCache``); kept for the
    /// process's life, and used without retaining it.
    @exclusivity(unchecked) nonisolated(unsafe) private static var madeCache: Unmanaged<ConstructCache>?

    /// Runs `body` with the slot's cache, made on first use (by the owner only).
    @inline(__always) static func withCache<R>(_ body: (ConstructCache) -> R) -> R {
        if let cache = madeCache { return cache._withUnsafeGuaranteedRef(body) }
        let cache = Unmanaged.passRetained(ConstructCache())
        madeCache = cache
        return cache._withUnsafeGuaranteedRef(body)
    }

    /// Runs `type.init()` on the owner thread with `context` handing out storages (none with nil),
    /// the hand-out in progress (an object being made whose initializer makes this one) put back
    /// afterwards.
    @inline(__always)
    static func make<T: ObjectBase>(_ type: T.Type, with context: SharedStorageContext?) -> T {
        let saved = handout
        if let context {
            handout = Handout(
                context: Unmanaged.passUnretained(context), base: context.recorded, count: context.storages.count)
        } else {
            handout = Handout()
        }
        // The caller uses `context` afterwards: its reference keeps it alive while this runs.
        let object = type.init()
        if let context {
            context.position = handout.position
            context.failed = handout.failed
        }
        handout = saved
        return object
    }

    /// The recorded storage a property being initialized on the owner thread gets (see
    /// ``SharedStorageContext/nextShared(_:)``).
    @inlinable @inline(__always) static func takeNext(_ type: ObjectIdentifier) -> AnyObject? {
        let position = handout.position
        guard position < handout.count, let base = handout.base else {
            if handout.count != 0 { handout.failed = true }
            return nil
        }
        let recorded = base[position]
        guard ObjectIdentifier(Swift.type(of: recorded)) == type else {
            handout.failed = true
            return nil
        }
        handout.position = position + 1
        return recorded
    }

    /// Whether this thread holds the slot.
    @inlinable @inline(__always) static var isHeldHere: Bool {
        let holder = owner.load(ordering: .relaxed)
        // A thread sees its own claims and frees; a value equal to its id can only be its own.
        return holder != 0 && holder == pthread_self()
    }

    /// Whether any thread holds the slot (false is exact for the asking thread).
    @inlinable static var isHeld: Bool { owner.load(ordering: .relaxed) != 0 }

    /// Claims the slot for this thread; false when another thread holds it (or this one does).
    @inline(__always) static func claim() -> Bool {
        owner.compareExchange(expected: 0, desired: pthread_self(), ordering: .acquiring).exchanged
    }

    /// Frees the slot (called by the owner that claimed it).
    @inline(__always) static func free() {
        owner.store(0, ordering: .releasing)
    }
}
