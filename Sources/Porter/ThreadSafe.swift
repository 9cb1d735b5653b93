import Foundation

/// Values that know their realm: what ``ThreadSafe`` needs to reopen the realm on another thread.
public protocol _RealmOwned {
    /// The realm, or nil while unmanaged.
    var realm: Realm? { get }
}

extension Object: _RealmOwned {}
extension Results: _RealmOwned {}

/// A property that can be read on any thread, as Realm's `@ThreadSafe`: it keeps a
/// ``ThreadSafeReference`` to a managed object or results and, when read, resolves it in a realm
/// with the same configuration opened on the reading thread (nil once the object is deleted).
///
/// ```swift
/// @ThreadSafe var dog: Dog?
/// DispatchQueue.global().async { print(dog?.name) }   // read on another thread
/// ```
@propertyWrapper
public final class ThreadSafe<T: ThreadConfined & _RealmOwned>: @unchecked Sendable {
    private let lock = NSLock()
    private var handle: _ThreadSafeHandle?
    private var configuration: Realm.Configuration?

    /// Keeps a reference to `wrappedValue` (a managed object or results; unmanaged objects stop
    /// the program, as in Realm).
    public init(wrappedValue: T?) { store(wrappedValue) }

    /// The value, resolved in a realm opened on the current thread; nil when none was set, when
    /// the object was deleted since, or when the realm cannot be opened here.
    public var wrappedValue: T? {
        get {
            lock.lock()
            let (handle, configuration) = (self.handle, self.configuration)
            lock.unlock()
            guard let handle, let configuration,
                let realm = try? Realm(configuration: configuration)
            else { return nil }
            return T._resolve(handle, in: realm)
        }
        set { store(newValue) }
    }

    private func store(_ value: T?) {
        var handle: _ThreadSafeHandle?
        var configuration: Realm.Configuration?
        if let value {
            guard let realm = value.realm else {
                preconditionFailure(
                    "Cannot construct reference to unmanaged object, "
                        + "which can be passed across threads directly")
            }
            handle = value._threadSafeHandle()
            configuration = realm.configuration
        }
        lock.lock()
        (self.handle, self.configuration) = (handle, configuration)
        lock.unlock()
    }
}
