import Foundation

/// What every ``Realm`` of one file, schema version and mode shares on one thread: the
/// connection, the model classes, the write transaction's state and the observations.
final class RealmCore {
    let database: Database
    var typesByName: [String: ObjectBase.Type]
    var propertyNames: [AnyKeyPath: String] = [:]
    /// The current (or last) write transaction, which the objects added in it refer to: rolling
    /// it back makes them all unmanaged again without the realm holding on to each of them.
    @exclusivity(unchecked) var writeAttachment = WriteAttachment()
    /// Row layouts by class name (see ``ManagedRow``).
    @exclusivity(unchecked) var rowLayouts: [String: RowLayout] = [:]
    /// The same by model class.
    @exclusivity(unchecked) var layoutsByType: [ObjectIdentifier: RowLayout] = [:]
    /// The schemas of model classes found managed, with the schema generation they are from.
    @exclusivity(unchecked) var schemasByType: [ObjectIdentifier: (generation: Int, schema: ObjectSchema)] = [:]
    @exclusivity(unchecked) var objectHoldingInWrite: [AnyPersistedProperty] = []
    /// Flat classes added with `update: .error`, and the last one (see `Realm+FlatAdd.swift`).
    @exclusivity(unchecked) var flatAdds: [ObjectIdentifier: FlatAddPlan] = [:]
    @exclusivity(unchecked) var lastFlatAdd: FlatAddPlan?
    @exclusivity(unchecked) var pendingWriteError: PorterError?
    var lastReadError: PorterError?
    let notifier = RealmNotifier()
    /// The open transaction `beginAsyncWrite` began, and the last identifier handed out.
    var asyncWriteId: UInt32?
    var lastAsyncWriteId: UInt32 = 0
    /// Why this realm cannot write (a Realm Core file read into memory), thrown by every write.
    var writeRefusal: PorterError?
    /// Whether this is a frozen realm's snapshot (see `Realm+Freeze.swift`).
    var isFrozen = false
    /// What objects are read through: the database, or a Realm file's reader (ObjectReadBackend.swift).
    var reader: any ObjectReadBackend

    init(database: Database, typesByName: [String: ObjectBase.Type]) {
        self.database = database
        reader = database
        self.typesByName = typesByName
    }

    /// The key cores are shared by: the file (or in-memory identifier), schema version and mode.
    private static func key(_ configuration: Realm.Configuration) -> String {
        let place =
            configuration.resolvedFileURL?.standardizedFileURL.path
            ?? "memory:\(configuration.inMemoryIdentifier ?? "")"
        return "\(place)|v\(configuration.schemaVersion)|\(configuration.readOnly ? "ro" : "rw")"
    }

    /// This thread's cores, held weakly (a core lives as long as its realms and objects).
    private static var cache: CoreCache {
        let name = "porter.realm-cores"
        if let existing = Thread.current.threadDictionary[name] as? CoreCache { return existing }
        let made = CoreCache()
        Thread.current.threadDictionary[name] = made
        return made
    }

    /// The core a realm opened on this thread with an equivalent configuration uses, if any.
    static func openOnThisThread(_ configuration: Realm.Configuration) -> RealmCore? {
        cache.cores[key(configuration)]?.value
    }

    /// Lets later realms of this thread with an equivalent configuration share `core`.
    static func remember(_ core: RealmCore, for configuration: Realm.Configuration) {
        let cache = self.cache
        cache.cores = cache.cores.filter { $0.value.value != nil }
        cache.cores[key(configuration)] = WeakCore(value: core)
    }

    private struct WeakCore { weak var value: RealmCore? }

    private final class CoreCache {
        var cores: [String: WeakCore] = [:]
    }
}

/// One write transaction as the objects added in it see it: whether it was rolled back.
final class WriteAttachment {
    var isRolledBack = false
}
