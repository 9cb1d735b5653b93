import Foundation

/// Realm's convenience initializers, object creation, copies and refresh.
extension Realm {
    /// Opens the realm at `fileURL` with the default configuration's other settings.
    public convenience init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// Whether the realm holds no objects of its model classes.
    public var isEmpty: Bool {
        read("", fallback: true) {
            for name in typesByName.keys where database.schema[name]?.isEmbedded == false {
                if try reader.count(name) > 0 { return false }
            }
            return true
        }
    }

    /// Creates an object from a dictionary of values, an array of them in property order, or
    /// another object, and adds it (Realm's `create(_:value:update:)`); objects, lists and maps
    /// inside may be dictionaries and arrays too.
    ///
    /// With `update: .modified` or `.all`, the object with the same primary key is updated with
    /// just the values given (and returned) when there is one. As in Realm this does not throw:
    /// a failure is thrown when the write transaction ends, and the returned object stays unmanaged.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        let className = type.className()
        guard requireWrite("create an object", location: className) else { return T(_porterMake: ()) }
        var created = T(_porterMake: ())
        recordingWriteError(className) {
            let schema = try objectSchema(for: type)
            if update != .error, let primaryKey = schema.primaryKey,
                let existing = try existingObject(type, schema, primaryKey: primaryKey, in: value)
            {
                try assignGiven(value, to: existing, schema: schema)
                created = existing
                return
            }
            if let problem = created.assignValuesOrProblem(value is ObjectBase ? [String: Any]() : value) {
                throw PorterError(.invalidValue, problem, location: className)
            }
            if let object = value as? ObjectBase {
                let copier = _DetachCopier()
                copier.register(source: object, copy: created)
                copier.copyProperties(from: object, into: created)
            }
            add(created, update: update)
            if let failure = pendingWriteError { throw failure }
        }
        return created
    }

    /// The stored object whose primary key `value` gives, if any.
    private func existingObject<T: Object>(_ type: T.Type, _ schema: ObjectSchema, primaryKey: String, in value: Any)
        throws -> T?
    {
        let given: Any?
        switch value {
        case let dictionary as [String: Any]: given = dictionary[primaryKey]
        case let array as [Any]:
            let names = T(_porterMake: ())._persistedProperties().map(\.name).filter {
                schema.property(named: $0)?.isComputed == false
            }
            given = names.firstIndex(of: primaryKey).flatMap { $0 < array.count ? array[$0] : nil }
        case let object as ObjectBase: given = object.value(forKey: primaryKey)
        default: given = nil
        }
        guard let given else { return nil }
        let probe = T(_porterMake: ())
        guard
            probe._persistedProperties().first(where: { $0.name == primaryKey })?.property.assign(given, in: probe)
                == true
        else {
            throw PorterError(
                .invalidValue, "\(describeValue(given)) is not a valid primary key",
                location: "\(schema.name).\(primaryKey)")
        }
        let stored = try probe._persistedProperties().first { $0.name == primaryKey }!.property.encodeUnmanaged(
            _PorterWriter(realm: self, mode: .query))
        guard let key = try reader.key(schema.name, primaryKey: stored) else { return nil }
        return managedObject(type, ObjectLink(schema.name, key))
    }

    /// Writes the values given (all of them for an object) to a managed object.
    private func assignGiven(_ value: Any, to object: ObjectBase, schema: ObjectSchema) throws {
        let source: Any =
            (value as? ObjectBase).map { source in
                Dictionary(
                    source._persistedProperties().filter { $0.property.typeInfo.type != .linkingObjects }
                        .map { ($0.name, $0.property.currentValue(of: source)) },
                    uniquingKeysWith: { first, _ in first })
            } ?? value
        if let problem = object.assignValuesOrProblem(source) {
            throw PorterError(.invalidValue, problem, location: schema.name)
        }
        if let failure = pendingWriteError { throw failure }
    }

    /// Writes a copy of the realm's current data to a new file (Realm's `writeCopy(toFile:)`).
    /// - Throws: `PorterError` when the file exists already, cannot be written, or a key is
    ///   given (Porter's files are not encrypted).
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        try writeCopy(toFile: fileURL, encryptionKey: encryptionKey, format: .porter)
    }

    /// The kinds of file ``writeCopy(toFile:encryptionKey:format:)`` writes.
    public enum CopyFormat: Sendable {
        /// A Porter database (SQLite), as `writeCopy(toFile:)` writes by default.
        case porter
        /// A Realm file of file format 24, as realm-core 14 writes it: what Realm Swift 10.49+
        /// and 20.x open, e.g. a prepopulated file to bundle with an app.
        case realmFile
    }

    /// Writes a copy of the realm's data to a new file: a Porter database, or with `.realmFile`
    /// a Realm file (encrypted with the 64-byte `encryptionKey` when given) that the Realm SDKs
    /// open. Never overwrites; the file appears complete or not at all.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil, format: CopyFormat) throws {
        if FileManager.default.fileExists(atPath: fileURL.path) {
            throw PorterError(.io, "refusing to overwrite an existing file", location: fileURL.path)
        }
        switch format {
        case .porter:
            if encryptionKey != nil {
                throw PorterError(
                    .usage, "encrypted copies are Realm files: pass format: .realmFile", location: fileURL.path)
            }
            try database.backup(to: fileURL.path)
        case .realmFile:
            if let key = encryptionKey, key.count != 64 {
                throw PorterError(.usage, "an encryption key is 64 bytes, got \(key.count)", location: fileURL.path)
            }
            try RealmFileOutput.write(database, to: fileURL.path, encryptionKey: encryptionKey.map { [UInt8]($0) })
        }
    }

    /// Ends the realm's use of its current data: an open write transaction is cancelled, as in
    /// Realm. (Porter's objects read through to the file, so they stay usable afterwards.)
    public func invalidate() {
        if isInWriteTransaction { cancelWrite() }
    }
}
