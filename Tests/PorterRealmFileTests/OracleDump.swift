import Foundation
import PorterModel
@testable import PorterRealmFile

/// Renders a `RealmFile` in `realm-oracle dump`'s canonical form (tools/realm-oracle/README.md),
/// so the reader is compared with realm-core's own reading *as documents*.
struct OracleDump {
    let file: RealmFile

    /// The whole dump document.
    func document() throws -> JSONValue {
        var classes: [JSONValue] = []
        var objects: [JSONMember] = []
        for table in file.tables.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) })
        where table.storedName.hasPrefix("class_") {
            var members = [JSONMember("name", .string(table.name))]
            if table.isEmbedded { members.append(JSONMember("embedded", .bool(true))) }
            if let pk = table.primaryKey { members.append(JSONMember("primaryKey", .string(pk))) }
            members.append(
                JSONMember(
                    "properties",
                    .object(
                        table.properties.map { p in
                            let type = JSONValue.string(p.typeShorthand)
                            let indexed = p.isIndexed && p.name != table.primaryKey
                            return JSONMember(
                                p.name,
                                indexed
                                    ? .object([JSONMember("type", type), JSONMember("indexed", .bool(true))]) : type)
                        })))
            classes.append(.object(members))
            if table.isEmbedded { continue }
            var docs: [JSONValue] = []
            try file.forEachObject(in: table) { object in
                docs.append(try render(object, in: table, top: true))
            }
            objects.append(JSONMember(table.name, .array(docs)))
        }
        return .object([
            JSONMember("schemaVersion", file.schemaVersion.map { .number($0) } ?? .null),
            JSONMember("fileFormat", .number(file.fileFormat)),
            JSONMember("schema", .object([JSONMember("classes", .array(classes))])),
            JSONMember("objects", .object(objects)),
        ])
    }

    func render(_ object: RealmObject, in table: RealmTable, top: Bool) throws -> JSONValue {
        var members: [JSONMember] = []
        if top && table.primaryKey == nil { members.append(JSONMember("_key", Self.long(object.key))) }
        for (p, v) in zip(table.properties, object.values) {
            members.append(JSONMember(p.name, try render(v, mixed: p.type == .mixed)))
        }
        return .object(members)
    }

    func render(_ value: RealmValue, mixed: Bool) throws -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return Self.long(i)
        case .float(let f): return .object([JSONMember("$numberDouble", .string(Self.reprDouble(Double(f))))])
        case .double(let d): return .object([JSONMember("$numberDouble", .string(Self.reprDouble(d)))])
        case .string(let s): return .string(s)
        case .binary(let d): return Self.binary(d, "00")
        case .timestamp(let s, let n):
            let total = Int128(s) * 1_000_000_000 + Int128(n)
            var ms = total / 1_000_000, rem = total % 1_000_000
            if rem < 0 { rem += 1_000_000; ms -= 1 }
            var members = [JSONMember("$date", .object([JSONMember("$numberLong", .string(String(ms)))]))]
            if rem != 0 { members.append(JSONMember("$nanos", .number(String(rem)))) }
            return .object(members)
        case .decimal128(let d): return .object([JSONMember("$numberDecimal", .string(d.description))])
        case .objectId(let o): return .object([JSONMember("$oid", .string(o.hexString))])
        case .uuid(let u): return Self.binary(withUnsafeBytes(of: u.uuid) { Data($0) }, "04")
        case .link(let className, let key):
            let id = try identity(className, key)
            return mixed ? .object([JSONMember("$ref", .string(className)), JSONMember("$id", id)]) : id
        case .embedded(let className, let key, let values):
            guard let table = file.table(named: className) else {
                throw PorterError(.notFound, "no class \(className)")
            }
            return try render(RealmObject(key: key, values: values), in: table, top: false)
        case .list(let items): return .array(try items.map { try render($0, mixed: mixed) })
        case .set(let items): return .array(try items.map { try render($0, mixed: mixed) })
        case .dictionary(let entries):
            return .object(try entries.map { JSONMember($0.key, try render($0.value, mixed: mixed)) })
        }
    }

    func identity(_ className: String, _ key: Int64) throws -> JSONValue {
        guard let table = file.table(named: className) else { throw PorterError(.notFound, "no class \(className)") }
        if table.primaryKey != nil, let pk = try file.primaryKeyValue(in: table, key: key) {
            return try render(pk, mixed: false)
        }
        return Self.long(key)
    }

    static func long(_ v: Int64) -> JSONValue { .object([JSONMember("$numberLong", .string(String(v)))]) }

    static func binary(_ d: Data, _ subtype: String) -> JSONValue {
        .object([
            JSONMember(
                "$binary",
                .object([
                    JSONMember("base64", .string(d.base64EncodedString())), JSONMember("subType", .string(subtype)),
                ]))
        ])
    }

    /// The oracle's `repr_double`: shortest round-trip digits, fixed notation for decimal
    /// exponents in [-5, 16), otherwise `d.dddE+XX`.
    static func reprDouble(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        // Swift's description is the shortest round-trip text; take its digits and exponent.
        let text = "\(d.magnitude)"
        var mantissa = text, exp = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = String(text[..<e])
            exp = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let intPart = String(parts[0]), fracPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = intPart + fracPart
        exp += intPart.count - 1
        while digits.hasPrefix("0") && digits.count > 1 { digits.removeFirst(); exp -= 1 }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        var out = d < 0 ? "-" : ""
        if exp >= -5 && exp < 16 {
            if exp >= 0 {
                var ip = String(digits.prefix(exp + 1))
                while ip.count < exp + 1 { ip += "0" }
                let fp = digits.count > exp + 1 ? String(digits.dropFirst(exp + 1)) : "0"
                out += ip + "." + fp
            } else {
                out += "0." + String(repeating: "0", count: -exp - 1) + digits
            }
        } else {
            out += String(digits.prefix(1)) + "." + (digits.count > 1 ? String(digits.dropFirst()) : "0")
            out += (exp < 0 ? "E-" : "E+") + String(abs(exp))
        }
        return out
    }
}

