import Foundation

/// `List<MigrationObject>` in migration blocks, as Realm's (`newObject["dogs"] as! List<MigrationObject>`,
/// then `append(migration.create("Dog", value: …))`): a migration object is a collection value
/// that stands for a link. Only the migration's lists hold them; no model property can.
extension MigrationObject: RealmCollectionValue {
    /// A link (to no model class: migration objects are dynamic).
    public static var _porterType: _PorterTypeInfo {
        var info = _PorterTypeInfo(.object)
        info.unsupportedReason = "MigrationObject is only an element of a migration block's lists"
        return info
    }

    /// There is no migration object without a migration: a model property of this type is
    /// refused by the schema before this could be asked.
    public static func _porterDefault() -> Self {
        preconditionFailure("MigrationObject: only a migration block's lists hold migration objects")
    }

    /// Migration objects are never read from a realm.
    public static func _porterDecode(_ value: Value, _ realm: Realm?) throws -> Self {
        throw PorterError(.usage, "MigrationObject: only a migration block's lists hold migration objects")
    }

    /// The link to the object.
    public func _porterEncode(_ writer: _PorterWriter) throws -> Value { .link(ObjectLink(className, key)) }
}

extension Realm {
    /// The configuration's migration block, with lists of objects handed to it as
    /// `List<MigrationObject>` (written back when each block call returns).
    static func typedMigrationBlock(_ block: @escaping MigrationBlock) -> MigrationBlock {
        { migration, oldSchemaVersion in
            migration.objectLists = MigrationObjectLists(
                make: { List($0) },
                contents: { ($0 as? List<MigrationObject>)?.elements ?? ($0 as? [MigrationObject]) })
            try block(migration, oldSchemaVersion)
        }
    }
}
