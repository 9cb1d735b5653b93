import Foundation

/// The typed API's reads of a Realm Core file opened read-only, answered from the file itself
/// through ``RealmFile``: no copy of its objects, no lock file, nothing written. Object keys are
/// the file's object keys; links and embedded objects read as `.link` (an embedded object is an
/// object of its class's table, read by key like any other), as the SQLite ``Database`` gives them.
///
/// Memory stays bounded: an object is decoded when it is read (its row, or one property), a run
/// of rows one cluster at a time, and queries read one column at a time. Kept in memory: the
/// file's mapping (clean pages, dropped after scans) and small per-class lookup tables.
final class RealmFileReader: ObjectReadBackend {
    /// The file as it was last opened (replaced by ``reloadIfChanged()`` when it changed on disk).
    private(set) var file: RealmFile
    let path: String
    private let encryptionKey: [UInt8]?
    /// The model's schema, checked again against the file when it changed.
    private let model: Schema
    /// The database that holds the realm's schema (and no objects): row layouts and change stamps.
    private let shell: Database
    /// The identity of the file on disk when it was opened: inode, size, modification time.
    private var stamp: FileStamp?
    private var tables: [String: RealmTable] = [:]
    /// Per class, each row property's index in the file's properties (see ``row(_:_:)``).
    private var rowIndexes: [String: [Int]] = [:]
    /// Objects decoded (rows, runs of rows, snapshots): lets tests check that opening reads none.
    private(set) var objectsDecoded = 0
    /// Runs of rows read since the file's mapped pages were last dropped.
    private var runsSinceRelease = 0

    init(file: RealmFile, encryptionKey: [UInt8]?, model: Schema, shell: Database) {
        self.file = file
        path = file.path
        self.encryptionKey = encryptionKey
        self.model = model
        self.shell = shell
        stamp = FileStamp(path: file.path)
        index()
    }

