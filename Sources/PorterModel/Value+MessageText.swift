/// How a value is shown inside Porter's messages (duplicate keys, duplicate samples, type mismatches).
extension Value {
    /// A short rendering for messages: strings quoted (cut at 80 characters), ids in hex, dates in
    /// ISO 8601, links as `Class(key)`; collections, data and decimals by their kind alone.
    package var messageText: String {
        switch self {
        case .string(let s): return "'\(s.count > 80 ? String(s.prefix(80)) + "…" : s)'"
        case .int(let i): return String(i)
        case .objectId(let o): return "ObjectId('\(o.stringValue)')"
        case .uuid(let u): return "UUID('\(u.uuidString.lowercased())')"
        case .null: return "null"
        case .bool(let b): return String(b)
        case .double(let d): return String(d)
        case .float(let f): return String(f)
        case .date(let t): return t.iso8601
        case .link(let l): return l.description
        default: return kindName
        }
    }
}
