import Foundation
import PorterModel
import PorterRealmFile

/// A Realm file as the data a diff inspects (``SchemaDataInspector``): counts, unconvertible
/// values, duplicates and embedding facts read from the file itself, one column at a time in
/// object-key order, with no copy into a database and nothing written to disk.
///
/// The answers are those a Porter database holding the file's objects gives (the copy `porter diff`
/// made before): values as an import stores them (a float in a `mixed` widened to a double),
/// samples in the same order. Objects are named by their keys in the file.
package struct RealmFileInspector: SchemaDataInspector {
    /// The file read.
    package let file: RealmFile

    /// Inspects `file` (opened by the caller, with its key when encrypted).
    package init(_ file: RealmFile) { self.file = file }

    package func objectCount(_ className: String) throws -> Int {
        guard let table = file.table(named: className) else { return 0 }
        return try file.objectCount(in: table)
    }

    package func valueCounts(_ className: String, _ property: Property) throws -> ValueCounts {
        var counts = ValueCounts(nonNull: 0, null: 0)
        try forEachStored(className, property.name) { _, stored in
            if property.isCollection {
                // An object counts once when it holds any element; null elements are counted.
                let elements = Self.elements(of: stored)
                if !elements.isEmpty { counts.nonNull += 1 }
                for element in elements where element == .null { counts.null += 1 }
            } else if stored == .null {
                counts.null += 1
            } else {
                counts.nonNull += 1
            }
        }
        return counts
    }

    package func unconvertibleValues(
        _ className: String, _ property: Property, to target: Property, rule: ConversionRule,
        sampleLimit: Int
    ) throws -> SampledCount {
        var result = SampledCount(count: 0)
        let mixed = property.type == .mixed
        try forEachStored(className, property.name) { owner, stored in
            for element in property.isCollection ? Self.elements(of: stored) : [stored] where element != .null {
                do {
                    _ = try ValueConversion.convertElement(value(element, mixed: mixed), to: target.type, rule: rule)
                } catch let error as PorterError {
                    result.count += 1
                    if result.sample.count < sampleLimit {
                        result.sample.append("\(className)(\(owner)): \(error.message)")
                    }
                }
            }
        }
        return result
    }

    package func duplicateValues(_ className: String, _ property: Property, sampleLimit: Int) throws -> SampledCount {
        guard !property.isCollection else { return SampledCount(count: 0) }
        var counts: [StoredIdentity: (value: Value, count: Int)] = [:]
        try forEachStored(className, property.name) { _, stored in
            let value = try value(stored, mixed: property.type == .mixed)
            counts[StoredIdentity(value), default: (value, 0)].count += 1
        }
        // In the order SQL's GROUP BY gives them: by the value as Porter stores it.
        let duplicates = counts.values.filter { $0.count > 1 }.sorted { StoredOrder.precedes($0.value, $1.value) }
        var result = SampledCount(count: duplicates.count)
        for (value, count) in duplicates.prefix(sampleLimit) {
            result.sample.append("\(value.messageText) (\(count) objects)")
        }
        return result
    }

    package func embeddingCounts(_ className: String, sources: [LinkSource], sampleLimit: Int) throws
        -> EmbeddingCounts
    {
        guard let table = file.table(named: className) else {
            return EmbeddingCounts(orphans: 0, multiplyLinked: 0, mixedLinks: SampledCount(count: 0))
        }
        var mixed = SampledCount(count: 0)
        var incoming: [Int64: Int] = [:]
        for source in sources {
            if source.property.type == .mixed {
                try mixedLinks(to: className, from: source, into: &mixed, sampleLimit: sampleLimit)
                continue
            }
            try forEachStored(source.className, source.property.name) { _, stored in
                for element in source.property.isCollection ? Self.elements(of: stored) : [stored] {
                    if case .link(let target, let key) = element, target == className { incoming[key, default: 0] += 1 }
                }
            }
        }
        var orphans = 0, multiplyLinked = 0
        try forEachKey(table) { key in
            switch incoming[key] ?? 0 {
            case 0: orphans += 1
            case 1: break
            default: multiplyLinked += 1
            }
        }
        return EmbeddingCounts(orphans: orphans, multiplyLinked: multiplyLinked, mixedLinks: mixed)
    }

    /// Adds the `mixed` values of `source` that link to objects of `className`: plain links first,
    /// then lists and dictionaries nested in a `mixed` holding one (the order of the copy's scans).
    private func mixedLinks(
        to className: String, from source: LinkSource, into result: inout SampledCount, sampleLimit: Int
    ) throws {
        var nested: [Int64] = []
        func note(_ owner: Int64) {
            result.count += 1
            if result.sample.count < sampleLimit {
                result.sample.append("\(source.className)(\(owner)).\(source.property.name)")
            }
        }
        try forEachStored(source.className, source.property.name) { owner, stored in
            for element in source.property.isCollection ? Self.elements(of: stored) : [stored] {
                switch element {
                case .link(let target, _) where target == className: note(owner)
                case .list, .dictionary:
                    if Self.holdsLink(element, to: className) { nested.append(owner) }
                default: break
                }
            }
        }
        for owner in nested { note(owner) }
    }

    // MARK: - Reading

    /// Calls `body` with each object's key and stored value of a property, in key order; nothing
    /// when the file has no such class or property (no storage counts as empty).
    private func forEachStored(
        _ className: String, _ property: String, _ body: (Int64, RealmValue) throws -> Void
    ) throws {
        guard let table = file.table(named: className), table.properties.contains(where: { $0.name == property })
        else { return }
        try file.forEachValue(in: table, property: property, body)
    }

    /// Calls `body` with the key of every object of a table, in key order.
    private func forEachKey(_ table: RealmTable, _ body: (Int64) throws -> Void) throws {
        if let first = table.properties.first {
            try file.forEachValue(in: table, property: first.name) { key, _ in try body(key) }
        } else {
            try file.forEachObject(in: table) { try body($0.key) }
        }
    }

    /// The elements of a stored list, set or dictionary (the values of a dictionary).
    static func elements(of stored: RealmValue) -> [RealmValue] {
        switch stored {
        case .list(let elements), .set(let elements): return elements
        case .dictionary(let entries): return entries.map(\.value)
        default: return []
        }
    }

    /// Whether a list or dictionary nested in a `mixed` holds a link to `className`, at any depth.
    static func holdsLink(_ stored: RealmValue, to className: String) -> Bool {
        switch stored {
        case .link(let target, _): return target == className
        case .list(let elements), .set(let elements): return elements.contains { holdsLink($0, to: className) }
        case .dictionary(let entries): return entries.contains { holdsLink($0.value, to: className) }
        default: return false
        }
    }

    /// A stored element as Porter's value, as a Porter database holding the file's objects reads it
    /// back: a link or embedded object as a link, a float in a `mixed` as a double (an import
    /// widens it).
    func value(_ stored: RealmValue, mixed: Bool) throws -> Value {
        switch stored {
        case .link(let className, let key), .embedded(let className, let key, _):
            return .link(ObjectLink(className, ObjectKey(key)))
        case .float(let f) where mixed: return .double(Double(f))
        case .list(let elements) where mixed: return .list(try elements.map { try value($0, mixed: true) })
        case .dictionary(let entries) where mixed:
            var map: [String: Value] = [:]
            for entry in entries { map[entry.key] = try value(entry.value, mixed: true) }
            return .map(map)
        default: return try RealmValues.scalar(stored, location: file.path)
        }
    }
}

