import Foundation

/// Where each single-value property of one class is in the rows the database hands out, found by
/// property name, or by the `@Persisted` storage key path the property wrapper passes.
@usableFromInline final class RowLayout {
    let className: String
    /// The database schema this layout was made from (see ``Database/schemaGeneration``).
    let schemaGeneration: Int
    let indexByName: [String: Int]
    /// The number of columns.
    let columnCount: Int
    /// Whether every stored property is a column holding no link or mixed value (no collections):
    /// adding an object is then one INSERT after checks (see ``Database/createRow(_:_:)``).
    let isFlat: Bool
    /// The `@Persisted` fields of each model class seen, with their columns (nil: not a column).
    @exclusivity(unchecked) private var fieldsOf:
        [(type: ObjectIdentifier, fields: [(field: PersistedField, column: Int?)])] = []

    /// The `@Persisted` fields of `object`'s class with their columns (see ``PersistedFieldTable``).
    /// Found once per class, here rather than in the shared table: no lock per object added.
    func fieldColumns(of object: ObjectBase) -> [(field: PersistedField, column: Int?)] {
        let id = ObjectIdentifier(type(of: object))
        for entry in fieldsOf where entry.type == id { return entry.fields }
        let fields = PersistedFieldTable.shared.fields(of: object).map { (field: $0, column: indexByName[$0.name]) }
        fieldsOf.append((id, fields))
        return fields
    }

    /// Column index by key path identity, in the order first seen; the key path is kept so its
    /// identity stays unique. Searched by pointer comparison: a class has few properties, and
    /// hashing a key for each property read cost more than the rest of the read.
    @exclusivity(unchecked) private var indexByKeyPath: [(id: ObjectIdentifier, keyPath: AnyKeyPath, index: Int?)] = []
    /// The identities of ``indexByKeyPath`` alone: scanned without copying (retaining) its key paths.
    @exclusivity(unchecked) private var keyPathIDs: [ObjectIdentifier] = []
    /// The columns of ``indexByKeyPath`` alone (-1: not a column), read without copying its key paths.
    @exclusivity(unchecked) private var keyPathColumns: [Int] = []
    /// Where in ``keyPathIDs`` to look first: after the last one found. Objects' properties are
    /// mostly read in the same order, object after object, so this is usually the one asked for.
    @exclusivity(unchecked) private var nextPosition = 0

    init(schema: ObjectSchema, properties: [Property], schemaGeneration: Int) {
        className = schema.name
        self.schemaGeneration = schemaGeneration
        indexByName = Dictionary(properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        columnCount = properties.count
        isFlat =
            !schema.isEmbedded
            && schema.properties.allSatisfy {
                $0.isComputed || (!$0.isCollection && $0.type != .object && $0.type != .mixed)
            }
    }

    /// The column of a storage key path seen before (see ``index(keyPath:name:)``): -1 when it is
    /// not a column, -2 when it was not seen yet.
    @usableFromInline func knownColumn(_ keyPath: AnyKeyPath) -> Int {
        let id = ObjectIdentifier(keyPath)
        var position = nextPosition
        if position >= keyPathIDs.count || keyPathIDs[position] != id {
            guard let found = keyPathIDs.firstIndex(of: id) else { return -2 }
            position = found
        }
        nextPosition = position + 1 == keyPathIDs.count ? 0 : position + 1
        return keyPathColumns[position]
    }

    /// The column of the property a storage key path belongs to (`name` is asked only the first time).
    func index(keyPath: AnyKeyPath, name: () -> String) -> Int? {
        let known = knownColumn(keyPath)
        if known >= 0 { return known }
        if known == -1 { return nil }
        let index = indexByName[name()]
        indexByKeyPath.append((ObjectIdentifier(keyPath), keyPath, index))
        keyPathIDs.append(ObjectIdentifier(keyPath))
        keyPathColumns.append(index ?? -1)
        return index
    }
}

/// The stored single-value properties of one managed object: its place in a run of rows read
/// together, used for its property reads as long as the database's ``Database/stateStamp`` is the
/// one they were read at. A value kept in the object itself (no allocation per object read).
@usableFromInline struct ManagedRow {
    @usableFromInline let run: RowRun
    /// Where the object's values start in ``RowRun/values``.
    @usableFromInline let base: Int

    var layout: RowLayout { run.layout }

    /// Whether the database is as it was when the row was read (nothing changed, nothing rolled back).
    var isCurrent: Bool { run.isCurrent }

