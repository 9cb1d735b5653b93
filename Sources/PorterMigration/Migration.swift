import Foundation
import PorterModel
import PorterStore

/// What a migration block works with, shaped like Realm's `Migration`: the old file (read-only,
/// old schema) and the new one (being written, new schema), paired by object key.
///
/// Errors follow realm-core's messages. As in Realm, the calls do not throw (so Realm migration
/// blocks compile unchanged): the first failure is recorded, later calls do nothing, and the
/// migration fails with that error when the block returns, rolling everything back. An error
/// the block itself throws fails it the same way.
public final class Migration {
    /// The schema stored in the file before the migration (on-disk names).
    public let oldSchema: Schema
    /// The schema the file gets.
    public let newSchema: Schema
    /// The file's schema version before the migration.
    public let oldSchemaVersion: UInt64

    let old: Database
    let runner: StepRunner
    /// New class name → its name in the old file, through plan class renames.
    let oldClassNames: [String: String]
    /// The first error a subscript recorded; thrown when the block returns.
    var recordedError: PorterError?
    /// How lists of objects are handed to the block (see ``MigrationObjectLists``).
    package var objectLists: MigrationObjectLists?
    /// The lists handed out for new objects since the last write-back.
    var handedOutLists: [HandedOutList] = []

    var db: Database { runner.db }
    var storage: MigrationStorage { runner.storage }

    init(oldSchema: Schema, newSchema: Schema, old: Database, runner: StepRunner, oldClassNames: [String: String]) {
        self.oldSchema = oldSchema
        self.newSchema = newSchema
        self.oldSchemaVersion = oldSchema.version
        self.old = old
        self.runner = runner
        self.oldClassNames = oldClassNames
    }

    /// Calls `block` for the objects of a class, as Realm does: (old, new) pairs matched by key
    /// for a class in both schemas (objects deleted in this migration are skipped, objects created
    /// in it are not visited); (nil, new) for a class only the new schema has; (old, nil) for a
    /// class only the old one has. An unknown class, or one with no objects, never calls `block`.
    public func enumerateObjects(
        ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void
    ) rethrows {
        // Only `block`'s own errors are thrown (rethrows); the file's are recorded (see `Migration`).
        func attempt<T>(_ body: () throws -> T) -> T? {
            guard recordedError == nil else { return nil }
            do { return try body() } catch { record(error); return nil }
        }
        let oldName = oldClassNames[typeName] ?? typeName
        let inOld = oldSchema[oldName] != nil
        guard let inNew = attempt({ try newSchema[typeName] != nil && storage.hasTable(typeName) }) else { return }
        if inOld {
            guard let cursor = attempt({ try old.makeCursor(oldName) }) else { return }
            while let next = attempt({ try cursor.next() }), let object = next {
                let oldObject = MigrationObject(migration: self, snapshot: object, schema: oldSchema[oldName])
                if inNew {
                    guard let exists = attempt({ try db.exists(typeName, object.key) }) else { return }
                    guard exists else { continue }
                    try block(oldObject, MigrationObject(migration: self, className: typeName, key: object.key))
                    writeBackLists()
                } else {
                    try block(oldObject, nil)
                }
                if recordedError != nil { return }
            }
        } else if inNew, let found = attempt({ try storage.maxKey(typeName) }), let last = found {
            var after = Int64.min
            while let keys = attempt({
                try storage.keys(typeName, after: after, upTo: last, limit: MigrationStorage.batchSize)
            }),
                let tail = keys.last
            {
                after = tail.rawValue
                for key in keys {
                    guard let exists = attempt({ try db.exists(typeName, key) }) else { return }
                    guard exists else { continue }
                    try block(nil, MigrationObject(migration: self, className: typeName, key: key))
                    writeBackLists()
                    if recordedError != nil { return }
                }
            }
        }
    }

    /// Creates an object of a class of the new schema from property values (missing ones take
    /// their defaults; an ObjectId or UUID primary key is generated when not given). An unknown
    /// or embedded class, or invalid values, fail the migration (the object returned then names
    /// no stored object).
    @discardableResult
    public func create(_ typeName: String, value: [String: Value] = [:]) -> MigrationObject {
        do {
            return try createObject(typeName, value)
        } catch {
            record(error)
            return MigrationObject(migration: self, className: typeName, key: ObjectKey(Int64.min))
        }
    }

