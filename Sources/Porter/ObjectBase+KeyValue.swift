import Foundation

/// Realm's key-value access to persisted properties by name: `Dog(value: ["name": "Rex"])`,
/// `dog["name"]`, `dog.value(forKey: "name")`, `dog.setValue("Max", forKey: "name")`.
extension ObjectBase {
    /// A new unmanaged object from a dictionary of property values, an array of them in declared
    /// order, or another object (copied as by ``init(value:)-(ObjectBase)``). Objects, lists, sets
    /// and maps inside may themselves be given as dictionaries and arrays. Properties not given
    /// keep their initial values.
    ///
    /// A value that does not fit its property is a programming error and stops the program, as
    /// in Realm; check untrusted input first, or use the typed properties.
    public convenience init(value: Any) {
        if let object = value as? ObjectBase {
            self.init(value: object)
            return
        }
        self.init()
        if let problem = assignValuesOrProblem(value) {
            preconditionFailure("\(type(of: self).className())(value:): \(problem)")
        }
    }

    /// Sets properties from a dictionary or array; false when something does not fit.
    func assignValues(_ value: Any) -> Bool { assignValuesOrProblem(value) == nil }

    /// Sets properties from a dictionary (by name) or an array (in declared order); a message
    /// naming the first value that does not fit, or nil.
    func assignValuesOrProblem(_ value: Any) -> String? {
        let properties = _persistedProperties().filter { $0.property.typeInfo.type != .linkingObjects }
        let className = type(of: self).className()
        if let dictionary = value as? [String: Any] {
            let names = Set(properties.map(\.name))
            if let unknown = dictionary.keys.sorted().first(where: { !names.contains($0) }) {
                return "class '\(className)' has no property '\(unknown)'"
            }
            for (name, property) in properties {
                guard let item = dictionary[name] else { continue }
                if !property.assign(item, in: self) {
                    return "\(className).\(name): \(describeValue(item)) is not a \(property.swiftTypeName)"
                }
            }
            return nil
        }
        if let array = value as? [Any] {
            if array.count > properties.count {
                return "\(array.count) values given, but class '\(className)' has \(properties.count) properties"
            }
            for (item, entry) in zip(array, properties) where !entry.property.assign(item, in: self) {
                return "\(className).\(entry.name): \(describeValue(item)) is not a \(entry.property.swiftTypeName)"
            }
            return nil
        }
        return "expected a dictionary, an array or an object, got \(type(of: value))"
    }

    /// The persisted property called `key`, or a stop naming class and key.
    private func persistedProperty(_ key: String) -> AnyPersistedProperty {
        guard let property = _persistedProperties().first(where: { $0.name == key })?.property else {
            preconditionFailure("\(type(of: self).className()).\(key): no such persisted property")
        }
        return property
    }

    /// The value of the persisted property called `key` (through the database when managed).
    /// An unknown key stops the program, as in Realm.
    public func value(forKey key: String) -> Any? {
        let value = persistedProperty(key).currentValue(of: self)
        if let optional = value as? _OptionalValue, optional._isNil { return nil }
        return value
    }

    /// Sets the persisted property called `key` (inside a write transaction when managed). A key
    /// that does not exist or a value of the wrong type stops the program, as in Realm.
    public func setValue(_ value: Any?, forKey key: String) {
        let property = persistedProperty(key)
        guard property.assign(value ?? NSNull(), in: self) else {
            preconditionFailure(
                "\(type(of: self).className()).\(key): \(value.map { describeValue($0) } ?? "nil") is not a \(property.swiftTypeName)"
            )
        }
    }

    /// Sets several persisted properties by name.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value, forKey: key) }
    }

    /// The persisted property called `key`, by name (`dog["name"]`).
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

}
