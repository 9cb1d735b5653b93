import PorterDocument
import PorterModel

extension JSONValue {
    /// This parsed JSON value as the raw tree Extended JSON decoding takes: how the formats that
    /// hold JSON text in a cell (CSV, the relational SQLite export) read it back.
    var documentTree: DocumentValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text):
            if let i = Int64(text) { return .int64(i) }
            return .double(Double(text) ?? .nan)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.documentTree))
        case .object(let members):
            return .document(Document(members.map { (key: $0.key, value: $0.value.documentTree) }))
        }
    }
}
