import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// CSV (RFC 4180, UTF-8, a header line), with mongoexport's and mongoimport's conventions.
///
/// Export: one row per object, one column per property (an embedded object's properties as
/// dotted columns `address.city`), or the columns `--fields` names. Cells: numbers as shortest
/// round-trip text, `NaN`/`Infinity`/`-Infinity`, booleans `true`/`false`, dates ISO 8601 UTC
/// (nanoseconds kept), data base64, objectId hex, uuid canonical, decimal128 its canonical string,
/// a link the target's primary key (or `_key`); lists, sets, dictionaries and embedded objects in
/// collections as JSON text; a `mixed` value as relaxed Extended JSON text (so its type survives).
/// Null is an empty cell; an empty string is `""` (quoted), so the two stay apart.
///
/// Import reads the same, typed by the schema: the header names the columns (a dotted column fills
/// an embedded object), an empty unquoted cell is null.
package struct CSVFormat: ClassOutputFormat, DocumentInputFormat {
    /// `--fields`: the columns to export (dotted paths through embedded objects); empty: all.
    package var fields: [String]

    /// Whether `fields` may go through links to top-level objects (the export projects the
    /// documents then: `owner.name` is a nested document the column picks its value from).
    package var followsLinks: Bool

    /// Creates the format; `fields` as `--fields` gives them.
    package init(fields: [String] = [], followsLinks: Bool = false) {
        self.fields = fields
        self.followsLinks = followsLinks
    }

    package var name: String { "csv" }
    package var fileExtension: String { "csv" }
    package var names: [String] { ["csv"] }
    package var fileExtensions: [String] { ["csv"] }

    /// CSV has no signature: it is read when named (extension or `--format csv`), never guessed.
    package func recognizes(prefix: [UInt8]) -> Bool { false }

    package func makeEncoder(output: ByteOutput, options: ExportOptions) throws -> DocumentEncoder {
        throw PorterError(.usage, "CSV needs the exported class (its header line comes from the schema)")
    }

    package func makeEncoder(output: ByteOutput, options: ExportOptions, cls: ObjectSchema, schema: Schema) throws
        -> DocumentEncoder
    {
        try CSVEncoder(
            output: output,
            columns: try CSVColumns.columns(of: cls, schema: schema, fields: fields, followsLinks: followsLinks))
    }

    package func makeDecoder(input: ByteInput, context: DecoderContext) throws -> DocumentDecoder {
        guard let className = context.className, let cls = context.schema[className], !cls.isEmbedded else {
            throw PorterError(.usage, "a CSV file holds one class: name it with --class (or name the file <Class>.csv)")
        }
        return try CSVDecoder(input: input, cls: cls, schema: context.schema)
    }
}

/// The columns of a class's CSV file.
enum CSVColumns {
    /// Every property (embedded objects as dotted columns), or the checked `fields`.
    static func columns(of cls: ObjectSchema, schema: Schema, fields: [String], followsLinks: Bool = false) throws
        -> [[String]]
    {
        if !fields.isEmpty {
            return try fields.map { field in
                let path = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                try check(path, in: cls, schema: schema, field: field, followsLinks: followsLinks)
                return path
            }
        }
        var out: [[String]] = cls.primaryKey == nil ? [["_key"]] : []
        func add(_ cls: ObjectSchema, _ prefix: [String], depth: Int) {
            for property in cls.persistedProperties {
                if property.collection == .none, property.type == .object, depth < 8,
                    let target = property.objectType.flatMap({ schema[$0] }), target.isEmbedded
                {
                    add(target, prefix + [property.name], depth: depth + 1)
                } else {
                    out.append(prefix + [property.name])
                }
            }
        }
        add(cls, [], depth: 0)
        return out
    }

    /// A `--fields` path names a property, through embedded objects only.
    static func check(_ path: [String], in cls: ObjectSchema, schema: Schema, field: String, followsLinks: Bool = false)
        throws
    {
        if path == ["_key"] && cls.primaryKey == nil { return }
        var current = cls
        for (i, name) in path.enumerated() {
            guard let property = current.property(named: name), !property.isComputed else {
                throw PorterError(.usage, "--fields: unknown property '\(current.name).\(name)' in '\(field)'")
            }
            guard i < path.count - 1 else { return }
            guard property.collection == .none, property.type == .object,
                let target = property.objectType.flatMap({ schema[$0] })
            else {
                throw PorterError(
                    .usage,
                    "--fields: '\(field)': \(current.name).\(name) is not an object, so it has no '\(path[i + 1])'")
            }
            guard target.isEmbedded || followsLinks else {
                throw PorterError(
                    .usage,
                    "--fields: '\(field)' goes through the link \(current.name).\(name): CSV columns follow embedded objects only (the link's column holds the target's key)"
                )
            }
            current = target
        }
    }
}

/// Writes one CSV row per document: builds the document as a small tree from the encoder calls,
/// then picks each column's value out of it.
final class CSVEncoder: DocumentEncoder {
    indirect enum Node {
        case scalar(Value, mixed: Bool)
        case document([(String, Node)])
        case array([Node])
    }

