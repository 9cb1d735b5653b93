import Foundation
import PorterModel

/// How the studio's JSON API shows a stored value: as Realm shows it, with its type.
///
/// Every non-null value is an object with a `type`; scalars carry `text` (dates ISO 8601 UTC with
/// their nanoseconds, decimals exact, numbers in shortest round-trip form), data its `size` and a
/// `hex` preview, links `{class, key}`, embedded objects their `fields`, collections their `count`
/// and (up to ``StudioValues/collectionPreview`` of) their `items`; a value held by a `mixed`
/// property has `mixed: true`.
enum StudioValues {
    /// Elements of a collection sent with a page of objects (the object route sends them all).
    static let collectionPreview = 50
    /// Bytes of a data value shown as hex.
    static let hexPreview = 32

    /// The JSON form of `value`; `elements` caps what collections send.
    static func json(_ value: Value, mixed: Bool = false, elements: Int = collectionPreview) -> JSONValue {
        var members: [JSONMember]
        switch value {
        case .null: return .null
        case .bool(let b): members = scalar("bool", b ? "true" : "false")
        case .int(let i): members = scalar("int", String(i))
        case .float(let f): members = scalar("float", number(Double(f), text: "\(f)"))
        case .double(let d): members = scalar("double", number(d, text: "\(d)"))
        case .string(let s): members = scalar("string", s)
        case .data(let d):
            let hex = d.prefix(hexPreview).map { String(format: "%02x", $0) }.joined()
            members = [
                JSONMember("type", .string("data")), JSONMember("size", .number(String(d.count))),
                JSONMember("hex", .string(hex)),
            ]
        case .date(let t): members = scalar("date", t.iso8601)
        case .decimal128(let d): members = scalar("decimal128", d.description)
        case .objectId(let o): members = scalar("objectId", o.stringValue)
        case .uuid(let u): members = scalar("uuid", u.uuidString.lowercased())
        case .link(let link):
            members = [
                JSONMember("type", .string("link")), JSONMember("class", .string(link.className)),
                JSONMember("key", .number(String(link.key.rawValue))),
            ]
        case .list(let items): members = collection("list", items.map { (nil, $0) }, mixed: mixed, elements: elements)
        case .set(let items): members = collection("set", items.map { (nil, $0) }, mixed: mixed, elements: elements)
        case .map(let entries):
            let sorted = entries.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
            members = collection("dictionary", sorted, mixed: mixed, elements: elements)
        case .object(let fields):
            // An embedded object read from a Porter database: properties by name.
            members = [
                JSONMember("type", .string("object")),
                JSONMember(
                    "fields",
                    .object(
                        fields.sorted { $0.key < $1.key }.map {
                            JSONMember($0.key, json($0.value, elements: elements))
                        })),
            ]
        }
        if mixed { members.append(JSONMember("mixed", .bool(true))) }
        return .object(members)
    }

    /// An embedded object with its properties in schema order.
    static func embedded(_ className: String, _ fields: [(String, Value, Bool)], elements: Int) -> JSONValue {
        .object([
            JSONMember("type", .string("object")), JSONMember("class", .string(className)),
            JSONMember("fields", .object(fields.map { JSONMember($0.0, json($0.1, mixed: $0.2, elements: elements)) })),
        ])
    }

    private static func scalar(_ type: String, _ text: String) -> [JSONMember] {
        [JSONMember("type", .string(type)), JSONMember("text", .string(text))]
    }

    /// Shortest round-trip text, with Realm's names for the values JSON has no number for.
    private static func number(_ d: Double, text: String) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return text
    }

    private static func collection(_ type: String, _ items: [(String?, Value)], mixed: Bool, elements: Int)
        -> [JSONMember]
    {
        let shown = items.prefix(elements).map { key, value -> JSONValue in
            let element = json(value, mixed: mixed, elements: elements)
            guard let key else { return element }
            return .object([JSONMember("key", .string(key)), JSONMember("value", element)])
        }
        return [
            JSONMember("type", .string(type)), JSONMember("count", .number(String(items.count))),
            JSONMember("items", .array(shown)),
        ]
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    var text: String { serialized(pretty: false) }

    /// A JSON number from an integer.
    static func int(_ i: some BinaryInteger) -> JSONValue { .number(String(i)) }
}
