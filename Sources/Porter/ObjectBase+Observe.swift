import Foundation

/// Lets ``ObjectBase/observe(keyPaths:on:_:)`` hand the observer its own class.
public protocol _ObjectObservable: ObjectBase {}
extension ObjectBase: _ObjectObservable {}

extension _ObjectObservable {
    /// Observes the object: `.change(object, changes)` after each commit that changes one of
    /// its properties (only those `keyPaths` names, when given), `.deleted` once when it is
    /// deleted. Delivered synchronously on the committing thread, or on `queue` with the object
    /// read through a realm opened on that queue. Unlike collections there is no initial call.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        guard let managed = _managed else {
            preconditionFailure(
                "\(type(of: self).className()): only managed objects can be observed: add it to a realm first")
        }
        let deliver: (ObjectChange<Self>) -> Void
        if let queue {
            let configuration = UncheckedSendable(value: managed.realm.configuration)
            let receiver = QueueRealm()
            let send = UncheckedSendable(value: block)
            let link = managed.link
            deliver = { change in
                let moved = UncheckedSendable(value: change)
                queue.async {
                    guard let target = receiver.realm(configuration.value) else { return }
                    switch moved.value {
                    case .change(_, let properties):
                        send.value(.change(target.managedObject(Self.self, link), properties))
                    case .deleted: send.value(.deleted)
                    case .error(let error): send.value(.error(error))
                    }
                }
            }
        } else {
            deliver = block
        }
        return managed.realm.startObserving(ObjectObservation(self, keyPaths: keyPaths, deliver: deliver))
    }

    /// Observes the properties the key paths name.
    public func observe(
        keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        let names = keyPaths.compactMap { KeyPathNames.name(of: $0 as AnyKeyPath, on: Self.self) }
        return observe(keyPaths: names, on: queue, block)
    }
}

/// Observes one object, comparing its stored values after each commit.
final class ObjectObservation<T: ObjectBase>: Observation {
    private let object: T
    private let keyPaths: Set<String>?
    private let deliverChange: (ObjectChange<T>) -> Void
    private var previous: [String: Value]?
    private var done = false

    init(_ object: T, keyPaths: [String]?, deliver: @escaping (ObjectChange<T>) -> Void) {
        self.object = object
        self.keyPaths = keyPaths.map { Set($0.map { String($0.split(separator: ".").first ?? "") }) }
        self.deliverChange = deliver
        super.init()
        previous = current()
    }

    private func current() -> [String: Value]? {
        guard let managed = object._managed else { return nil }
        return (try? managed.realm.reader.snapshot(managed.className, managed.key)) ?? nil
    }

    override func skip() { previous = current() }

    override func check() {
        guard !done else { return }
        guard let now = current() else {
            done = true
            deliverChange(.deleted)
            return
        }
        let old = previous ?? [:]
        previous = now
        var changes: [PropertyChange] = []
        for (name, property) in object._persistedProperties() where keyPaths?.contains(name) ?? true {
            guard property.typeInfo.type != .linkingObjects, old[name] != now[name] else { continue }
            let isCollection = property.typeInfo.collection != .none
            let realm = object.realm
            changes.append(
                PropertyChange(
                    name: name,
                    oldValue: isCollection ? nil : old[name].flatMap { property.decodeAny($0, realm: realm) },
                    newValue: isCollection ? nil : now[name].flatMap { property.decodeAny($0, realm: realm) }))
        }
        if !changes.isEmpty { deliverChange(.change(object, changes)) }
    }
}
