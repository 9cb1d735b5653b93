import Foundation
import PorterModel
import PorterStore

/// Values that could not be converted: how many, and which objects (a bounded sample).
package struct ConversionFailures: Sendable, Equatable {
    /// How many values failed.
    package var count = 0
    /// Up to ``MigrationStorage/sampleLimit`` lines such as `_id 4242: 'abc' is not an integer`.
    package var sample: [String] = []
    /// The first few objects and values, as the one-line message shows them (`_id 4242: 2.5`).
    package var shortSample: [String] = []

    mutating func add(_ line: String) {
        count += 1
        if sample.count < MigrationStorage.sampleLimit { sample.append(line) }
    }

    /// Whether another example is still wanted (so objects are only looked up for those).
    var wantsSample: Bool { sample.count < MigrationStorage.sampleLimit }

    /// Records a failure of the object `identity` whose value reads `value`.
    mutating func add(_ identity: String, value: String, reason: String) {
        if shortSample.count < 3 { shortSample.append("\(identity): \(value)") }
        add("\(identity): \(reason)")
    }

    /// `2.5; _id 77: 0.1` …: the short sample for a one-line message.
    var inline: String {
        shortSample.joined(separator: "; ") + (count > shortSample.count ? "; …" : "")
    }
}

extension MigrationStorage {
    /// How many examples failures and checks keep.
    package static let sampleLimit = Database.sampleLimit

    /// Reports `(done, total)` while a primitive works through a class.
    package typealias Progress = (_ done: Int, _ total: Int) -> Void

    /// Converts the values of `from` (stored under `from.name`) into `to`'s type and shape, in
    /// place: a single value, element-wise for lists, sets and maps, or a single value into a list
    /// or set holding it. Nulls stay null when `to` allows it, else take `fill`.
    /// - Throws: ``PorterError/Code/migrationFailed`` naming the objects whose values do not
    ///   convert (after scanning all of them, so the count is complete); nothing is left half done
    ///   as long as the caller rolls back.
    @discardableResult
    package func convert(
        _ className: String, from: Property, to: Property, rule: ConversionRule, fill: Value?,
        progress: Progress? = nil
    ) throws -> Int {
        var failures = ConversionFailures()
        func convertOne(_ value: Value, owner: Int64, element: Bool) -> Value? {
            if value.isNull {
                if to.isOptional || (to.isCollection && !element) { return .null }
                if let fill { return fill }
                failures.add(
                    identity(className, owner, looked: failures.wantsSample), value: "null",
                    reason: "null but '\(className).\(to.name)' is required (add a fill value)")
                return nil
            }
            do {
                return try ValueConversion.convertElement(value, to: to.type, rule: rule)
            } catch let error as PorterError {
                failures.add(
                    identity(className, owner, looked: failures.wantsSample), value: Self.valueText(value),
                    reason: error.message)
            } catch {
                failures.add(
                    identity(className, owner, looked: failures.wantsSample), value: Self.valueText(value),
                    reason: "\(error)")
            }
            return nil
        }
        let total = try database.objectCount(className)
        var converted = 0
        switch (from.collection, to.collection) {
        case (.none, .none):
            converted = try convertColumn(className, from: from, to: to, total: total, progress: progress) {
                convertOne($0, owner: $1, element: false)
            }
        case (.none, _):
            converted = try wrapColumn(className, from: from, to: to, total: total, progress: progress) {
                convertOne($0, owner: $1, element: true)
            }
        default:
            converted = try convertCollection(className, from: from, to: to, total: total, progress: progress) {
                convertOne($0, owner: $1, element: true)
            }
        }
        if failures.count > 0 {
            throw PorterError(
                .migrationFailed,
                "cannot convert \(failures.count) value\(failures.count == 1 ? "" : "s") from \(from.typeShorthand) to \(to.typeShorthand) (\(rule.rawValue)): \(failures.inline)",
                location: "\(className).\(to.name)",
                details: failures.sample
                    + (failures.count > failures.sample.count
                        ? ["… and \(failures.count - failures.sample.count) more"] : []))
        }
        return converted
    }

    /// How a failing object is named: `_id 4242` (its primary key) or `_key 17`. Looked up only
    /// while examples are still collected.
    func identity(_ className: String, _ key: Int64, looked: Bool, depth: Int = 0) -> String {
        guard looked else { return "_key \(key)" }
        // An embedded object is named through its parent (`Person _id 7.address`): its own key
        // means nothing to a user. Best effort: without a parent it keeps its key.
        if database.schema[className]?.isEmbedded == true, depth < 8,
            let parent = (try? database.incomingLinks(to: ObjectLink(className, ObjectKey(key))))?.first
        {
            let owner = identity(parent.source.className, parent.source.key.rawValue, looked: true, depth: depth + 1)
            return
                "\(database.schema[parent.source.className]?.isEmbedded == true ? "" : parent.source.className + " ")\(owner).\(parent.property)"
        }
        guard let pk = database.schema[className]?.primaryKey,
            let value = try? database.primaryKeyValue(className, ObjectKey(key))
        else { return "_key \(key)" }
        return "\(pk) \(Self.valueText(value))"
    }

