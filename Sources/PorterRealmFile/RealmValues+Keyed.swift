import PorterModel

extension RealmValues {
    /// A stored value as a `Value` that keeps the file's object keys, for an import that resolves
    /// links by key: a link (also in a `mixed`) as `.link` naming the target's key in this file, an
    /// embedded object as `.object` of its fields, a list, set or dictionary as `.list`, `.set` or
    /// `.map`, a scalar as ``scalar(_:location:)`` gives it (floats stay floats).
    /// - Parameter embedded: the properties of each embedded class of the file, by class name.
    /// - Throws: ``PorterError`` (`notADatabase`) for an embedded object of a class the file does
    ///   not have, or a dictionary with two keys that are equal as Unicode text, naming `location`.
    package static func keyed(_ stored: RealmValue, embedded: [String: [Property]], location: String) throws -> Value {
        switch stored {
        case .link(let className, let key): return .link(ObjectLink(className, ObjectKey(key)))
        case .embedded(let className, _, let values):
            guard let properties = embedded[className] else {
                throw PorterError(
                    .notADatabase, "an embedded object of class \(className), which the file does not have",
                    location: location)
            }
            var fields: [String: Value] = Dictionary(minimumCapacity: values.count)
            for i in 0..<min(values.count, properties.count) {
                fields[properties[i].name] = try keyed(values[i], embedded: embedded, location: location)
            }
            return .object(fields)
        case .list(let elements):
            return .list(try elements.map { try keyed($0, embedded: embedded, location: location) })
        case .set(let elements):
            return .set(try elements.map { try keyed($0, embedded: embedded, location: location) })
        case .dictionary(let entries):
            var map: [String: Value] = Dictionary(minimumCapacity: entries.count)
            for entry in entries {
                let value = try keyed(entry.value, embedded: embedded, location: location)
                // Swift's strings compare by canonical equivalence, the file's keys by bytes.
                guard map.updateValue(value, forKey: entry.key) == nil else {
                    throw PorterError(
                        .notADatabase, "a dictionary holds two keys equal as Unicode text ('\(entry.key)')",
                        location: location)
                }
            }
            return .map(map)
        default: return try scalar(stored, location: location)
        }
    }
}
