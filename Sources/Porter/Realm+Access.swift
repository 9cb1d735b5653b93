import Foundation

/// Read-through and write-through of managed objects' properties and collections.
extension Realm {
    /// The current value of a managed object's property. A value that cannot be read (the
    /// object is gone, the stored value does not fit the Swift type) gives the type's fallback
    /// and is recorded in ``lastReadError``, since property getters cannot throw.
    func readProperty<V: _Persistable>(_ type: V.Type, _ managed: ManagedState, _ name: String) -> V {
        do {
            let property = try schemaProperty(managed.className, name)
            return try V._porterManaged(_ManagedProperty(realm: self, owner: managed.link, property: property))
        } catch {
            recordReadError(error, location: "\(managed.className).\(name)")
            return V._porterDefault()
        }
    }

    /// Stores a new value of a managed object's property (unmanaged objects in it are added,
    /// unmanaged embedded objects become managed).
    func writeProperty<V: _Persistable>(_ value: V, _ managed: ManagedState, _ name: String) {
        let location = "\(managed.className).\(name)"
        change(location) { writer in
            let property = try schemaProperty(managed.className, name)
            let stored = try value._porterEncode(writer)
            try database.set(managed.className, managed.key, name, stored)
            try writer.attachEmbedded(value._porterEmbeddedObjects(), owner: managed.link, property: property)
        }
    }

    /// Runs one change of managed data. Outside a write transaction this is a programming error
    /// and stops the program, as in Realm (a setter cannot throw, and silently dropping the change
    /// would lose data). Inside one, a failure is kept in ``pendingWriteError`` (the transaction is
    /// rolled back and the error thrown when it ends) and later changes are skipped.
    func change(_ location: String, _ body: (_PorterWriter) throws -> Void) {
        // A transaction that failed to begin, or an earlier failed change: skipped, thrown on commit.
        guard pendingWriteError == nil else { return }
        guard database.isInWriteTransaction else {
            preconditionFailure(
                "\(location): cannot modify a managed object outside a write transaction; make the change inside realm.write { }"
            )
        }
        // Unmanaged objects a change links to are added as `add(_:)` adds them: an existing
        // primary key is an error, not a silent update.
        let writer = _PorterWriter(realm: self, mode: .add(.error))
        do {
            try database.savepoint { try body(writer) }
            objectHoldingInWrite += writer.objectHolding
        } catch {
            writer.detachAll()
            var failure = error as? PorterError ?? PorterError(.io, String(describing: error))
            if failure.location == nil { failure.location = location }
            pendingWriteError = failure
        }
    }

    /// Runs one read of managed data; a failure gives `fallback` and is kept in ``lastReadError``.
    func read<T>(_ location: String, fallback: T, _ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            recordReadError(error, location: location)
            return fallback
        }
    }
}
