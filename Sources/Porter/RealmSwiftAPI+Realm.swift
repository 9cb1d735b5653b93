import Foundation

// Realm Swift 10.54's remaining `Realm` spellings that need nothing Porter lacks.

extension Realm {
    /// Whether the file a configuration names exists (false for an in-memory configuration),
    /// as Realm's `fileExists(for:)`.
    public static func fileExists(for config: Configuration) -> Bool {
        guard let url = config.resolvedFileURL else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// Realm's older spelling of ``add(_:update:)-(Object,_)``: `true` is `.all`, `false` `.error`.
    // Realm's own deprecation message, kept on one line (the attribute takes one literal).
    @available(
        *, deprecated,
        message:
            "Pass .error, .modified or .all rather than a boolean. .error is equivalent to false and .all is equivalent to true."
    )
    public func add(_ object: Object, update: Bool) {
        add(object, update: update ? .all : .error)
    }

    /// Realm's older spelling of ``add(_:update:)-(S,_)``: `true` is `.all`, `false` `.error`.
    // Realm's own deprecation message, kept on one line (the attribute takes one literal).
    @available(
        *, deprecated,
        message:
            "Pass .error, .modified or .all rather than a boolean. .error is equivalent to false and .all is equivalent to true."
    )
    public func add<S: Sequence>(_ objects: S, update: Bool) where S.Element: Object {
        add(objects, update: update ? .all : .error)
    }

    /// Deletes the objects a map holds (its nil values are skipped), inside a write transaction,
    /// as Realm's `delete(_:)` of a map of links.
    public func delete<Key: _MapKey, Value: ObjectBase>(_ map: Map<Key, Value?>) {
        delete(map.values.compactMap { $0 })
    }
}
