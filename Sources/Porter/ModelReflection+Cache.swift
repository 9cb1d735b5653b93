import Foundation

extension ModelReflection {
    private static let lock = NSLock()
    /// Derived schemas by model class (its identity, not its name: two classes may share a name).
    nonisolated(unsafe) private static var derived: [ObjectIdentifier: (schema: ObjectSchema, errors: [String])] = [:]

    /// The class's schema and problems, derived once per class and program run, as Realm derives
    /// its schema once: a Swift class's declaration cannot change while the program runs, and
    /// deriving makes two instances (with a wait for a clock tick between them) for every realm
    /// opened. Realms with different sets of classes still get each class's own schema.
    static func cachedObjectSchema(of type: ObjectBase.Type) -> (schema: ObjectSchema, errors: [String]) {
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = derived[id]
        lock.unlock()
        if let known { return known }
        let fresh = objectSchema(of: type)
        lock.lock()
        derived[id] = fresh
        lock.unlock()
        return fresh
    }
}