    private func index() {
        tables = Dictionary(file.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        rowIndexes = [:]
    }

    // MARK: - Classes and properties

    /// The file's table of a class, or nil for a model class the file lacks (it reads as empty).
    private func table(_ className: String) throws -> RealmTable? {
        if let table = tables[className] { return table }
        guard shell.schema[className] != nil else {
            throw PorterError(.notFound, "no class named '\(className)' in the realm's schema", location: className)
        }
        return nil
    }

    private func schemaProperty(_ className: String, _ property: String) throws -> Property {
        guard let found = shell.schema[className]?.property(named: property) else {
            throw PorterError(
                .notFound, "unknown property (class '\(className)' has no property '\(property)')",
                location: "\(className).\(property)")
        }
        return found
    }

    /// The index of a stored property in the file's table.
    private func propertyIndex(_ table: RealmTable, _ property: String) throws -> Int {
        guard let index = table.properties.firstIndex(where: { $0.name == property }) else {
            throw PorterError(
                .notFound, "unknown property (class '\(table.name)' has no property '\(property)')",
                location: "\(table.name).\(property)")
        }
        return index
    }

    /// The file's indexes of a class's row properties, in ``Database/rowProperties(_:)`` order.
    private func rowIndexes(_ table: RealmTable) throws -> [Int] {
        if let known = rowIndexes[table.name] { return known }
        let indexes = try shell.rowProperties(table.name).map { try propertyIndex(table, $0.name) }
        rowIndexes[table.name] = indexes
        return indexes
    }

    private func missing(_ className: String, _ key: ObjectKey) -> PorterError {
        PorterError(.notFound, "object \(className)(\(key)) does not exist", location: className)
    }

    // MARK: - Values

    /// A file value as the typed API reads it: embedded objects as `.link` (or, with `nested`,
    /// as `.object` with their values by name, as snapshots give them).
    private func converted(_ value: RealmValue, nested: Bool = false) -> Value {
        // As a row holds it (`RealmValues.rowValue`), but for embedded objects when `nested`.
        guard nested else { return RealmValues.rowValue(value) }
        switch value {
        case .embedded(let className, let key, let values):
            guard let table = tables[className] else { return .link(ObjectLink(className, ObjectKey(key))) }
            return .object(named(table, values))
        case .list(let elements): return .list(elements.map { converted($0, nested: nested) })
        case .set(let elements): return .set(elements.map { converted($0, nested: nested) })
        case .dictionary(let entries):
            return .map(
                Dictionary(
                    entries.map { ($0.key, converted($0.value, nested: nested)) }, uniquingKeysWith: { _, last in last }
                ))
        default: return RealmValues.rowValue(value)
        }
    }

    private func named(_ table: RealmTable, _ values: [RealmValue]) -> [String: Value] {
        var out: [String: Value] = [:]
        for (property, value) in zip(table.properties, values) { out[property.name] = converted(value, nested: true) }
        return out
    }

    /// One stored property of one object; nil when the object does not exist.
    private func storedValue(_ table: RealmTable, _ key: ObjectKey, _ property: String) throws -> Value? {
        let index = try propertyIndex(table, property)
        return try file.value(in: table, key: key.rawValue, property: index).map { converted($0) }
    }

    // MARK: - ObjectReadBackend

    func count(_ className: String) throws -> Int {
        guard let table = try table(className) else { return 0 }
        return try file.objectCount(in: table)
    }

    func exists(_ className: String, _ key: ObjectKey) throws -> Bool {
        guard let table = try table(className) else { return false }
        return try file.containsObject(in: table, key: key.rawValue)
    }

    func allKeys(_ className: String) throws -> [ObjectKey] {
        guard let table = try table(className) else { return [] }
        return try file.objectKeys(in: table).map(ObjectKey.init(rawValue:))
    }

    func value(_ className: String, _ key: ObjectKey, _ property: String) throws -> Value {
        let prop = try schemaProperty(className, property)
        guard let table = try table(className) else { throw missing(className, key) }
        if prop.isComputed {
            guard try file.containsObject(in: table, key: key.rawValue) else { throw missing(className, key) }
            return .list(try linkingObjects(className, key, property).map(Value.link))
        }
        guard let value = try storedValue(table, key, property) else { throw missing(className, key) }
        return value
    }

    func propertyValues(_ className: String, _ property: String) throws -> [(key: ObjectKey, value: Value)] {
        let prop = try schemaProperty(className, property)
        guard !prop.isComputed, !prop.isCollection else {
            throw PorterError(
                .notFound, "no stored single-value property '\(property)'", location: "\(className).\(property)")
        }
        guard let table = try table(className) else { return [] }
        var out: [(key: ObjectKey, value: Value)] = []
        try file.forEachValue(in: table, property: property) { key, value in
            out.append((ObjectKey(key), converted(value)))
        }
        return out
    }

    func keys(_ className: String, where property: String, equals value: Value) throws -> [ObjectKey] {
        try propertyValues(className, property).filter { $0.value == value }.map(\.key)
    }

    func key(_ className: String, primaryKey: Value) throws -> ObjectKey? {
        guard let pk = shell.schema[className]?.primaryKey else {
            throw PorterError(.usage, "class '\(className)' has no primary key", location: className)
        }
        guard let table = try table(className) else { return nil }
        // A scan of the primary-key column alone, stopped at the first match: bounded memory.
        struct Found: Error { let key: Int64 }
        do {
            try file.forEachValue(in: table, property: pk) { key, value in
                if converted(value) == primaryKey { throw Found(key: key) }
            }
        } catch let found as Found {
            return ObjectKey(found.key)
        }
        return nil
    }

    func linkingObjects(_ className: String, _ key: ObjectKey, _ property: String) throws -> [ObjectLink] {
        let prop = try schemaProperty(className, property)
        guard prop.isComputed, let originClass = prop.objectType, let originName = prop.linkOriginProperty else {
            throw PorterError(.notFound, "not a linkingObjects property", location: "\(className).\(property)")
        }
        guard try table(originClass)?.properties.contains(where: { $0.name == originName }) == true else {
            return []
        }
        // One link per occurrence, in origin key order, from the file's backlink column (no scan).
        guard let target = try table(className) else { return [] }
        return try file.backlinks(in: target, key: key.rawValue, originClass: originClass, originProperty: originName)
            .map { ObjectLink(originClass, ObjectKey($0)) }
    }

    func row(_ className: String, _ key: ObjectKey) throws -> [Value]? {
        guard let table = try table(className) else { return nil }
        let indexes = try rowIndexes(table)
        guard let values = try file.values(in: table, key: key.rawValue, properties: indexes) else { return nil }
        objectsDecoded += 1
        return values.map { converted($0) }
    }

    func rows(_ className: String, from low: ObjectKey, through high: ObjectKey) throws -> (
        keys: [ObjectKey], values: [Value]
    ) {
        guard let table = try table(className) else { return ([], []) }
        let indexes = try rowIndexes(table)
        var keys: [ObjectKey] = []
        var values: [Value] = []
        let expected = Int(clamping: min(max(high.rawValue &- low.rawValue &+ 1, 0), 4096))
        keys.reserveCapacity(expected)
        values.reserveCapacity(expected * indexes.count)
        try file.appendRows(
            in: table, from: low.rawValue, through: high.rawValue, properties: indexes, keys: &keys, values: &values)
        objectsDecoded += keys.count
        // Iterating a large file: its pages are dropped now and then (clean: read again when needed).
        runsSinceRelease += 1
        if runsSinceRelease >= 64 {
            runsSinceRelease = 0
            file.releaseMappedPages()
        }
        return (keys, values)
    }

    /// A collection property's stored value (checked to be one of `kinds`).
    private func collection(
        _ className: String, _ key: ObjectKey, _ property: String, _ kinds: [CollectionKind]
    ) throws -> Value {
        let prop = try schemaProperty(className, property)
        guard !prop.isComputed, kinds.contains(prop.collection) else {
            let wanted = kinds.count == 1 ? "a \(kinds[0].rawValue)" : "a list, set or map"
            throw PorterError(
                .usage, "property of type '\(prop.typeShorthand)' is not \(wanted)",
                location: "\(className).\(property)")
        }
        guard let table = try table(className), let value = try storedValue(table, key, property) else {
            throw missing(className, key)
        }
        return value
    }

    func collectionCount(_ className: String, _ key: ObjectKey, _ property: String) throws -> Int {
        switch try collection(className, key, property, [.list, .set, .map]) {
        case .list(let elements), .set(let elements): return elements.count
        case .map(let entries): return entries.count
        default: return 0
        }
    }

    func listElement(_ className: String, _ key: ObjectKey, _ property: String, at index: Int) throws -> Value {
        guard case .list(let elements) = try collection(className, key, property, [.list]) else {
            throw missing(className, key)
        }
        guard elements.indices.contains(index) else {
            throw PorterError(
                .usage,
                "index \(index) is out of range (the list has \(elements.count) element\(elements.count == 1 ? "" : "s"))",
                location: "\(className).\(property)")
        }
        return elements[index]
    }

    func setContains(_ className: String, _ key: ObjectKey, _ property: String, _ value: Value) throws -> Bool {
        guard case .set(let elements) = try collection(className, key, property, [.set]) else { return false }
        return elements.contains(value)
    }

    func mapValue(_ className: String, _ key: ObjectKey, _ property: String, forKey mapKey: String) throws -> Value? {
        guard case .map(let entries) = try collection(className, key, property, [.map]) else { return nil }
        return entries[mapKey]
    }

    func snapshot(_ className: String, _ key: ObjectKey) throws -> [String: Value]? {
        guard let table = try table(className), let object = try file.object(in: table, key: key.rawValue) else {
            return nil
        }
        objectsDecoded += 1
        return named(table, object.values)
    }

    /// Opens the file again when it changed on disk since (another inode, size or modification
    /// time), checks the model against it as at open, and moves the realm's change stamps.
    func reloadIfChanged() throws -> Bool {
        let now = FileStamp(path: path)
        guard now != stamp else { return false }
        let reopened = try RealmFile(path: path, encryptionKey: encryptionKey)
        try Realm.checkModel(model, against: reopened.schema, path: path, fileVersion: reopened.schemaVersion)
        file = reopened
        stamp = now
        index()
        try shell.noteExternalChange()
        return true
    }
}

/// What tells that a file changed on disk: its inode, size and modification time.
struct FileStamp: Equatable {
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
