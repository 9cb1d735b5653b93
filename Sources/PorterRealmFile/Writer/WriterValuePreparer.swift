import Foundation
import PorterModel

/// Checks each value against its property and turns source keys into realm-core object keys:
/// links to the target's ObjKey, embedded objects into links to freshly numbered embedded rows
/// (0, 1, 2… per embedded class in the order they are met). Records every link as a backlink
/// edge of the target column, and (when `collectEmbedded`) keeps the embedded objects for their tables.
struct WriterValuePreparer {
    let plan: WriterTablePlan
    let resolver: WriterKeyResolver
    /// Whether to record edges to top-level tables (first pass) or to embedded tables and keep embedded objects (writing pass).
    let collectEmbedded: Bool

    /// Backlink edges by table and backlink leaf index.
    var backlinks: [[Int: [(target: Int64, origin: Int64)]]]
    /// Links held by mixed values (first pass): (target key, origin key) by mixed column and target.
    var mixedEdges: [WriterMixedLink: [(target: Int64, origin: Int64)]] = [:]
    /// Embedded objects by table, in key order.
    var embedded: [[(key: Int64, values: [RealmValue])]]
    private var embeddedCounters: [Int64]

    init(plan: WriterTablePlan, resolver: WriterKeyResolver, collectEmbedded: Bool) {
        self.plan = plan
        self.resolver = resolver
        self.collectEmbedded = collectEmbedded
        backlinks = Array(repeating: [:], count: plan.tables.count)
        embedded = Array(repeating: [], count: plan.tables.count)
        embeddedCounters = Array(repeating: 0, count: plan.tables.count)
    }

    /// Checks and translates the values of object `key` of table `table`.
    mutating func prepare(table: Int, key: Int64, values: [RealmValue], sourceKey: Int64) throws -> [RealmValue] {
        let t = plan.tables[table]
        guard values.count == t.properties.count else {
            throw PorterError(
                .invalidValue, "expected \(t.properties.count) values (the persisted properties), got \(values.count)",
                location: "\(t.objectSchema!.name)[\(sourceKey)]")
        }
        var result = values
        for i in t.properties.indices {
            let column = t.propertyColumns[i]
            // Scalars of the right type pass unchanged: the common case costs one switch.
            if column.property!.collection == .none, Self.isPlainMatch(values[i], column.property!.type) { continue }
            let location = WriterLocation(
                className: t.objectSchema!.name, sourceKey: sourceKey, property: t.properties[i].name)
            result[i] = try prepare(
                values[i], property: t.properties[i], column: column, table: table, key: key, location: location)
        }
        return result
    }

    mutating func prepare(
        _ value: RealmValue, property: Property, column: WriterColumn, table: Int, key: Int64,
        location: WriterLocation
    ) throws -> RealmValue {
        func element(_ v: RealmValue) throws -> RealmValue {
            try self.element(v, property: property, column: column, table: table, key: key, location: location)
        }
        switch (property.collection, value) {
        case (.none, _): return try element(value)
        case (.list, .list(let elements)): return .list(try elements.map(element))
        case (.set, .set(let elements)):
            if property.type == .mixed {
                try WriterFileFormat.checkMixedSet(
                    elements, fileFormat: plan.fileFormat, givenOrder: plan.mixedSetStringsInCoreOrder,
                    location: location)
            }
            // A link given twice is one element (realm-core keeps one): record its backlink once.
            var seen = Set<String>()
            let unique = elements.filter { e in
                guard case .link(let className, let key) = e else { return true }
                return seen.insert("\(className)\u{0}\(key)").inserted
            }
            return .set(try unique.map(element))
        case (.map, .dictionary(let entries)):
            try Self.checkKeys(entries, location: location)
            return .dictionary(try entries.map { RealmDictionaryEntry(key: $0.key, value: try element($0.value)) })
        default:
            throw PorterError(
                .invalidValue, "expected a \(property.typeShorthand), got \(value.writerKind)", location: location.text)
        }
    }

