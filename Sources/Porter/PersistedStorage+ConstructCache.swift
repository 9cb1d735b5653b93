import Foundation

/// What one thread knows of the shared storages of the model classes it last made managed
/// objects of (see ``SharedStorages/construct(_:)``): per class, a context that hands out the
/// recorded storages, reused object after object. Making one then takes no lock, no table lookup
/// and no new ``SharedStorageContext``: it is done for every object a realm hands out.
///
/// A class found not shareable is forgotten here and in the shared table; another thread that
/// still has it finds out itself when an object it makes is not as recorded (checked every time).
final class ConstructCache {
    /// How many classes a thread remembers (objects of a few classes linked to each other).
    private static let capacity = 8

    /// The remembered classes, most recently added last.
    @exclusivity(unchecked) private var types: [ObjectIdentifier] = []
    /// Their contexts, in ``types`` order.
    @exclusivity(unchecked) private var contexts: [SharedStorageContext] = []
    /// The index of the class asked for last (-1: none), checked before searching ``types``.
    @exclusivity(unchecked) private var lastHit = -1

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Released when its thread ends.
        pthread_key_create(&key) { raw in
            if let raw = raw as UnsafeMutableRawPointer? { Unmanaged<ConstructCache>.fromOpaque(raw).release() }
        }
        return key
    }()

    /// This thread's cache, made on first use.
    static var current: ConstructCache {
        if let raw = pthread_getspecific(key) { return Unmanaged<ConstructCache>.fromOpaque(raw).takeUnretainedValue() }
        let cache = ConstructCache()
        pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// A context handing out a remembered class's storages from the first, marked in use (see
    /// ``SharedStorageContext/inUse``); nil when the class is not remembered. When its own is in
    /// use (a model's initializer making another object of its class), a new one.
    func context(for type: ObjectIdentifier) -> SharedStorageContext? {
        let index: Int
        if lastHit >= 0 && types[lastHit] == type {
            index = lastHit
        } else {
            guard let found = types.firstIndex(of: type) else { return nil }
            index = found
            lastHit = found
        }
        let context = contexts[index]
        if context.inUse { return SharedStorageContext(storages: context.storages) }
        context.restart()
        context.inUse = true
        return context
    }

    /// Remembers a class's recorded storages (forgetting the oldest class beyond ``capacity``).
    /// A class without storages is not remembered (its context would record).
    func remember(_ type: ObjectIdentifier, _ storages: [AnyObject]) {
        guard !storages.isEmpty else { return }
        forget(type)
        lastHit = -1
        if types.count == Self.capacity {
            types.removeFirst()
            contexts.removeFirst()
        }
        types.append(type)
        contexts.append(SharedStorageContext(storages: storages))
    }

    /// Forgets a class (its objects are not made as recorded).
    func forget(_ type: ObjectIdentifier) {
        guard let index = types.firstIndex(of: type) else { return }
        lastHit = -1
        types.remove(at: index)
        contexts.remove(at: index)
    }
}
