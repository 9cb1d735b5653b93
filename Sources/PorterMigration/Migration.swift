import Foundation

/// What a migration block works with, shaped like Realm's `Migration`: the old file (read-only,
/// old schema) and the new one (being written, new schema), paired by object key.
///
/// Errors follow realm-core's messages. Methods throw; a thrown error (or one recorded by a
/// subscript, which cannot throw) fails the migration and rolls everything back.
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
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void) throws {
        let oldName = oldClassNames[typeName] ?? typeName
        let inOld = oldSchema[oldName] != nil
        let inNew = try newSchema[typeName] != nil && storage.hasTable(typeName)
        if inOld {
            let cursor = try old.makeCursor(oldName)
            while let object = try cursor.next() {
                let oldObject = MigrationObject(migration: self, snapshot: object, schema: oldSchema[oldName])
                if inNew {
                    guard try db.exists(typeName, object.key) else { continue }
                    try block(oldObject, MigrationObject(migration: self, className: typeName, key: object.key))
                } else {
                    try block(oldObject, nil)
                }
                try throwRecorded()
            }
        } else if inNew, let last = try storage.maxKey(typeName) {
            var after = Int64.min
            while true {
                let keys = try storage.keys(typeName, after: after, upTo: last, limit: MigrationStorage.batchSize)
                guard let tail = keys.last else { break }
                after = tail.rawValue
                for key in keys where try db.exists(typeName, key) {
                    try block(nil, MigrationObject(migration: self, className: typeName, key: key))
                    try throwRecorded()
                }
            }
        }
    }

    /// Creates an object of a class of the new schema from property values (missing ones take
    /// their defaults; an ObjectId or UUID primary key is generated when not given).
    /// - Throws: for an unknown or embedded class, or invalid values.
    @discardableResult
    public func create(_ typeName: String, value: [String: Value] = [:]) throws -> MigrationObject {
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
    public func delete(_ object: MigrationObject) throws {
        guard !object.isOld else {
            throw PorterError(.notInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
        }
        try db.delete(object.className, object.key)
    }

    /// Deletes every object of a class, as Realm's `deleteData(forType:)`: a class of the new
    /// schema is emptied, a class only the old schema has is removed from the file. Returns false
    /// when the file has no such class.
    @discardableResult
    public func deleteData(forType typeName: String) throws -> Bool {
        guard !typeName.isEmpty, try storage.hasTable(typeName) else { return false }
        try runner.deleteClassData(typeName, dropTable: newSchema[typeName] == nil)
        return true
    }

    /// Moves the values of `oldName` to `newName` (realm-core's `rename_property` rules and
    /// messages). A `newName` the new schema lacks is an intermediate name for chained renames.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) throws {
        func fail(_ message: String) -> PorterError { PorterError(.migrationFailed, message) }
        guard try storage.hasTable(typeName) else {
            throw fail("Cannot rename properties for type '\(typeName)' because it does not exist.")
        }
        guard let target = newSchema[typeName] else {
            throw fail("Cannot rename properties for type '\(typeName)' because it has been removed from the Realm.")
        }
        if target.property(named: oldName) != nil {
            throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because the source property still exists.")
        }
        guard let source = runner.physical[typeName]?[oldName] else {
            throw fail("Cannot rename property '\(typeName).\(oldName)' because it does not exist.")
        }
        runner.markTouched(typeName)
        if let destination = runner.physical[typeName]?[newName] {
            if destination.type != source.type || destination.objectType != source.objectType || destination.collection != source.collection {
                throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from type '\(source.realmTypeString)' to '\(destination.realmTypeString)'.")
            }
            if source.isOptional && !destination.isOptional {
                throw fail("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from optional to required.")
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

    /// Records the first error of a subscript (which cannot throw).
    func record(_ error: Error) {
        guard recordedError == nil else { return }
        recordedError = (error as? PorterError) ?? PorterError(.migrationFailed, "\(error)")
    }

    /// Throws the recorded error, if any.
    func throwRecorded() throws {
        if let recordedError { throw recordedError }
    }
}