    mutating func element(
        _ value: RealmValue, property: Property, column: WriterColumn, table: Int, key: Int64,
        location: WriterLocation
    ) throws -> RealmValue {
        var mismatch: PorterError {
            PorterError(
                .invalidValue, "expected a \(property.typeShorthand), got \(value.writerKind)", location: location.text)
        }
        if case .null = value {
            guard column.isNullable else {
                throw PorterError(
                    .invalidValue, "null in a required \(property.typeShorthand)", location: location.text)
            }
            return .null
        }
        if let limitError = WriterLimits.check(value, location: location) { throw limitError }
        switch (property.type, value) {
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double), (.string, .string), (.data, .binary),
            (.date, .timestamp), (.decimal128, .decimal128), (.objectId, .objectId), (.uuid, .uuid):
            return value
        case (.mixed, .link(let className, let sourceKey)):
            guard let target = plan.tableByClass[className], !plan.tables[target].isEmbedded else {
                throw PorterError(
                    .invalidValue, "a mixed value can only link to a top-level class, got \(className)",
                    location: location.text)
            }
            guard let targetKey = resolver.resolve(table: target, sourceKey: sourceKey) else {
                throw PorterError(.notFound, "no \(className) object with key \(sourceKey)", location: location.text)
            }
            if !collectEmbedded {
                mixedEdges[WriterMixedLink(origin: table, originLeaf: column.leafIndex, target: target), default: []]
                    .append((targetKey, key))
            }
            return .link(className: className, key: targetKey)
        case (.mixed, .embedded):
            throw PorterError(.invalidValue, "a mixed value cannot hold an embedded object", location: location.text)
        case (.mixed, .list), (.mixed, .dictionary):
            try WriterFileFormat.checkMixed(value, fileFormat: plan.fileFormat, location: location)
            return try nested(
                value, property: property, column: column, table: table, key: key, location: location, depth: 1)
        case (.mixed, .set):
            throw PorterError(
                .invalidValue, "a mixed value can hold a list or a dictionary, not a set", location: location.text)
        case (.mixed, _):
            return value
        case (.object, .link(let className, let sourceKey)):
            guard className == property.objectType, let target = plan.tableByClass[className],
                !plan.tables[target].isEmbedded
            else {
                throw mismatch
            }
            guard let targetKey = resolver.resolve(table: target, sourceKey: sourceKey) else {
                throw PorterError(.notFound, "no \(className) object with key \(sourceKey)", location: location.text)
            }
            if !collectEmbedded, let opposite = column.opposite {
                backlinks[target][opposite.leafIndex, default: []].append((targetKey, key))
            }
            return .link(className: className, key: targetKey)
        case (.object, .embedded(let className, _, let values)):
            guard className == property.objectType, let target = plan.tableByClass[className],
                plan.tables[target].isEmbedded
            else {
                throw mismatch
            }
            let embeddedKey = embeddedCounters[target]
            embeddedCounters[target] += 1
            let prepared = try prepare(table: target, key: embeddedKey, values: values, sourceKey: embeddedKey)
            if collectEmbedded {
                if let opposite = column.opposite {
                    backlinks[target][opposite.leafIndex, default: []].append((embeddedKey, key))
                }
                embedded[target].append((embeddedKey, prepared))
            }
            return .link(className: className, key: embeddedKey)
        default:
            throw mismatch
        }
    }
}

extension WriterValuePreparer {
    /// Whether `value` is a non-null scalar stored as is for a property of `type` (and within limits).
    @inline(__always)
    static func isPlainMatch(_ value: RealmValue, _ type: PropertyType) -> Bool {
        switch (type, value) {
        case (.string, .string(let s)): return s.utf8.count <= WriterLimits.maxString
        case (.data, .binary(let d)): return d.count <= WriterLimits.maxBinary
        case (.date, .timestamp(let seconds, let nanoseconds)): return WriterLimits.validTimestamp(seconds, nanoseconds)
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double),
            (.decimal128, .decimal128), (.objectId, .objectId), (.uuid, .uuid):
            return true
        default:
            return false
        }
    }
}

extension WriterValuePreparer {
    /// realm-core's rule for dictionary keys: an empty key is allowed, '.' and a leading '$' are
    /// not; and a key appears once.
    static func checkKeys(_ entries: [RealmDictionaryEntry], location: WriterLocation) throws {
        var seen = Set<String>()
        for entry in entries {
            guard !entry.key.contains("."), !entry.key.hasPrefix("$") else {
                throw PorterError(
                    .invalidValue, "dictionary key '\(entry.key)' contains '.' or starts with '$'",
                    location: location.text)
            }
            guard seen.insert(entry.key).inserted else {
                throw PorterError(.invalidValue, "dictionary key '\(entry.key)' appears twice", location: location.text)
            }
        }
    }

    /// realm-core's limit on collections nested in a mixed (`Lst`/`Dictionary` levels; Porter's own is the same).
    static let maximumNesting = 100

    /// A list or dictionary nested in a mixed value: its elements are checked (and links
    /// resolved, recorded against the mixed column) as the mixed value itself would be.
    mutating func nested(
        _ value: RealmValue, property: Property, column: WriterColumn, table: Int, key: Int64,
        location: WriterLocation, depth: Int
    ) throws -> RealmValue {
        guard depth <= Self.maximumNesting else {
            throw PorterError(
                .invalidValue, "collections nest deeper than \(Self.maximumNesting) levels in a mixed value",
                location: location.text)
        }
        func element(_ v: RealmValue) throws -> RealmValue {
            switch v {
            case .list, .dictionary:
                return try nested(
                    v, property: property, column: column, table: table, key: key, location: location, depth: depth + 1)
            case .set:
                throw PorterError(
                    .invalidValue, "a mixed value can hold a list or a dictionary, not a set", location: location.text)
            default:
                return try self.element(
                    v, property: property, column: column, table: table, key: key, location: location)
            }
        }
        switch value {
        case .list(let items):
            return .list(try items.map(element))
        case .dictionary(let entries):
            try Self.checkKeys(entries, location: location)
            return .dictionary(try entries.map { RealmDictionaryEntry(key: $0.key, value: try element($0.value)) })
        default:
            return try element(value)
        }
    }
}
