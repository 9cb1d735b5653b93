import Foundation
import PorterModel
@testable import PorterRealmFile

/// An in-memory `RealmWriteSource`: objects per class as (source key, values).
struct WriterMemorySource: RealmWriteSource {
    var objects: [String: [(Int64, [RealmValue])]]

    func forEachObject(of className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
        for (key, values) in objects[className] ?? [] { try body(key, values) }
    }
}

/// Reads the oracle's fixture notation (the subset the scenarios use) into a memory source, so that
/// one schema + fixture pair feeds both `realm-oracle make` (the reference) and the writer.
/// Classes with a primary key: source key = position; without: the integer `_key` member.
/// Links: the target's primary key value or `_key`.
struct WriterFixtureReader {
    let schema: Schema

    func read(_ fixture: JSONValue) throws -> WriterMemorySource {
        guard case .object(let members) = fixture else { throw PorterError(.invalidInput, "fixture must be an object") }
        var documents: [String: [JSONValue]] = [:]
        for m in members {
            if case .array(let docs) = m.value, schema[m.key] != nil { documents[m.key] = docs }
        }
        // Source keys of primary-key values, per class.
        var pkKeys: [String: [JSONValue: Int64]] = [:]
        for (className, docs) in documents {
            guard let pk = schema[className]?.primaryKey else { continue }
            for (i, doc) in docs.enumerated() { pkKeys[className, default: [:]][member(doc, pk) ?? .null] = Int64(i) }
        }
        var source = WriterMemorySource(objects: [:])
        for (className, docs) in documents {
            let objectSchema = schema[className]!
            for (i, doc) in docs.enumerated() {
                let key = objectSchema.primaryKey == nil ? Self.int(member(doc, "_key") ?? .null) ?? Int64(i) : Int64(i)
                let values = try objectSchema.persistedProperties.map { p in
                    try value(member(doc, p.name) ?? .null, property: p, pkKeys: pkKeys)
                }
                source.objects[className, default: []].append((key, values))
            }
        }
        return source
    }

    private func member(_ doc: JSONValue, _ name: String) -> JSONValue? {
        guard case .object(let members) = doc else { return nil }
        return members.first { $0.key == name }?.value
    }

    static func int(_ v: JSONValue) -> Int64? {
        if case .number(let text) = v { return Int64(text) }
        return nil
    }

    private func value(_ json: JSONValue, property p: Property, pkKeys: [String: [JSONValue: Int64]]) throws
        -> RealmValue
    {
        switch p.collection {
        case .none: return try element(json, property: p, pkKeys: pkKeys)
        case .list, .set:
            guard case .array(let items) = json else { return p.collection == .list ? .list([]) : .set([]) }
            let elements = try items.map { try element($0, property: p, pkKeys: pkKeys) }
            return p.collection == .list ? .list(elements) : .set(elements)
        case .map:
            guard case .object(let members) = json else { return .dictionary([]) }
            return .dictionary(
                try members.map {
                    RealmDictionaryEntry(key: $0.key, value: try element($0.value, property: p, pkKeys: pkKeys))
                })
        }
    }

    private func element(_ json: JSONValue, property p: Property, pkKeys: [String: [JSONValue: Int64]]) throws
        -> RealmValue
    {
        if case .null = json { return .null }
        switch p.type {
        case .object:
            let target = schema[p.objectType!]!
            if target.isEmbedded {
                let values = try target.persistedProperties.map {
                    try value(member(json, $0.name) ?? .null, property: $0, pkKeys: pkKeys)
                }
                return .embedded(className: target.name, key: 0, values: values)
            }
            if target.primaryKey != nil { return .link(className: target.name, key: pkKeys[target.name]![json]!) }
            return .link(className: target.name, key: Self.int(json)!)
        case .mixed: return try mixed(json, pkKeys: pkKeys)
        default: return try scalar(json, type: p.type)
        }
    }

    private func mixed(_ json: JSONValue, pkKeys: [String: [JSONValue: Int64]]) throws -> RealmValue {
        switch json {
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let text): return Int64(text).map(RealmValue.int) ?? .double(Double(text)!)
        case .object(let members):
            guard let m = members.first else { return .null }
            if m.key == "$ref", case .string(let className) = m.value, let id = member(json, "$id") {
                if schema[className]?.primaryKey != nil {
                    return .link(className: className, key: pkKeys[className]![id]!)
                }
                return .link(className: className, key: Self.int(id)!)
            }
            switch m.key {
            case "$oid": return try scalar(m.value, type: .objectId)
            case "$date": return try scalar(m.value, type: .date)
            case "$numberDecimal": return try scalar(m.value, type: .decimal128)
            case "$uuid": return try scalar(m.value, type: .uuid)
            case "$binary": return try scalar(member(m.value, "base64")!, type: .data)
            case "$numberLong": return try scalar(m.value, type: .int)
            default: throw PorterError(.invalidInput, "unsupported mixed \(m.key)")
            }
        default: return .null
        }
    }

    private func scalar(_ json: JSONValue, type: PropertyType) throws -> RealmValue {
        func text() -> String {
            switch json {
            case .string(let s): return s
            case .number(let n): return n
            default: return ""
            }
        }
        switch type {
        case .int: return .int(Int64(text())!)
        case .bool: if case .bool(let b) = json { return .bool(b) }; return .bool(false)
        case .float: return .float(Float(text())!)
        case .double: return .double(Double(text())!)
        case .string: return .string(text())
        case .data: return .binary(Data(base64Encoded: text())!)
        case .date: return Self.timestamp(text())
        case .decimal128: return .decimal128(try Decimal128(string: text()))
        case .objectId: return .objectId(try ObjectId(hex: text()))
        case .uuid: return .uuid(UUID(uuidString: text())!)
        default: throw PorterError(.invalidInput, "unsupported type \(type)")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` to realm-core's (seconds, nanoseconds), both with the same sign.
    static func timestamp(_ text: String) -> RealmValue {
        let b = Array(text.utf8)
        func num(_ r: Range<Int>) -> Int64 { Int64(String(decoding: b[r], as: UTF8.self))! }
        var y = num(0..<4), m = num(5..<7)
        let d = num(8..<10)
        let secs = num(11..<13) * 3600 + num(14..<16) * 60 + num(17..<19)
        var nanos: Int64 = 0
        if b.count > 20, b[19] == UInt8(ascii: ".") {
            var digits = 0
            var i = 20
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 9 { nanos = nanos * 10 + Int64(b[i] - 48); digits += 1 }
                i += 1
            }
            while digits < 9 { nanos *= 10; digits += 1 }
        }
        // Days from civil (Howard Hinnant).
        if m <= 2 { y -= 1 }
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        m = m > 2 ? m - 3 : m + 9
        let doy = (153 * m + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let total = (days * 86400 + secs) * 1_000_000_000 + nanos
        return .timestamp(seconds: total / 1_000_000_000, nanoseconds: Int32(total % 1_000_000_000))
    }
}
