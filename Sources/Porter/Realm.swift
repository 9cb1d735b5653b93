import Foundation

/// A database opened with a typed Swift model, as Realm's `Realm` is: add, query, update and
/// delete model objects; change data only inside `write(_:)`.
///
/// ```swift
/// let realm = try Realm(configuration: .init(fileURL: url, objectTypes: [Dog.self, Person.self]))
/// let dog = Dog()
/// dog.name = "Rex"
/// try realm.write { try realm.add(dog) }
/// let rexes = realm.objects(Dog.self).where { $0.name == "Rex" }
/// ```
///
/// A realm and its objects are used on one thread, like Realm's (they are not `Sendable`).
/// Objects keep their realm open; the file closes when the realm and all its objects are gone.
public final class Realm {
    /// The configuration the realm was opened with.
    public let configuration: Configuration
    /// The state this realm shares with the other realms of the same file, schema version and
    /// mode opened on this thread (Realm hands out one instance per thread and configuration;
    /// sharing the connection and transaction gives the same behaviour: an object read through
    /// one `Realm()` can be changed inside another's `write`).
    let core: RealmCore
    /// The underlying database, for the dynamic (untyped) API.
    public var database: Database { core.database }
    /// Model classes by schema class name (growing as classes are first used when the
    /// configuration lists no object types).
    var typesByName: [String: ObjectBase.Type] {
        get { core.typesByName }
        // `_modify`, not `set`: `+=` and inserts must mutate the core's storage in place (a get
        // then set copies the whole collection each time: adding n objects was O(n²)).
        _modify { yield &core.typesByName }
    }
    /// Property names by `@Persisted` storage key path, so objects handed out by the realm need
    /// no reflection to find their property names.
    var propertyNames: [AnyKeyPath: String] {
        get { core.propertyNames }
        // `_modify`, not `set`: `+=` and inserts must mutate the core's storage in place (a get
        // then set copies the whole collection each time: adding n objects was O(n²)).
        _modify { yield &core.propertyNames }
    }
    /// Their properties whose unmanaged values may hold objects, released on commit.
    var objectHoldingInWrite: [AnyPersistedProperty] {
        get { core.objectHoldingInWrite }
        // `_modify`, not `set`: `+=` and inserts must mutate the core's storage in place (a get
        // then set copies the whole collection each time: adding n objects was O(n²)).
        _modify { yield &core.objectHoldingInWrite }
    }
    /// The first failed change of a managed object in the current write transaction.
    ///
    /// Property setters cannot throw, so a failing change (a primary key changed, a value too
    /// large, an embedded object assigned twice …) is kept here, later changes in the same
    /// transaction are skipped, and `write(_:)` / `commitWrite()` roll back and throw it.
    public internal(set) var pendingWriteError: PorterError? {
        get { core.pendingWriteError }
        set { core.pendingWriteError = newValue }
    }
    /// The last failed read of a managed property (the stored value does not fit the Swift type,
    /// or the object was deleted). Getters cannot throw, so they return the property's fallback
    /// (nil, the type's default, an empty collection) and record the problem here.
    public internal(set) var lastReadError: PorterError? {
        get { core.lastReadError }
        set { core.lastReadError = newValue }
    }
    /// The live observations (``NotificationToken``s) of this realm's objects and collections.
    var notifier: RealmNotifier { core.notifier }

    /// Opens (or creates) the realm the configuration describes. On a thread that has the same
    /// file open already (same schema version and mode), the new realm shares its connection.
    /// - Throws: `PorterError` when the model is invalid (naming class and property), the file
    ///   cannot be opened, or it needs a migration the configuration does not provide.
    public convenience init(configuration: Configuration = .defaultConfiguration) throws {
        try self.init(configuration: configuration, sharing: true)
    }

