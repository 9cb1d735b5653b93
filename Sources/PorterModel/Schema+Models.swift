/// Supplementing a schema read from a Realm file with what such a file never stores.
///
/// A Realm file keeps classes, stored properties, primary keys, indexes and link targets, but not
/// `linkingObjects` properties, default values or Swift's exact integer widths and enum types. A
/// models file (any schema file: what the app's models declare) fills those in.
extension Schema {
    /// This schema with `models`' `linkingObjects` properties and default values added.
    ///
    /// Only what the file cannot contradict is taken: a `linkingObjects` property of a class this
    /// schema has, whose origin class and property exist here and link back to it; a default of a
    /// property with the same name and type shape. Classes and properties only `models` declares
    /// are not added (the file's data has none), and nothing of this schema is removed.
    /// - Returns: the supplemented schema and one note per models entry that could not be used.
    public func supplemented(by models: Schema) -> (schema: Schema, notes: [String]) {
        var result = self
        var notes: [String] = []
        for modelClass in models.classes {
            guard var cls = self[modelClass.name] else {
                notes.append("\(modelClass.name): class is not in the file; its declarations are ignored")
                continue
            }
            for modelProperty in modelClass.properties {
                let location = "\(modelClass.name).\(modelProperty.name)"
                if modelProperty.isComputed {
                    guard cls.property(named: modelProperty.name) == nil else { continue }
                    guard let origin = modelProperty.objectType, let originProperty = modelProperty.linkOriginProperty,
                        let link = self[origin]?.property(named: originProperty),
                        link.type == .object, link.objectType == cls.name
                    else {
                        notes.append(
                            "\(location): linkingObjects origin \(modelProperty.objectType ?? "?").\(modelProperty.linkOriginProperty ?? "?") is not a link to \(cls.name) in the file; ignored"
                        )
                        continue
                    }
                    cls.properties.append(modelProperty)
                    continue
                }
                guard let index = cls.properties.firstIndex(where: { $0.name == modelProperty.name }) else {
                    notes.append("\(location): property is not in the file; ignored")
                    continue
                }
                let stored = cls.properties[index]
                guard stored.type == modelProperty.type, stored.collection == modelProperty.collection,
                    stored.objectType == modelProperty.objectType
                else {
                    notes.append(
                        "\(location): the models declare \(modelProperty.typeShorthand), the file stores \(stored.typeShorthand); the file's type is kept"
                    )
                    continue
                }
                if let value = modelProperty.defaultValue { cls.properties[index].defaultValue = value }
            }
            // The models' declared order (computed properties in their place); what only the file
            // has keeps its order after them.
            let order = Dictionary(
                modelClass.properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            let positions = Dictionary(
                cls.properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            cls.properties.sort {
                (order[$0.name] ?? Int.max, positions[$0.name] ?? 0) < (
                    order[$1.name] ?? Int.max, positions[$1.name] ?? 0
                )
            }
            result.upsert(cls)
        }
        return (result, notes)
    }
}