    /// Creates an object from Swift values (`["name": "Rex", "age": 3]`), as Realm's
    /// `create(_:value:)`; see ``MigrationValue``.
    @discardableResult
    public func create(_ typeName: String, value: Any) -> MigrationObject {
        guard let fields = value as? [String: Any] else {
            record(PorterError(.invalidValue, "Migration.create('\(typeName)') needs a dictionary of property values"))
            return MigrationObject(migration: self, className: typeName, key: ObjectKey(Int64.min))
        }
        var values: [String: Value] = [:]
        for (name, item) in fields {
            guard let converted = MigrationValue.stored(item) else {
                record(PorterError(.invalidValue, "\(typeName).\(name): a \(type(of: item)) cannot be stored"))
                return MigrationObject(migration: self, className: typeName, key: ObjectKey(Int64.min))
            }
            values[name] = converted
        }
        return create(typeName, value: values)
    }

    private func createObject(_ typeName: String, _ value: [String: Value]) throws -> MigrationObject {
        try throwRecorded()
        guard let cls = newSchema[typeName] else {
            throw PorterError(.notFound, "Object type '\(typeName)' not found in the new schema.")
        }
        var values = value
        if let pk = cls.primaryKeyProperty, values[pk.name] == nil, pk.defaultValue == nil, !pk.isOptional {
            if pk.type == .objectId { values[pk.name] = .objectId(.generate()) }
            if pk.type == .uuid { values[pk.name] = .uuid(UUID()) }
        }
        let key = try db.create(typeName, values)
        return MigrationObject(migration: self, className: typeName, key: key)
    }

    /// Deletes an object of the new file (links to it are cleared, its embedded objects deleted).
    public func delete(_ object: MigrationObject) {
        recording {
            guard !object.isOld else {
                throw PorterError(
                    .notInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
            }
            try db.delete(object.className, object.key)
        }
    }

    /// Deletes every object of a class, as Realm's `deleteData(forType:)`: a class of the new
    /// schema is emptied, a class only the old schema has is removed from the file. Returns false
    /// when the file has no such class.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        var deleted = false
        recording {
            guard !typeName.isEmpty, try storage.hasTable(typeName) else { return }
            try runner.deleteClassData(typeName, dropTable: newSchema[typeName] == nil)
            deleted = true
        }
        return deleted
    }

    /// Moves the values of `oldName` to `newName` (realm-core's `rename_property` rules and
    /// messages). A `newName` the new schema lacks is an intermediate name for chained renames.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        recording { try rename(onType: typeName, from: oldName, to: newName) }
    }

    private func rename(onType typeName: String, from oldName: String, to newName: String) throws {
        func fail(_ message: String) -> PorterError { PorterError(.migrationFailed, message) }
        guard try storage.hasTable(typeName) else {
            throw fail("Cannot rename properties for type '\(typeName)' because it does not exist.")
        }
        guard let target = newSchema[typeName] else {
            throw fail("Cannot rename properties for type '\(typeName)' because it has been removed from the Realm.")
        }
        if target.property(named: oldName) != nil {
            throw fail(
                "Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because the source property still exists."
            )
        }
        guard let source = runner.physical[typeName]?[oldName] else {
            throw fail("Cannot rename property '\(typeName).\(oldName)' because it does not exist.")
        }
        runner.markTouched(typeName)
        if let destination = runner.physical[typeName]?[newName] {
            if destination.type != source.type || destination.objectType != source.objectType
                || destination.collection != source.collection
            {
                throw fail(
                    "Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from type '\(source.realmTypeString)' to '\(destination.realmTypeString)'."
                )
            }
            if source.isOptional && !destination.isOptional {
                throw fail(
                    "Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from optional to required."
                )
            }
            try storage.dropProperty(typeName, newName, collection: destination.isCollection)
            var moved = source
            moved.name = newName
            moved.isOptional = destination.isOptional
            runner.physical[typeName]?[newName] = moved
        } else {
            var moved = source
            moved.name = newName
            runner.physical[typeName]?[newName] = moved
            runner.blockRenamed.insert("\(typeName).\(newName)")
        }
        try storage.renameProperty(typeName, from: oldName, to: newName, collection: source.isCollection)
        runner.physical[typeName]?[oldName] = nil
        runner.blockRenamed.remove("\(typeName).\(oldName)")
        if target.property(named: newName) != nil { runner.blockRenamed.remove("\(typeName).\(newName)") }
        runner.summary.renames.append("\(typeName).\(oldName) -> \(newName)")
    }

    /// Runs one call of the block's API unless an earlier one failed; records its failure.
    func recording(_ body: () throws -> Void) {
        guard recordedError == nil else { return }
        do { try body() } catch { record(error) }
    }

    /// Records the first error of a call (which cannot throw).
    func record(_ error: Error) {
        guard recordedError == nil else { return }
        recordedError = (error as? PorterError) ?? PorterError(.migrationFailed, "\(error)")
    }

    /// Throws the recorded error, if any.
    func throwRecorded() throws {
        if let recordedError { throw recordedError }
    }
}
