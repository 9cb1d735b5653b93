import Foundation

/// Values that belong to one realm and thread, and can be handed to another thread through a
/// ``ThreadSafeReference`` (Realm's `ThreadConfined`): objects and query results.
public protocol ThreadConfined {
    /// What identifies the value independently of its realm (kept by the reference).
    func _threadSafeHandle() -> _ThreadSafeHandle
    /// The value for `handle` in `realm`, or nil when it no longer exists there.
    static func _resolve(_ handle: _ThreadSafeHandle, in realm: Realm) -> Self?
}

/// The realm-independent identity of a thread-confined value.
public struct _ThreadSafeHandle: @unchecked Sendable {
    let link: ObjectLink?
    let rebind: ((Realm) -> Any)?
}

/// Passes an object or results to another thread, as Realm's `ThreadSafeReference`: make it on
/// the owning thread, send it, and `resolve(_:)` it with a realm opened on the receiving thread.
public struct ThreadSafeReference<Confined: ThreadConfined>: @unchecked Sendable {
    let handle: _ThreadSafeHandle

    /// A reference to `threadConfined` (a managed object, or results).
    public init(to threadConfined: Confined) { handle = threadConfined._threadSafeHandle() }
}

extension Realm {
    /// The referenced value in this realm, or nil when the object was deleted since.
    public func resolve<Confined: ThreadConfined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        Confined._resolve(reference.handle, in: self)
    }
}

extension Object: ThreadConfined {
    /// The object's class and key.
    public func _threadSafeHandle() -> _ThreadSafeHandle {
        guard let managed = _managed else {
            preconditionFailure(
                "\(type(of: self).className()): only managed objects can be passed with a ThreadSafeReference")
        }
        return _ThreadSafeHandle(link: managed.link, rebind: nil)
    }

    /// The object in `realm`, if it still exists.
    public static func _resolve(_ handle: _ThreadSafeHandle, in realm: Realm) -> Self? {
        guard let link = handle.link, (try? realm.reader.exists(link.className, link.key)) == true else { return nil }
        return realm.managedObject(self, link)
    }
}

extension Results: ThreadConfined {
    /// The query, to run again in the receiving realm.
    public func _threadSafeHandle() -> _ThreadSafeHandle {
        let results = self
        return _ThreadSafeHandle(link: nil, rebind: { results._rebound(to: $0) })
    }

    /// The same query in `realm`.
    public static func _resolve(_ handle: _ThreadSafeHandle, in realm: Realm) -> Results<Element>? {
        handle.rebind?(realm) as? Results<Element>
    }
}

extension Results where Element: ObjectBase {
    /// Sets a property of every object (inside a write transaction), as Realm's `setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) {
        for object in Array(self) { object.setValue(value, forKey: key) }
    }
}
