import Foundation

extension Realm {
    /// What `add(_:update:)` does when an object with the same primary key exists.
    public typealias UpdatePolicy = PorterStore.UpdatePolicy

    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool { database.isInWriteTransaction }

    /// Runs `block` in a write transaction: committed when it returns, rolled back when it
    /// throws or when a change of a managed object failed inside it (see ``pendingWriteError``).
    @discardableResult
    public func write<Result>(_ block: () throws -> Result) throws -> Result {
        try beginWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            cancelWrite()
            throw error
        }
        try commitWrite()
        return result
    }

    /// Begins a write transaction.
    /// - Throws: ``PorterError/Code/usage`` when one is already open.
    public func beginWrite() throws {
        try database.beginWrite()
        pendingWriteError = nil
        attachedInWrite = []
        objectHoldingInWrite = []
    }

    /// Commits the write transaction, or rolls it back and throws the first failed change.
    public func commitWrite() throws {
        if let failure = pendingWriteError {
            cancelWrite()
            throw failure
        }
        do {
            try database.commitWrite()
        } catch {
            detachAddedObjects()
            throw error
        }
        attachedInWrite = []
        // Managed objects read links from the database, as Realm's do; keeping the values they
        // were added with would keep object graphs (and, through them, the realm) alive in cycles.
        for property in objectHoldingInWrite { property.releaseUnmanagedValue() }
        objectHoldingInWrite = []
    }

    /// Rolls the write transaction back; objects added in it become unmanaged again.
    public func cancelWrite() {
        database.cancelWrite()
        pendingWriteError = nil
        detachAddedObjects()
    }

    private func detachAddedObjects() {
        for object in attachedInWrite { object._managed = nil }
        attachedInWrite = []
        objectHoldingInWrite = []
    }

    /// Throws unless a write transaction is open.
    func requireWrite(_ what: String, location: String) throws {
        guard database.isInWriteTransaction else {
            throw PorterError(.notInWriteTransaction, "cannot \(what) outside a write transaction; call it inside realm.write { }", location: location)
        }
    }

    // MARK: - Adding

    /// Adds an unmanaged object, and the unmanaged objects it links to or embeds, to the realm;
    /// they are managed afterwards. An already managed object of this realm is left as is.
    ///
    /// With `update: .modified` or `.all`, an existing object with the same primary key is updated
    /// instead; with `.error` (the default) it is a ``PorterError/Code/duplicatePrimaryKey`` error.
    /// A failing call changes nothing and leaves the objects unmanaged.
    public func add(_ object: Object, update: UpdatePolicy = .error) throws {
        let className = type(of: object).className()
        try requireWrite("add an object", location: className)
        if let managed = object._managed {
            guard managed.realm.database === database else {
                throw PorterError(.usage, "the object is managed by another realm; add a copy instead: \(className)(value: object)", location: className)
            }
            if object.isInvalidated {
                throw PorterError(.usage, "the object has been deleted; add a copy made before it was deleted instead", location: className)
            }
            return
        }
        let schema = try objectSchema(for: type(of: object))
        if update != .error && schema.primaryKey == nil {
            throw PorterError(.usage, "'\(className)' has no primary key, so it cannot be added with update: .\(update)", location: className)
        }
        let writer = _PorterWriter(realm: self, mode: .add(update))
        do {
            _ = try database.savepoint { try writer.add(object, policy: update, in: self) }
        } catch {
            writer.detachAll()
            throw error
        }
        attachedInWrite += writer.attached
        objectHoldingInWrite += writer.objectHolding
    }

    /// Adds every object of a sequence; see ``add(_:update:)``.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) throws where S.Element: Object {
        for object in objects { try add(object, update: update) }
    }

    // MARK: - Deleting

    /// Deletes a managed object with Realm's semantics: links to it become null, it leaves every
    /// list, set and map, and its embedded objects are deleted with it.
    public func delete(_ object: ObjectBase) throws {
        let className = type(of: object).className()
        try requireWrite("delete an object", location: className)
        guard let managed = object._managed, managed.realm.database === database else {
            throw PorterError(.usage, "can only delete an object from the realm it belongs to", location: className)
        }
        try database.delete(managed.className, managed.key)
    }

    /// Deletes every object of a sequence (results, a list …); objects already gone are skipped.
    public func delete<S: Sequence>(_ objects: S) throws where S.Element: ObjectBase {
        // Results and lists are live: take the objects first, then delete.
        let targets = Array(objects)
        try requireWrite("delete objects", location: targets.first.map { type(of: $0).className() } ?? "")
        for object in targets {
            guard let managed = object._managed, managed.realm.database === database else {
                throw PorterError(.usage, "can only delete an object from the realm it belongs to", location: type(of: object).className())
            }
            if try database.exists(managed.className, managed.key) {
                try database.delete(managed.className, managed.key)
            }
        }
    }

    /// Deletes every object of every model class.
    public func deleteAll() throws {
        try requireWrite("delete objects", location: "")
        for name in typesByName.keys.sorted() where database.schema[name]?.isEmbedded == false {
            try database.deleteAll(name)
        }
    }
}
