import PorterModel

/// The old schema with renames applied, and the changes that remain between it and the new one.
public struct RenamedDiff: Sendable, Hashable {
    /// The old schema after the renames: what the file looks like once they are applied.
    public var renamedOld: Schema
    /// The renames that were applied (property renames name their class by its new name).
    public var renames: RenameSet
    /// The realm-core changes from ``renamedOld`` to the new schema.
    public var changes: [SchemaChange]
}

extension SchemaDiff {
    /// Applies `renames` to `old` (with realm-core's rename rules and messages), then compares the
    /// result with `new`.
    /// - Throws: ``PorterError/Code/migrationFailed`` with Realm's message when a rename is invalid.
    public static func compare(_ old: Schema, _ new: Schema, renames: RenameSet) throws -> RenamedDiff {
        let renamed = try applyRenames(renames, to: old, target: new)
        return RenamedDiff(renamedOld: renamed, renames: renames.normalized, changes: compare(renamed, new))
    }

    /// `old` with the class renames and then the property renames applied.
    ///
    /// Rules and messages follow realm-core's `ObjectStore::rename_property`: the class must exist
    /// on both sides, the source property must exist in the old schema and be gone from the new
    /// one, the destination must exist in the new schema with the same type and link target, and
    /// an optional property cannot become required through a rename. A rename to a name the new
    /// schema lacks is allowed only when a later rename moves it on (chained renames).
    public static func applyRenames(_ renames: RenameSet, to old: Schema, target: Schema) throws -> Schema {
        var schema = old
        for rename in renames.classes { try renameClass(rename, in: &schema, target: target) }
        var pending: [String: PropertyRename] = [:]
        for rename in renames.normalized.properties {
            try renameProperty(rename, in: &schema, target: target)
            pending["\(rename.className).\(rename.to)"] = rename
            pending["\(rename.className).\(rename.from)"] = nil
        }
        for key in pending.keys.sorted() {
            guard let rename = pending[key] else { continue }
            if target[rename.className]?.property(named: rename.to) == nil {
                throw failure("Renamed property '\(rename.className).\(rename.to)' does not exist.")
            }
        }
        return schema
    }

    static func renameClass(_ rename: ClassRename, in schema: inout Schema, target: Schema) throws {
        guard var cls = schema[rename.from] else {
            throw failure("Cannot rename class '\(rename.from)' because it does not exist.")
        }
        if target[rename.from] != nil {
            throw failure(
                "Cannot rename class '\(rename.from)' to '\(rename.to)' because the source class still exists.")
        }
        if schema[rename.to] != nil {
            throw failure(
                "Cannot rename class '\(rename.from)' to '\(rename.to)' because class '\(rename.to)' already exists.")
        }
        guard target[rename.to] != nil else {
            throw failure("Renamed class '\(rename.to)' does not exist.")
        }
        schema.remove(className: rename.from)
        cls.name = rename.to
        schema.upsert(cls)
        // Links and linkingObjects name classes: they follow the rename.
        for var other in schema.classes {
            var touched = false
            for i in other.properties.indices where other.properties[i].objectType == rename.from {
                other.properties[i].objectType = rename.to
                touched = true
            }
            if touched { schema.upsert(other) }
        }
    }

    static func renameProperty(_ rename: PropertyRename, in schema: inout Schema, target: Schema) throws {
        let name = rename.className
        guard var cls = schema[name] else {
            // realm-core creates added tables before the migration function runs, so a class that
            // only the new schema has reports the missing property; one neither has, the type.
            if target[name] != nil {
                throw failure("Cannot rename property '\(name).\(rename.from)' because it does not exist.")
            }
            throw failure("Cannot rename properties for type '\(name)' because it does not exist.")
        }
        guard let targetClass = target[name] else {
            throw failure("Cannot rename properties for type '\(name)' because it has been removed from the Realm.")
        }
        if targetClass.property(named: rename.from) != nil {
            throw failure(
                "Cannot rename property '\(name).\(rename.from)' to '\(rename.to)' because the source property still exists."
            )
        }
        guard let index = cls.properties.firstIndex(where: { $0.name == rename.from && !$0.isComputed }) else {
            throw failure("Cannot rename property '\(name).\(rename.from)' because it does not exist.")
        }
        if cls.property(named: rename.to) != nil {
            throw failure(
                "Cannot rename property '\(name).\(rename.from)' to '\(rename.to)' because property '\(rename.to)' already exists."
            )
        }
        let current = cls.properties[index]
        if let destination = targetClass.property(named: rename.to) {
            if destination.type != current.type || destination.objectType != current.objectType
                || destination.collection != current.collection
            {
                throw failure(
                    "Cannot rename property '\(name).\(rename.from)' to '\(rename.to)' because it would change from type '\(current.realmTypeString)' to '\(destination.realmTypeString)'."
                )
            }
            if current.isOptional && !destination.isOptional {
                throw failure(
                    "Cannot rename property '\(name).\(rename.from)' to '\(rename.to)' because it would change from optional to required."
                )
            }
        }
        cls.properties[index].name = rename.to
        if cls.primaryKey == rename.from { cls.primaryKey = rename.to }
        schema.upsert(cls)
        // linkingObjects properties anywhere that name the old origin follow it.
        for var other in schema.classes {
            var touched = false
            for i in other.properties.indices
            where other.properties[i].isComputed
                && other.properties[i].objectType == name && other.properties[i].linkOriginProperty == rename.from
            {
                other.properties[i].linkOriginProperty = rename.to
                touched = true
            }
            if touched { schema.upsert(other) }
        }
    }

    private static func failure(_ message: String) -> PorterError {
        PorterError(.migrationFailed, message)
    }
}