    /// A value as messages show it: numbers bare, strings quoted and shortened.
    static func valueText(_ value: Value) -> String {
        switch value {
        case .string(let s): return "'" + (s.count > 40 ? s.prefix(40) + "…" : s) + "'"
        case .int(let i): return String(i)
        case .double(let d): return "\(d)"
        case .float(let f): return "\(f)"
        case .bool(let b): return String(b)
        case .null: return "null"
        case .objectId(let o): return o.stringValue
        case .uuid(let u): return u.uuidString.lowercased()
        case .date(let t): return t.iso8601
        case .decimal128(let d): return d.description
        case .data(let d): return "data of \(d.count) bytes"
        case .link(let l): return l.description
        case .list(let e): return "a list of \(e.count)"
        case .set(let e): return "a set of \(e.count)"
        case .map(let e): return "a dictionary of \(e.count)"
        case .object: return "an embedded object"
        }
    }

    /// Single value → single value, in place (columns are untyped, and each batch is read before
    /// it is rewritten). Conversions SQL performs exactly take one `UPDATE`.
    private func convertColumn(
        _ className: String, from: Property, to: Property, total: Int, progress: Progress?,
        _ convert: (Value, Int64) -> Value?
    ) throws -> Int {
        if let converted = try convertWithSQL(className, from: from, to: to, convert) {
            progress?(total, total)
            return converted
        }
        let table = quoteIdentifier(StorageLayout.table(className))
        let column = quoteIdentifier(from.name)
        let select = try connection.prepare(
            "SELECT _key, \(column) FROM \(table) WHERE _key > ? ORDER BY _key LIMIT \(MigrationStorage.batchSize)")
        let update = try connection.prepare("UPDATE \(table) SET \(column) = ? WHERE _key = ?")
        var last = Int64.min, done = 0, converted = 0
        while true {
            select.reset()
            select.bind(1, int: last)
            var batch: [(Int64, Value)] = []
            while try select.step() {
                batch.append(
                    (select.int64(0), try StorageCodec.read(select, 1, type: from.type, objectType: from.objectType)))
            }
            guard let tail = batch.last else { break }
            last = tail.0
            for (key, value) in batch {
                guard let result = convert(value, key), !(result.isNull && value.isNull) else { continue }
                StorageCodec.bind(result, type: to.type, to: update, at: 1)
                update.bind(2, int: key)
                try update.run()
                if !value.isNull { converted += 1 }
            }
            done += batch.count
            progress?(done, total)
        }
        return converted
    }

    /// int → string and int → double as one SQL `UPDATE` when SQL's conversion is exactly Porter's
    /// (decimal text; doubles only for integers within ±2^53). Nulls go through `convert` (fill or
    /// failure). Returns nil when the fast path does not apply.
    private func convertWithSQL(_ className: String, from: Property, to: Property, _ convert: (Value, Int64) -> Value?)
        throws -> Int?
    {
        guard from.type == .int, to.type == .string || to.type == .double else { return nil }
        let table = quoteIdentifier(StorageLayout.table(className))
        let column = quoteIdentifier(from.name)
        if to.type == .double {
            let limit = "9007199254740992"
            guard
                try database.integer(
                    "SELECT count(*) FROM \(table) WHERE \(column) > \(limit) OR \(column) < -\(limit)") == 0
            else { return nil }
        }
        if !to.isOptional {
            let nulls = try connection.prepare("SELECT _key FROM \(table) WHERE \(column) IS NULL ORDER BY _key")
            var fill: Value?
            while try nulls.step() {
                // `convert` gives the fill value, or records a failure for this object when there is none.
                if let value = convert(.null, nulls.int64(0)), !value.isNull, fill == nil { fill = value }
            }
            if let fill {
                let stmt = try connection.prepare("UPDATE \(table) SET \(column) = ? WHERE \(column) IS NULL")
                StorageCodec.bind(fill, type: to.type, to: stmt, at: 1)
                try stmt.run()
            }
        }
        try connection.execute(
            "UPDATE \(table) SET \(column) = CAST(\(column) AS \(to.type == .string ? "TEXT" : "REAL")) WHERE typeof(\(column)) = 'integer'"
        )
        return connection.changes
    }

