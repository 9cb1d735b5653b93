import Foundation
import PorterModel
@testable import PorterRealmFile

/// Renders tables in the form of the shared `*.decoded.json` files (an independent prototype
/// reader's output for realm-core's test files, which have no `class_` tables).
struct PrototypeDump {
    let file: RealmFile

    /// Every row of `table` as `{"_key": k, column: value…}`.
    func rows(_ table: RealmTable) throws -> [JSONValue] {
        var out: [JSONValue] = []
        try file.forEachObject(in: table) { object in
            var members = [JSONMember("_key", .number(object.key))]
            for (p, v) in zip(table.properties, object.values) { members.append(JSONMember(p.name, try render(v))) }
            out.append(.object(members))
        }
        return out
    }

    func render(_ value: RealmValue) throws -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(i)
        case .float(let f): return .number(Double(f))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .binary(let d): return .object([JSONMember("$binary", .string(d.base64EncodedString()))])
        case .timestamp(let s, let n):
            return .object([
                JSONMember(
                    "$timestamp",
                    .object([JSONMember("seconds", .number(s)), JSONMember("nanoseconds", .number(Int(n)))]))
            ])
        case .objectId(let o): return .object([JSONMember("$oid", .string(o.hexString))])
        case .uuid(let u):
            let hex = withUnsafeBytes(of: u.uuid) { $0.map { String(format: "%02x", $0) }.joined() }
            return .object([JSONMember("$uuid", .string(hex))])
        case .link(let className, let key):
            let table = try require(file.table(named: className), className)
            let pk = try file.primaryKeyValue(in: table, key: key).map { try render($0) } ?? .null
            return .object([JSONMember("$link", .number(key)), JSONMember("pk", pk)])
        case .list(let items), .set(let items): return .array(try items.map(render))
        case .dictionary(let entries): return .object(try entries.map { JSONMember($0.key, try render($0.value)) })
        case .decimal128(let d): return .object([JSONMember("$numberDecimal", .string(d.description))])
        case .embedded(_, _, let values): return .array(try values.map(render))
        }
    }

    /// The expected rows with the prototype's spellings mapped to the reader's contract:
    /// unresolved links read as null, typed links as links.
    static func expected(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let members):
            if members.first?.key == "$unresolved" { return .null }
            if members.first?.key == "$typedLink", let inner = members.first?.value {
                return .object([JSONMember("$link", inner["key"] ?? .null), JSONMember("pk", inner["pk"] ?? .null)])
            }
            return .object(members.map { JSONMember($0.key, expected($0.value)) })
        case .array(let items): return .array(items.map(expected))
        default: return v
        }
    }
}

/// `#require` for plain throwing code outside a test body.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw PorterError(.notFound, "\(what) missing") }
    return value
}
