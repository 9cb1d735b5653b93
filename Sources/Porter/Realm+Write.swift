import Foundation

extension Realm {
    /// What `add(_:update:)` does when an object with the same primary key exists.
    public typealias UpdatePolicy = PorterStore.UpdatePolicy

    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool { database.isInWriteTransaction }

    /// Runs `block` in a write transaction: committed when it returns, rolled back when it
    /// throws or when a change of a managed object failed inside it (see ``pendingWriteError``).
    @discardableResult
    /// Observations of `tokens` are not told about this transaction's changes (Realm's
    /// `withoutNotifying:`, for changes the observer made itself).
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws
        -> Result
    {
        beginWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            cancelWrite()
            throw error
        }
        try commitWrite(withoutNotifying: tokens)
        return result
    }

    /// Begins a write transaction. Like Realm's, it does not throw: when the transaction cannot
    /// begin (one is already open, another process holds the write lock past the busy timeout)
    /// the failure is kept in ``pendingWriteError``, the changes made before the matching
    /// `commitWrite()` are skipped, and `commitWrite()` (or `write(_:)`) throws it.
    public func beginWrite() {
        pendingWriteError = nil
        core.writeAttachment = WriteAttachment()
        objectHoldingInWrite = []
        if let refusal = core.writeRefusal {
            pendingWriteError = refusal
            return
        }
        do {
            try database.beginWrite()
        } catch {
            pendingWriteError = error as? PorterError ?? PorterError(.io, String(describing: error))
        }
    }

    /// Commits the write transaction, or rolls it back and throws the first failed change.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        if let failure = pendingWriteError {
            if database.isInWriteTransaction { cancelWrite() } else { pendingWriteError = nil }
            throw failure
        }
        do {
            try database.commitWrite()
        } catch {
            detachAddedObjects()
            throw error
        }
        // Objects added in the committed transaction stay managed whatever comes next.
        core.writeAttachment = WriteAttachment()
        // Managed objects read links from the database, as Realm's do; keeping the values they
        // were added with would keep object graphs (and, through them, the realm) alive in cycles.
        for property in objectHoldingInWrite { property.releaseUnmanagedValue() }
        objectHoldingInWrite = []
        notifyAfterCommit(skipping: tokens)
    }

    /// Rolls the write transaction back; objects added in it become unmanaged again.
    public func cancelWrite() {
        database.cancelWrite()
        pendingWriteError = nil
        detachAddedObjects()
    }

    private func detachAddedObjects() {
        core.writeAttachment.isRolledBack = true
        core.writeAttachment = WriteAttachment()
        objectHoldingInWrite = []
    }

    /// Stops the program unless a write transaction is open (or one failed to begin: then the
    /// change is skipped and the failure thrown by ``commitWrite()``), as Realm does.
    /// - Returns: whether the change should be made.
    func requireWrite(_ what: String, location: @autoclosure () -> String) -> Bool {
        if pendingWriteError != nil { return false }
        guard database.isInWriteTransaction else {
            preconditionFailure(
                "\(location()): cannot \(what) outside a write transaction; call it inside realm.write { }")
        }
        return true
    }

    /// Runs one step of a write (add, create, delete) that Realm's API does not let throw: a
    /// failure is kept in ``pendingWriteError`` with `location`, and thrown when the transaction ends.
    func recordingWriteError(_ location: @autoclosure () -> String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            var failure = error as? PorterError ?? PorterError(.io, String(describing: error))
            if failure.location == nil { failure.location = location() }
            pendingWriteError = failure
        }
    }

    // MARK: - Adding

    /// Adds an unmanaged object, and the unmanaged objects it links to or embeds, to the realm;
    /// they are managed afterwards. An already managed object of this realm is left as is.
    ///
    /// With `update: .modified` or `.all`, an existing object with the same primary key is updated
    /// instead; with `.error` (the default) it is a `PorterError/Code/duplicatePrimaryKey` error.
    /// As in Realm, `add` does not throw: a failing call changes nothing, leaves the objects
    /// unmanaged, and its error is thrown when the write transaction ends (see ``pendingWriteError``).
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        // Class names only for messages: asked for lazily (adding many objects asked for each).
        guard requireWrite("add an object", location: type(of: object).className()) else { return }
        recordingWriteError(type(of: object).className()) { try addObject(object, update: update) }
    }

    private func addObject(_ object: Object, update: UpdatePolicy) throws {
        var className: String { type(of: object).className() }
        if let managed = object._managed {
            guard managed.realm.database === database else {
                throw PorterError(
                    .usage, "the object is managed by another realm; add a copy instead: \(className)(value: object)",
                    location: className)
            }
            if object.isInvalidated {
                throw PorterError(
                    .usage, "the object has been deleted; add a copy made before it was deleted instead",
                    location: className)
            }
            return
        }
        // A class already added this way: one INSERT without asking the schema again.
        if update == .error, let plan = currentFlatAddPlan(for: object) { return try addFlat(object, plan) }
        let schema = try objectSchema(for: type(of: object))
        if update != .error && schema.primaryKey == nil {
            throw PorterError(
                .usage, "'\(className)' has no primary key, so it cannot be added with update: .\(update)",
                location: className)
        }
        let writer = _PorterWriter(realm: self, mode: .add(update))
        do {
            if _PorterWriter.isSingleInsert(self, type(of: object), schema.name, update) {
                // Checks that change nothing, then one INSERT: a failure leaves no partial change, so
                // no savepoint is needed (a million adds in one write paid for a million of them).
                _ = try writer.add(object, policy: update, in: self)
                rememberFlatAddPlan(for: object, className: schema.name)
            } else {
                _ = try database.savepoint { try writer.add(object, policy: update, in: self) }
            }
        } catch {
            writer.detachAll()
            throw error
        }
        objectHoldingInWrite += writer.objectHolding
    }

    /// Adds every object of a sequence; see ``add(_:update:)``.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for object in objects { add(object, update: update) }
    }

    // MARK: - Deleting

    /// Deletes a managed object with Realm's semantics: links to it become null, it leaves every
    /// list, set and map, and its embedded objects are deleted with it. A failure is thrown when
    /// the write transaction ends, as for `add(_:update:)`.
    public func delete(_ object: ObjectBase) {
        let className = type(of: object).className()
        guard requireWrite("delete an object", location: className) else { return }
        recordingWriteError(className) {
            guard let managed = object._managed, managed.realm.database === database else {
                throw PorterError(.usage, "can only delete an object from the realm it belongs to", location: className)
            }
            try database.delete(managed.className, managed.key)
        }
    }

    /// Deletes every object of a sequence (results, a list …); objects already gone are skipped.
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        // Results and lists are live: take the objects first, then delete.
        let targets = Array(objects)
        let location = targets.first.map { type(of: $0).className() } ?? ""
        guard requireWrite("delete objects", location: location) else { return }
        recordingWriteError(location) {
            for object in targets {
                guard let managed = object._managed, managed.realm.database === database else {
                    throw PorterError(
                        .usage, "can only delete an object from the realm it belongs to",
                        location: type(of: object).className())
                }
                if try database.exists(managed.className, managed.key) {
                    try database.delete(managed.className, managed.key)
                }
            }
        }
    }

    /// Deletes every object of every class of the realm, as Realm's `deleteAll()` does: with
    /// ``Realm/Configuration/objectTypes`` listed, of those classes; without, of every class in the
    /// file, whether or not this realm has used it yet (a fresh `Realm()` in a test's `tearDown`).
    public func deleteAll() {
        guard requireWrite("delete objects", location: "") else { return }
        let names =
            configuration.objectTypes.isEmpty
            ? database.schema.classes.map(\.name) : configuration.objectTypes.map { $0.className() }
        recordingWriteError("") {
            for name in Set(names).sorted() where database.schema[name]?.isEmbedded == false {
                try database.deleteAll(name)
            }
        }
    }
}