/// Structural comparison helpers: objects compare member sets (order-free), the arrays of
/// classes, objects and sets compare as multisets.
enum DumpCompare {
    /// A canonical form: object members sorted by key; arrays at `unordered` paths sorted.
    static func normalize(_ v: JSONValue, unorderedArrays: Bool = false) -> JSONValue {
        switch v {
        case .object(let members):
            return .object(members.map { JSONMember($0.key, normalize($0.value)) }.sorted { $0.key < $1.key })
        case .array(let items):
            let n = items.map { normalize($0) }
            return .array(
                unorderedArrays ? n.sorted { $0.serialized(pretty: false) < $1.serialized(pretty: false) } : n)
        case .number(let text):
            if let i = Int64(text) { return .number(String(i)) }
            return .number(Double(text).map { "\($0)" } ?? text)
        default: return v
        }
    }

    /// Normalizes a dump: set-typed properties (`T<>`) and each class's object list become multisets.
    static func normalizeDump(_ dump: JSONValue) -> JSONValue {
        guard case .object(var members) = dump else { return dump }
        var setProperties: [String: Set<String>] = [:]
        if let classes = dump["schema"]?["classes"]?.arrayValue {
            for c in classes {
                guard let name = c["name"]?.stringValue, let props = c["properties"]?.objectMembers else { continue }
                setProperties[name] = Set(
                    props.compactMap { p in
                        let type = p.value.stringValue ?? p.value["type"]?.stringValue ?? ""
                        return type.hasSuffix("<>") ? p.key : nil
                    })
            }
        }
        let sets = setProperties
        func fixObject(_ o: JSONValue, _ className: String?) -> JSONValue {
            guard case .object(let ms) = o, let className else { return o }
            return .object(
                ms.map { m in
                    sets[className]?.contains(m.key) == true
                        ? JSONMember(m.key, normalize(m.value, unorderedArrays: true)) : m
                })
        }
        for i in members.indices {
            switch members[i].key {
            case "objects":
                guard case .object(let classes) = members[i].value else { continue }
                members[i].value = .object(
                    classes.map { c in
                        JSONMember(
                            c.key,
                            normalize(
                                .array((c.value.arrayValue ?? []).map { fixObject($0, c.key) }), unorderedArrays: true))
                    })
            case "schema":
                let classes = (members[i].value["classes"]?.arrayValue ?? []).map { normalize($0) }
                members[i].value = .object([
                    JSONMember(
                        "classes",
                        .array(classes.sorted { $0.serialized(pretty: false) < $1.serialized(pretty: false) }))
                ])
            default: break
            }
        }
        return normalize(.object(members))
    }
}