    /// The value of a single-value property from the row.
    /// - Throws: when the property is not one (a collection, linking objects), or cannot be read
    ///   this way: the caller reads it the slow way, which records why. (Throwing rather than
    ///   returning an optional: unspecialized code looked up `Optional<V>`'s metadata per read.)
    func value<V: _Persistable>(_ type: V.Type, keyPath: AnyKeyPath?, name: () -> String) throws -> V {
        guard V._porterReadsFromRow else { throw RowMiss() }
        let layout = run.layout
        guard let index = keyPath.map({ layout.index(keyPath: $0, name: name) }) ?? layout.indexByName[name()] else {
            throw RowMiss()
        }
        return try V._porterDecode(run.values[base + index], run.realm)
    }

    /// The value of a single-value property when the row is current and the property's column is
    /// known by its storage key path: every property read of an object a realm handed out after the
    /// first object of its class. Nil otherwise; the caller takes the path that names the property.
    // Inlinable so that each model accessor reads its own type's value specialized: through the
    // generic path a read cost about 340 instructions (witness calls, indirect returns, a name
    // closure), four fifths of it outside the row lookup and the decoding.
    @inlinable func currentValue<V: _Persistable>(_ type: V.Type, keyPath: AnyKeyPath) -> V? {
        guard V._porterReadsFromRow else { return nil }
        let column = run.currentColumn(keyPath)
        guard column >= 0 else { return nil }
        // Decoded where it lies: `values[i]` copied the value out and destroyed the copy (two
        // outlined calls per read, about 45 instructions).
        return run.values.withUnsafeBufferPointer { try? V._porterDecode($0[base &+ column], run.realm) }
    }
}

/// The column values of a run of rows read in one query (one row, or up to 256 while iterating),
/// shared by their objects' ``ManagedRow``s, with what reading them needs.
@usableFromInline final class RowRun {
    /// The realm the rows were read through (links decode to its objects).
    @usableFromInline let realm: Realm
    /// Its database (its stamp is checked before every read).
    let database: Database
    @usableFromInline let layout: RowLayout
    /// Row `i`'s values are `values[i * layout.columnCount ..< (i + 1) * layout.columnCount]`.
    @usableFromInline let values: [Value]
    let stamp: DatabaseStateStamp
    /// The database's ``Database/changeCounter`` (valid while ``database`` is held).
    @usableFromInline let changeCounter: UnsafePointer<UInt64>
    /// The count at which the rows were last found current: while the counter still shows it,
    /// they are, with no call into the database (one per property read cost about 45 instructions).
    @usableFromInline @exclusivity(unchecked) var verifiedAt: UInt64

    /// - Parameter stamp: the database's ``Database/stateStamp`` just after `values` were read.
    init(realm: Realm, layout: RowLayout, values: [Value], stamp: DatabaseStateStamp) {
        self.realm = realm
        database = realm.database
        self.layout = layout
        self.values = values
        self.stamp = stamp
        changeCounter = database.changeCounter
        // Current now only if the stamp is the one of this count (the caller just took it).
        verifiedAt = database.isCurrent(stamp) ? changeCounter.pointee : changeCounter.pointee &- 1
    }

    /// Whether the database is as it was when the rows were read.
    @inlinable var isCurrent: Bool { changeCounter.pointee == verifiedAt || revalidate() }

    /// Asks the database whether the rows are still current (something ran since last asked).
    @usableFromInline func revalidate() -> Bool {
        let count = changeCounter.pointee
        guard database.isCurrent(stamp) else { return false }
        verifiedAt = count
        return true
    }

    /// The column of the property whose storage key path is `keyPath` when the rows are current
    /// and that key path was seen before; -1 otherwise (see ``ManagedRow/currentValue(_:keyPath:)``).
    @inlinable func currentColumn(_ keyPath: AnyKeyPath) -> Int {
        guard isCurrent else { return -1 }
        return layout.knownColumn(keyPath)
    }
}

extension Realm {
    /// The row layout of a class for the current schema.
    func rowLayout(_ className: String) throws -> RowLayout {
        let generation = database.schemaGeneration
        if let layout = core.rowLayouts[className], layout.schemaGeneration == generation { return layout }
        guard let schema = database.schema[className] else {
            throw PorterError(.notFound, "no class named '\(className)' in the realm's schema", location: className)
        }
        let layout = RowLayout(
            schema: schema, properties: try database.rowProperties(className), schemaGeneration: generation)
        core.rowLayouts[className] = layout
        return layout
    }

    /// The row layout of a model class's schema class (by class identity: asked for every object added).
    func rowLayout(of type: ObjectBase.Type, _ className: String) throws -> RowLayout {
        let id = ObjectIdentifier(type)
        if let layout = core.layoutsByType[id], layout.schemaGeneration == database.schemaGeneration { return layout }
        let layout = try rowLayout(className)
        core.layoutsByType[id] = layout
        return layout
    }