    /// Opens a realm; with `sharing` false it gets a connection of its own even when this
    /// thread has the file open (for realms confined to a dispatch queue rather than a thread).
    init(configuration: Configuration, sharing: Bool) throws {
        // A Realm Core file (told by content) is read natively, read-only (Realm+RealmFile.swift).
        if Realm.isRealmCoreFile(configuration) {
            var seenTypes = Set<ObjectIdentifier>()
            let types = configuration.objectTypes.filter { seenTypes.insert(ObjectIdentifier($0)).inserted }
            let (database, reader) = try Realm.openRealmCoreFile(configuration, types)
            self.configuration = configuration
            self.core = RealmCore(
                database: database,
                typesByName: Dictionary(
                    types.map { ($0.className(), $0) },
                    uniquingKeysWith: { first, _ in first }))
            core.reader = reader
            core.notifier.seen = database.changeToken
            core.writeRefusal = PorterError(
                .usage, "Can't perform transactions on read-only Realms.",
                location: configuration.resolvedFileURL?.path ?? "")
            return
        }
        if configuration.encryptionKey != nil {
            throw PorterError(
                .usage,
                "encrypted realms are not supported: Porter's files are not encrypted; open the realm without an encryptionKey",
                location: configuration.resolvedFileURL?.path ?? configuration.inMemoryIdentifier ?? "")
        }
        var seen = Set<ObjectIdentifier>()
        let types = configuration.objectTypes.filter { seen.insert(ObjectIdentifier($0)).inserted }
        self.configuration = configuration
        if sharing, let shared = RealmCore.openOnThisThread(configuration) {
            self.core = shared
            for type in types where shared.typesByName[type.className()] == nil { try register(type) }
            return
        }
        try Realm.copySeedFile(configuration)
        let schema = try Schema(version: configuration.schemaVersion, objectTypes: types)
        let database = try Realm.openDatabase(configuration, schema)
        try Realm.compactOnLaunchIfAsked(configuration, database)
        self.core = RealmCore(
            database: database,
            typesByName: Dictionary(types.map { ($0.className(), $0) }, uniquingKeysWith: { first, _ in first }))
        core.notifier.seen = database.changeToken
        if sharing { RealmCore.remember(core, for: configuration) }
    }

    /// A realm over a core made elsewhere (a frozen realm's snapshot, see `Realm+Freeze.swift`).
    init(configuration: Configuration, core: RealmCore) {
        self.configuration = configuration
        self.core = core
    }

    /// The schema of the file (the model's classes, plus any other classes the file holds).
    public var schema: Schema { database.schema }

    /// Forgets the last read error.
    public func clearReadError() { lastReadError = nil }

    // MARK: - Objects

    /// The managed object of type `T` for a stored link.
    func managedObject<T: ObjectBase>(_ type: T.Type, _ link: ObjectLink) -> T {
        let object = type.init(_porterMake: ())
        object._becomeManaged(ManagedState(realm: self, className: link.className, key: link.key))
        return object
    }

    /// The managed object for a stored link, of the model class registered under its class name.
    func managedObject(for link: ObjectLink) throws -> ObjectBase {
        guard let type = typesByName[link.className] else {
            throw PorterError(
                .notFound, "class '\(link.className)' has no model class in this realm's objectTypes",
                location: link.className)
        }
        return managedObject(type, link)
    }

    /// The schema of a model class, which must be one of the configuration's object types.
    func objectSchema(for type: ObjectBase.Type) throws -> ObjectSchema {
        // Asked for every object added: answered from the core's cache while the schema is unchanged.
        let id = ObjectIdentifier(type)
        if let known = core.schemasByType[id], known.generation == database.schemaGeneration { return known.schema }
        let name = type.className()
        if typesByName[name] == nil && configuration.objectTypes.isEmpty { try register(type) }
        guard typesByName[name] != nil, let schema = database.schema[name] else {
            throw PorterError(
                .notFound,
                "Object type '\(name)' is not managed by the Realm: add \(type).self to Configuration.objectTypes",
                location: name)
        }
        core.schemasByType[id] = (database.schemaGeneration, schema)
        return schema
    }

    /// The schema of one property of a class.
    func schemaProperty(_ className: String, _ name: String) throws -> Property {
        guard let property = database.schema[className]?.property(named: name) else {
            throw PorterError(
                .notFound, "class '\(className)' has no property '\(name)' in the realm's schema",
                location: "\(className).\(name)")
        }
        return property
    }

    /// The object of type `T` whose primary key is `key`, or nil when there is none. A key of
    /// the wrong type finds nothing and is reported in ``lastReadError``.
    public func object<T: Object, Key: _Persistable>(ofType type: T.Type, forPrimaryKey key: Key) -> T? {
        do {
            let schema = try objectSchema(for: type)
            let value = try key._porterEncode(_PorterWriter(realm: self, mode: .query))
            guard let found = try reader.key(schema.name, primaryKey: value) else { return nil }
            return managedObject(type, ObjectLink(schema.name, found))
        } catch {
            recordReadError(error, location: type.className())
            return nil
        }
    }

    /// Every object of type `T`, as lazy, live results to filter and sort.
    public func objects<T: Object>(_ type: T.Type) -> Results<T> {
        do {
            _ = try objectSchema(for: type)
        } catch {
            recordReadError(error, location: type.className())
        }
        return Results(realm: self, className: type.className())
    }

    /// Keeps `error` as ``lastReadError``, with `location` when it has none.
    func recordReadError(_ error: any Swift.Error, location: String) {
        var porterError = error as? PorterError ?? PorterError(.io, String(describing: error))
        if porterError.location == nil { porterError.location = location }
        lastReadError = porterError
    }
}
