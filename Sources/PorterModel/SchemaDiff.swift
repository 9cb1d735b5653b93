/// Compares two schemas with realm-core's matching rules (`Schema::compare`).
///
/// Classes and properties match by name; order never matters. A change of base type, collection
/// kind or link target is one `changePropertyType` and suppresses that property's nullability and
/// index changes. Class removals are reported (realm-core only reports them on request; Porter's
/// planner always wants to know).
public enum SchemaDiff {
    /// The ordered changes that turn `old` into `new`.
    public static func compare(_ old: Schema, _ new: Schema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for cls in new.classes where old[cls.name] == nil {
            changes.append(.addClass(cls))
        }
        for cls in old.classes where new[cls.name] == nil {
            changes.append(.removeClass(cls))
        }
        for oldClass in old.classes {
            guard let newClass = new[oldClass.name] else { continue }
            changes += compareClass(oldClass, newClass)
        }
        for oldClass in old.classes {
            if let newClass = new[oldClass.name], newClass.isEmbedded != oldClass.isEmbedded {
                changes.append(.changeClassType(className: oldClass.name, toEmbedded: newClass.isEmbedded))
            }
        }
        return changes
    }

    /// The property-level changes of one class present on both sides.
    static func compareClass(_ old: ObjectSchema, _ new: ObjectSchema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let name = old.name
        for current in old.persistedProperties {
            guard let target = new.property(named: current.name), !target.isComputed else {
                changes.append(.removeProperty(className: name, property: current))
                continue
            }
            if target.type != current.type || target.objectType != current.objectType
                || target.collection != current.collection
            {
                changes.append(.changePropertyType(className: name, old: current, new: target))
                continue
            }
            if current.isOptional != target.isOptional {
                changes.append(
                    current.isOptional
                        ? .makeRequired(className: name, property: current)
                        : .makeOptional(className: name, property: current))
            }
            let currentIndexed = current.isIndexed || old.primaryKey == current.name
            let targetIndexed = target.isIndexed || new.primaryKey == target.name
            if targetIndexed && !currentIndexed {
                changes.append(.addIndex(className: name, property: target))
            } else if currentIndexed && !targetIndexed {
                changes.append(.removeIndex(className: name, property: current))
            }
        }
        for target in new.persistedProperties where !old.persistedProperties.contains(where: { $0.name == target.name })
        {
            changes.append(.addProperty(className: name, property: target))
        }
        if old.primaryKey != new.primaryKey {
            changes.append(.changePrimaryKey(className: name, old: old.primaryKey, new: new.primaryKey))
        }
        return changes
    }
}