    /// The object's row, current as of now: its cached one while the database is unchanged, else
    /// read again. Nil when it cannot be read (the object is gone …): the caller falls back to a
    /// property read, which reports why.
    func currentRow(of object: ObjectBase, _ managed: ManagedState) -> ManagedRow? {
        let stamp = database.stateStamp
        if let row = object._row, row.run.stamp == stamp, row.layout.className == managed.className { return row }
        object._row = nil
        guard let layout = try? rowLayout(managed.className),
            let values = try? reader.row(managed.className, managed.key)
        else { return nil }
        // The query may have moved the stamp (a first read after another connection's commit).
        let row = ManagedRow(
            run: RowRun(realm: self, layout: layout, values: values, stamp: database.stateStamp), base: 0)
        object._row = row
        return row
    }

    /// The value of a single-value property of a managed object from its row, read first when
    /// the object has none or an outdated one (see ``ManagedRow/value(_:keyPath:name:)``).
    func rowValue<V: _Persistable>(
        _ type: V.Type, _ object: ObjectBase, _ managed: ManagedState,
        keyPath: AnyKeyPath?, name: () -> String
    ) throws -> V {
        guard let row = currentRow(of: object, managed) else { throw RowMiss() }
        return try row.value(type, keyPath: keyPath, name: name)
    }
}

/// A property that is not read from its object's row (see ``ManagedRow/value(_:keyPath:name:)``).
struct RowMiss: Error {}

/// Hands out the rows of a run of objects about to be iterated, read in one query per run (of up
/// to `batchSize` keys) instead of one per object. Runs whose keys are not ascending and dense
/// (sorted or sparse results) are left to the objects, which read their row when first used.
struct RowPrefetcher {
    static let batchSize = 256
    let realm: Realm
    let className: String
    /// The run read last, and where each of its positions' values start in it (-1: not read).
    /// Offsets rather than a `ManagedRow` per position: no reference counted per row kept.
    private var run: RowRun?
    private var bases: [Int] = []
    private var start = 0
    private var stamp: DatabaseStateStamp?
    /// The database's ``Database/changeCounter``, and its count when ``stamp`` was last found current.
    private let changeCounter: UnsafePointer<UInt64>
    private var checkedAt: UInt64 = 0

    init(realm: Realm, className: String) {
        self.realm = realm
        self.className = className
        changeCounter = realm.database.changeCounter
    }

    /// Whether the rows read are still current: asked of the database only when something ran since.
    private mutating func isCurrent() -> Bool {
        guard let stamp else { return false }
        let count = changeCounter.pointee
        if count == checkedAt { return true }
        guard realm.database.isCurrent(stamp) else { return false }
        checkedAt = count
        return true
    }

    /// The row of `keys[position]`, reading the run that starts there when needed.
    mutating func row(_ keys: [ObjectKey], _ position: Int) -> ManagedRow? {
        let stale = !isCurrent()
        if position < start || position >= start + bases.count || stale { fill(keys, from: position) }
        guard position >= start, position - start < bases.count, let run else { return nil }
        let base = bases[position - start]
        return base >= 0 ? ManagedRow(run: run, base: base) : nil
    }

    private mutating func fill(_ keys: [ObjectKey], from position: Int) {
        start = position
        let end = min(keys.count, position + Self.batchSize)
        run = nil
        bases.removeAll(keepingCapacity: true)
        bases.append(contentsOf: repeatElement(-1, count: max(0, end - position)))
        guard position < end else { return }
        let run = keys[position..<end]
        var ascending = true
        for i in run.indices.dropFirst() where !(run[i - 1] < run[i]) {
            ascending = false
            break
        }
        guard ascending, let first = run.first, let last = run.last,
            last.rawValue - first.rawValue < Int64(4 * Self.batchSize),
            let layout = try? realm.rowLayout(className),
            let found = try? realm.reader.rows(className, from: first, through: last)
        else {
            stamp = realm.database.stateStamp
            checkedAt = changeCounter.pointee
            return
        }
        let now = realm.database.stateStamp
        stamp = now
        checkedAt = changeCounter.pointee
        let width = layout.columnCount
        guard found.values.count == found.keys.count * width else { return }
        self.run = RowRun(realm: realm, layout: layout, values: found.values, stamp: now)
        var index = 0
        var offset = 0
        for key in run {
            while index < found.keys.count, found.keys[index] < key { index += 1 }
            if index < found.keys.count, found.keys[index] == key { bases[offset] = index * width }
            offset += 1
        }
    }
}