    private let output: ByteOutput
    private let columns: [[String]]
    /// Open containers: (key in the parent, fields or elements so far, is an array).
    private var stack: [(key: String?, fields: [(String, Node)], elements: [Node], isArray: Bool)] = []
    private(set) var flooredDates = 0

    init(output: ByteOutput, columns: [[String]]) throws {
        self.output = output
        self.columns = columns
        try output.write(columns.map { CSVText.quoted($0.joined(separator: ".")) }.joined(separator: ",") + "\r\n")
    }

    func beginDocument() throws { stack = [(nil, [], [], false)] }

    func endDocument() throws {
        guard let root = stack.popLast() else { return }
        var line = ""
        for (i, column) in columns.enumerated() {
            if i > 0 { line += "," }
            line += cell(find(column, in: root.fields))
        }
        try output.write(line + "\r\n")
    }

    func openDocument(_ key: String?) throws { stack.append((key, [], [], false)) }
    func openArray(_ key: String?) throws { stack.append((key, [], [], true)) }

    func closeDocument() throws { try close() }
    func closeArray() throws { try close() }

    private func close() throws {
        guard let top = stack.popLast() else { return }
        add(top.key, top.isArray ? .array(top.elements) : .document(top.fields))
    }

    func write(_ key: String?, _ value: Value, mixed: Bool) throws { add(key, .scalar(value, mixed: mixed)) }

    private func add(_ key: String?, _ node: Node) {
        guard !stack.isEmpty else { return }
        if stack[stack.count - 1].isArray {
            stack[stack.count - 1].elements.append(node)
        } else {
            stack[stack.count - 1].fields.append((key ?? "", node))
        }
    }

    func finish() throws { try output.flush() }

    private func find(_ path: [String], in fields: [(String, Node)]) -> Node? {
        guard let first = path.first, let node = fields.first(where: { $0.0 == first })?.1 else { return nil }
        if path.count == 1 { return node }
        guard case .document(let inner) = node else { return nil }
        return find(Array(path.dropFirst()), in: inner)
    }

    /// One cell's text, quoted as RFC 4180 needs.
    private func cell(_ node: Node?) -> String {
        guard let node else { return "" }
        switch node {
        case .scalar(.null, _): return ""
        case .scalar(_, mixed: true): return CSVText.quoted(CSVText.json(node).serialized(pretty: false))
        case .scalar(.string(let s), _): return CSVText.quoted(s)
        case .scalar(let value, _): return CSVText.quoted(CSVText.plain(value))
        default: return CSVText.quoted(CSVText.json(node).serialized(pretty: false))
        }
    }
}

/// Spellings of values in CSV cells and in the JSON text of collection cells.
enum CSVText {
    /// A cell quoted when it holds a comma, quote, CR or LF (or is empty text, which must stay
    /// apart from null).
    static func quoted(_ text: String) -> String {
        guard text.isEmpty || text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A non-null scalar as plain text.
    static func plain(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return special(Double(f)) ?? f.description
        case .double(let d): return special(d) ?? d.description
        case .string(let s): return s
        case .data(let d): return d.base64EncodedString()
        case .date(let t): return t.iso8601
        case .decimal128(let d): return d.description
        case .objectId(let o): return o.stringValue
        case .uuid(let u): return UUIDCodec.string(u)
        default: return ""
        }
    }

    private static func special(_ d: Double) -> String? {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return nil
    }

    /// A node as JSON: typed values in their plain JSON forms, `mixed` values as relaxed Extended JSON.
    static func json(_ node: CSVEncoder.Node) -> JSONValue {
        func wrap(_ key: String, _ inner: JSONValue) -> JSONValue { .object([JSONMember(key, inner)]) }
        switch node {
        case .document(let fields): return .object(fields.map { JSONMember($0.0, json($0.1)) })
        case .array(let elements): return .array(elements.map(json))
        case .scalar(let value, let mixed):
            switch value {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .int(let i): return .number(i)
            case .float(let f):
                if let s = special(Double(f)) { return mixed ? wrap("$numberDouble", .string(s)) : .string(s) }
                return mixed ? .number(Double(f).description) : .number(f)
            case .double(let d):
                if let s = special(d) { return mixed ? wrap("$numberDouble", .string(s)) : .string(s) }
                // A whole double keeps its ".0" so that it reads back as a double, not an int.
                return .number(d.description)
            case .string(let s): return .string(s)
            case .data(let d):
                guard mixed else { return .string(d.base64EncodedString()) }
                return wrap(
                    "$binary",
                    .object([
                        JSONMember("base64", .string(d.base64EncodedString())), JSONMember("subType", .string("00")),
                    ]))
            case .date(let t): return mixed ? wrap("$date", .string(t.iso8601)) : .string(t.iso8601)
            case .decimal128(let d):
                return mixed ? wrap("$numberDecimal", .string(d.description)) : .string(d.description)
            case .objectId(let o): return mixed ? wrap("$oid", .string(o.stringValue)) : .string(o.stringValue)
            case .uuid(let u):
                guard mixed else { return .string(UUIDCodec.string(u)) }
                return wrap(
                    "$binary",
                    .object([
                        JSONMember("base64", .string(Data(UUIDCodec.bytes(u)).base64EncodedString())),
                        JSONMember("subType", .string("04")),
                    ]))
            default: return .null
            }
        }
    }
}