/// A value as equal as Porter's store holds it: floating-point values by their bits (the store
/// keeps -0.0 and NaN as blobs, so -0.0 is not 0.0 and a NaN equals the same NaN), everything
/// else by `Value`'s equality.
struct StoredIdentity: Hashable {
    private enum Key: Hashable {
        case value(Value)
        case double(UInt64)
        case float(UInt32)
    }
    private let key: Key

    init(_ value: Value) {
        switch value {
        case .double(let d): key = .double(d.bitPattern)
        case .float(let f): key = .float(f.bitPattern)
        default: key = .value(value)
        }
    }
}

/// The order SQLite gives values of one (non-`mixed`) column as Porter stores them: null, then
/// numbers, then text by its UTF-8 bytes, then blobs byte by byte (dates, decimals, ObjectIds,
/// UUIDs, data, and the floats SQL cannot hold exactly).
enum StoredOrder {
    private enum Key {
        case null
        case number(Double, Int64?)
        case text([UInt8])
        case blob([UInt8])

        var rank: Int {
            switch self {
            case .null: return 0
            case .number: return 1
            case .text: return 2
            case .blob: return 3
            }
        }
    }

    /// Whether `a` sorts before `b`.
    static func precedes(_ a: Value, _ b: Value) -> Bool {
        let (x, y) = (key(a), key(b))
        guard x.rank == y.rank else { return x.rank < y.rank }
        switch (x, y) {
        case (.number(let d1, let i1), .number(let d2, let i2)):
            if let i1, let i2 { return i1 < i2 }
            return d1 < d2
        case (.text(let b1), .text(let b2)), (.blob(let b1), .blob(let b2)):
            return b1.lexicographicallyPrecedes(b2)
        default: return false
        }
    }

    private static func key(_ value: Value) -> Key {
        switch value {
        case .null: return .null
        case .bool(let b): return .number(b ? 1 : 0, b ? 1 : 0)
        case .int(let i): return .number(Double(i), i)
        case .link(let link): return .number(Double(link.key.rawValue), link.key.rawValue)
        case .float(let f):
            if f.isNaN || (f == 0 && f.sign == .minus) { return .blob(bigEndian(UInt64(f.bitPattern), 4)) }
            return .number(Double(f), nil)
        case .double(let d):
            if d.isNaN || (d == 0 && d.sign == .minus) { return .blob(bigEndian(d.bitPattern, 8)) }
            return .number(d, nil)
        case .string(let s): return .text(Array(s.utf8))
        case .data(let d): return .blob(Array(d))
        case .date(let t):
            return .blob(
                bigEndian(UInt64(bitPattern: t.seconds) ^ (1 << 63), 8)
                    + bigEndian(UInt64(UInt32(bitPattern: t.nanoseconds) ^ (1 << 31)), 4))
        case .decimal128(let d):
            return .blob(
                withUnsafeBytes(of: d.low.littleEndian) { Array($0) }
                    + withUnsafeBytes(of: d.high.littleEndian) { Array($0) })
        case .objectId(let o): return .blob(o.bytes)
        case .uuid(let u): return .blob(withUnsafeBytes(of: u.uuid) { Array($0) })
        case .list, .set, .map, .object: return .null
        }
    }

    private static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }
}