    /// Single value → list or set: each non-null value becomes the one element of its object's
    /// collection (null gives an empty collection).
    private func wrapColumn(
        _ className: String, from: Property, to: Property, total: Int, progress: Progress?,
        _ convert: (Value, Int64) -> Value?
    ) throws -> Int {
        // The column's index has the name the collection table's index will get.
        try dropPropertyIndexes(className, from.name)
        try ddl.createCollectionTable(className, to)
        let collection = quoteIdentifier(StorageLayout.collectionTable(className, to.name))
        let insert = try connection.prepare(
            to.collection == .list
                ? "INSERT INTO \(collection) (_owner, _pos, value) VALUES (?, 0, ?)"
                : "INSERT INTO \(collection) (_owner, value) VALUES (?, ?)")
        let column = quoteIdentifier(from.name)
        // Reads the class table while writing the collection table: different tables, so one
        // streaming statement is safe.
        let select = try connection.prepare(
            "SELECT _key, \(column) FROM \(quoteIdentifier(StorageLayout.table(className))) WHERE \(column) IS NOT NULL ORDER BY _key"
        )
        var done = 0
        while try select.step() {
            let key = select.int64(0)
            let value = try StorageCodec.read(select, 1, type: from.type, objectType: from.objectType)
            done += 1
            if done % MigrationStorage.batchSize == 0 { progress?(done, total) }
            guard let result = convert(value, key) else { continue }
            insert.bind(1, int: key)
            StorageCodec.bind(result, type: to.type, to: insert, at: 2)
            try insert.run()
        }
        progress?(total, total)
        try dropProperty(className, from.name, collection: false)
        return done
    }

    /// Collection → collection of the same kind, element-wise, into a fresh table.
    private func convertCollection(
        _ className: String, from: Property, to: Property, total: Int, progress: Progress?,
        _ convert: (Value, Int64) -> Value?
    ) throws -> Int {
        let oldName = StorageLayout.collectionTable(className, from.name) + ".__porter_convert"
        try ddl.dropCollectionIndexes(className, from)
        try connection.execute(
            "ALTER TABLE \(quoteIdentifier(StorageLayout.collectionTable(className, from.name))) RENAME TO \(quoteIdentifier(oldName))"
        )
        try ddl.createCollectionTable(className, to)
        let table = quoteIdentifier(StorageLayout.collectionTable(className, to.name))
        let (extra, insertSQL): (String, String)
        switch to.collection {
        case .list: (extra, insertSQL) = ("_pos", "INSERT INTO \(table) (_owner, _pos, value) VALUES (?, ?, ?)")
        case .map: (extra, insertSQL) = ("_key", "INSERT INTO \(table) (_owner, _key, value) VALUES (?, ?, ?)")
        default: (extra, insertSQL) = ("NULL", "INSERT INTO \(table) (_owner, value) VALUES (?, ?)")
        }
        let insert = try connection.prepare(insertSQL)
        let select = try connection.prepare(
            "SELECT _owner, \(extra), value FROM \(quoteIdentifier(oldName)) ORDER BY _owner")
        var done = 0, lastOwner = Int64.min
        while try select.step() {
            let owner = select.int64(0)
            if owner != lastOwner {
                done += 1; lastOwner = owner; if done % MigrationStorage.batchSize == 0 { progress?(done, total) }
            }
            let value = try StorageCodec.read(select, 2, type: from.type, objectType: from.objectType)
            guard let result = convert(value, owner) else { continue }
            insert.bind(1, int: owner)
            var next: Int32 = 2
            if to.collection != .set {
                insert.bind(2, select.value(1))
                next = 3
            }
            StorageCodec.bind(result, type: to.type, to: insert, at: next)
            try insert.run()
        }
        progress?(total, total)
        try connection.execute("DROP TABLE \(quoteIdentifier(oldName))")
        if to.collection == .set {
            let duplicates = try connection.prepare(
                "SELECT _owner FROM \(table) GROUP BY _owner, value HAVING count(*) > 1")
            var failures = ConversionFailures()
            var owners: [String] = []
            while try duplicates.step() {
                let owner = identity(className, duplicates.int64(0), looked: failures.wantsSample)
                if owners.count < 3 { owners.append(owner) }
                failures.add("\(owner): two elements become equal")
            }
            if failures.count > 0 {
                let shown = owners.joined(separator: "; ") + (failures.count > owners.count ? "; …" : "")
                throw PorterError(
                    .migrationFailed,
                    "cannot convert \(failures.count) set\(failures.count == 1 ? "" : "s") from \(from.typeShorthand) to \(to.typeShorthand): two elements become equal in \(shown)",
                    location: "\(className).\(to.name)", details: failures.sample)
            }
        }
        return done
    }

    /// Replaces a property's storage with fresh storage for `to`, every object getting `to`'s
    /// default (a type change nothing converts: realm-core's behaviour).
    package func resetProperty(_ className: String, from: Property, to: Property) throws {
        try dropProperty(className, from.name, collection: from.isCollection)
        try addProperty(className, to)
    }
}
