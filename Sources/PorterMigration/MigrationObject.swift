import PorterModel
import PorterStore

/// An object inside a migration block, Realm's `MigrationObject` (a dynamic object): the old one
/// reads the file as it was, with the old schema; the new one reads and writes the file being
/// migrated, with the new schema.
///
/// `object["name"]` reads (nil for null) and writes. A subscript cannot throw, so an unknown
/// property or a rejected value is recorded and fails the migration when the block returns
/// (`Invalid property name 'x' for class 'Dog'.`); ``value(forKey:)`` and ``setValue(_:forKey:)``
/// throw at once instead.
public final class MigrationObject {
    /// The object's class (its name in the file it belongs to).
    public let className: String
    /// The object's key (the same in the old and the new file).
    public let key: ObjectKey
    /// The class's schema (old or new).
    public let objectSchema: ObjectSchema
    /// Whether this is the read-only old object.
    public let isOld: Bool

    let migration: Migration
    private let snapshot: DynamicObject?

    /// An old object, from its snapshot.
    init(migration: Migration, snapshot: DynamicObject, schema: ObjectSchema?) {
        self.migration = migration
        self.className = snapshot.className
        self.key = snapshot.key
        self.objectSchema = schema ?? ObjectSchema(name: snapshot.className, properties: snapshot.properties)
        self.isOld = true
        self.snapshot = snapshot
    }

    /// A new object, read and written live.
    init(migration: Migration, className: String, key: ObjectKey) {
        self.migration = migration
        self.className = className
        self.key = key
        self.objectSchema = migration.newSchema[className] ?? ObjectSchema(name: className, properties: [])
        self.isOld = false
        self.snapshot = nil
    }

    /// The value of a property (nil for null), or, for a new object, sets it. Errors fail the
    /// migration when the block returns. Where the type is not given, the `Any?` subscript
    /// (Realm's) is used instead.
    @_disfavoredOverload
    public subscript(_ property: String) -> Value? {
        get {
            do {
                let value = try self.value(forKey: property)
                return value.isNull ? nil : value
            } catch {
                migration.record(error)
                return nil
            }
        }
        set {
            do { try setValue(newValue ?? .null, forKey: property) } catch { migration.record(error) }
        }
    }

    /// The value of a stored property (`.null` when unset; a link as `.link`, a collection as
    /// `.list`/`.set`/`.map`).
    /// - Throws: `Invalid property name 'x' for class 'Dog'.` for a property the schema lacks.
    public func value(forKey property: String) throws -> Value {
        guard let definition = objectSchema.property(named: property) else { throw invalidName(property) }
        if let snapshot {
            guard let value = snapshot[property] else {
                if definition.isComputed {
                    throw PorterError(
                        .usage, "linkingObjects property '\(className).\(property)' cannot be read in a migration")
                }
                throw invalidName(property)
            }
            return value
        }
        return try migration.db.value(className, key, property)
    }

    /// Sets a stored property of a new object (a collection's contents are replaced; primary keys
    /// may change while the migration runs and are checked for duplicates afterwards).
    /// - Throws: on the old object (`Cannot modify managed objects outside of a write
    ///   transaction.`), for an unknown property, or a value of the wrong type.
    public func setValue(_ value: Value, forKey property: String) throws {
        guard !isOld else {
            throw PorterError(.notInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
        }
        guard objectSchema.property(named: property) != nil else { throw invalidName(property) }
        try migration.db.set(className, key, property, value)
    }

    /// The object a to-one link property points at (old objects stay in the old file), or nil.
    public func linkedObject(_ property: String) throws -> MigrationObject? {
        guard case .link(let link) = try value(forKey: property) else { return nil }
        if isOld {
            guard let object = try migration.old.object(link.className, link.key) else { return nil }
            return MigrationObject(migration: migration, snapshot: object, schema: migration.oldSchema[link.className])
        }
        guard try migration.db.exists(link.className, link.key) else { return nil }
        return MigrationObject(migration: migration, className: link.className, key: link.key)
    }

    /// Records an error that fails the migration when the block returns.
    func recordError(_ error: Error) { migration.record(error) }

    private func invalidName(_ property: String) -> PorterError {
        PorterError(.notFound, "Invalid property name '\(property)' for class '\(className)'.")
    }
}

extension MigrationObject: Hashable {
    /// The same stored object, on the same side (old or new) of the migration.
    public static func == (lhs: MigrationObject, rhs: MigrationObject) -> Bool {
        lhs.className == rhs.className && lhs.key == rhs.key && lhs.isOld == rhs.isOld
    }

    /// Hashes the class, key and side.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(className)
        hasher.combine(key)
        hasher.combine(isOld)
    }
}
