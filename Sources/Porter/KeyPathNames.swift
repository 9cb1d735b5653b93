import Foundation

/// Finds the property name behind a key path without the Objective-C runtime: read the key path
/// on a fresh prototype that records which `@Persisted` property it touches (Realm does the same).
enum KeyPathNames {
    /// The name of the one `@Persisted` property `keyPath` reads on `T`, or nil when it reads
    /// none (an ignored or computed property) or several.
    static func name<T: ObjectBase, V>(of keyPath: KeyPath<T, V>) -> String? {
        let names = recordedNames(keyPath, on: T.self)
        return names.count == 1 ? names[0] : nil
    }

    /// The name behind a type-erased key path rooted at `T` (the first one it reads).
    static func name<T: ObjectBase>(of keyPath: AnyKeyPath, on type: T.Type) -> String? {
        recordedNames(keyPath, on: type).first
    }

    /// The first `@Persisted` property `keyPath` reads on `T` (the root of a longer path).
    static func firstName<T: ObjectBase, V>(of keyPath: KeyPath<T, V>) -> String? {
        recordedNames(keyPath, on: T.self).first
    }

    /// The `@Persisted` properties reading `keyPath` on a prototype touches, in order.
    private static func recordedNames<T: ObjectBase>(_ keyPath: AnyKeyPath, on type: T.Type) -> [String] {
        let prototype = T(_porterMake: ())
        let recorder = KeyPathRecorder()
        prototype._keyPathRecorder = recorder
        _ = prototype[keyPath: keyPath]
        prototype._keyPathRecorder = nil
        return recorder.names
    }
}
