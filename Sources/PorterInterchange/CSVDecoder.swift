import Foundation
import PorterModel
import PorterDocument
import PorterStore

/// Reads a CSV file of one class (see ``CSVFormat``): the header line names the columns, each
/// later record is one document typed by the schema. A document's label is its line number, a
/// problem's path its column, so messages read `FILE:LINE:column: …`.
final class CSVDecoder: DocumentDecoder {
    /// How a column's cells are read.
    private enum Kind {
        /// A scalar property of this type (a link: its target's key type).
        case scalar(PropertyType)
        /// JSON text: a collection, a `mixed` value, or a whole embedded object.
        case json
        /// A name the schema does not have: passed on as text, for the import's own rule
        /// (an unknown field is an error, or skipped with `--ignore-unknown`).
        case unknown
    }

    private let records: CSVRecordReader
    private let columns: [[String]]
    private let kinds: [Kind]
    /// Whether an empty cell of a column is null (optional property) or a missing field.
    private let optional: [Bool]
    var fixtureSchemaVersion: UInt64? { nil }
    /// A CSV file's `_key` column is the objects' keys, as the export wrote them.
    var keepsObjectKeys: Bool { true }

    init(input: ByteInput, cls: ObjectSchema, schema: Schema) throws {
        records = CSVRecordReader(input: input)
        guard let header = try records.next() else {
            columns = []; kinds = []; optional = []
            return
        }
        columns = header.cells.map { $0.text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        var kinds: [Kind] = []
        var optional: [Bool] = []
        var seen = Set<String>()
        for (i, path) in columns.enumerated() {
            let name = header.cells[i].text
            guard seen.insert(name).inserted else {
                throw DocumentInputError(
                    label: String(header.line), path: name, message: "the header names this column twice",
                    recoverable: false)
            }
            if path == ["_key"] && cls.primaryKey == nil {
                kinds.append(.scalar(.int)); optional.append(false)
                continue
            }
            guard let property = Self.property(path, in: cls, schema: schema) else {
                kinds.append(.unknown); optional.append(true)
                continue
            }
            optional.append(property.isOptional || property.collection != .none || property.type == .mixed)
            if property.collection != .none || property.type == .mixed {
                kinds.append(.json)
            } else if property.type == .object, let target = property.objectType.flatMap({ schema[$0] }) {
                kinds.append(target.isEmbedded ? .json : .scalar(target.primaryKeyProperty?.type ?? .int))
            } else {
                kinds.append(.scalar(property.type))
            }
        }
        self.kinds = kinds
        self.optional = optional
    }

    /// The property a dotted column names, through embedded objects.
    private static func property(_ path: [String], in cls: ObjectSchema, schema: Schema) -> Property? {
        var current = cls
        for (i, name) in path.enumerated() {
            guard let property = current.property(named: name), !property.isComputed else { return nil }
            if i == path.count - 1 { return property }
            guard property.collection == .none, property.type == .object,
                let target = property.objectType.flatMap({ schema[$0] }), target.isEmbedded
            else { return nil }
            current = target
        }
        return nil
    }

    func next() throws -> DecodedDocument? {
        guard !columns.isEmpty, let record = try records.next() else { return nil }
        let label = String(record.line)
        guard record.cells.count == columns.count else {
            throw DocumentInputError(
                label: label,
                message:
                    "this record has \(record.cells.count) cell\(record.cells.count == 1 ? "" : "s") but the header names \(columns.count) columns",
                recoverable: true)
        }
        var root = Tree()
        for (i, cell) in record.cells.enumerated() {
            let name = columns[i].joined(separator: ".")
            let value: DocumentValue
            if cell.text.isEmpty && !cell.quoted {
                // Null for an optional property; a required one is left out, so the import's own
                // rule applies (an error naming the field, or its zero value with --fill-missing).
                // An empty dotted cell fills nothing: an embedded object whose cells are all empty
                // is null (absent), not an object of nulls.
                guard optional[i], columns[i].count == 1 else { continue }
                value = .null
            } else {
                do {
                    value = try Self.value(cell.text, kinds[i])
                } catch let message as CSVCellError {
                    throw DocumentInputError(label: label, path: name, message: message.text, recoverable: true)
                }
            }
            root.set(columns[i][...], value)
        }
        return DecodedDocument(className: nil, label: label, document: root.document)
    }

    private struct CSVCellError: Error { var text: String }

    /// A cell's text as the value the import reads by the schema.
    private static func value(_ text: String, _ kind: Kind) throws -> DocumentValue {
        switch kind {
        case .unknown: return .string(text)
        case .json:
            let raw: JSONValue
            do {
                raw = try JSONValue.parse(text)
            } catch let error as PorterError {
                throw CSVCellError(text: "expected JSON text, found '\(csvAbbreviated(text))' (\(error.message))")
            }
            do {
                return try ExtendedJSON.decode(raw.documentTree)
            } catch {
                throw CSVCellError(text: "invalid Extended JSON in '\(csvAbbreviated(text))': \(error.message)")
            }
        case .scalar(let type):
            switch type {
            case .bool:
                if text == "true" { return .bool(true) }
                if text == "false" { return .bool(false) }
                throw CSVCellError(text: "expected true or false, found '\(csvAbbreviated(text))'")
            case .int:
                guard let i = Int64(text) else {
                    throw CSVCellError(text: "expected an integer, found '\(csvAbbreviated(text))'")
                }
                return .int64(i)
            case .float, .double:
                guard let d = ExtendedJSON.parseDoubleText(text) else {
                    throw CSVCellError(text: "expected a number, found '\(csvAbbreviated(text))'")
                }
                return .double(d)
            default:
                // Dates, decimals, ObjectIds, UUIDs, base64 data and strings: the import reads
                // their text forms (and names the field when one does not parse).
                return .string(text)
            }
        }
    }

    /// Fields being filled from dotted columns, in column order.
    private struct Tree {
        var fields: [(key: String, node: Node)] = []
        enum Node {
            case value(DocumentValue)
            case tree([String: Int], [(key: String, value: DocumentValue)])
        }

        mutating func set(_ path: ArraySlice<String>, _ value: DocumentValue) {
            guard let first = path.first else { return }
            if path.count == 1 {
                fields.append((first, .value(value)))
                return
            }
            var inner = Tree()
            if let index = fields.firstIndex(where: { $0.key == first }),
                case .value(.document(let doc)) = fields[index].node
            {
                inner.fields = doc.fields.map { ($0.key, .value($0.value)) }
                inner.set(path.dropFirst(), value)
                fields[index].node = .value(.document(inner.document))
                return
            }
            inner.set(path.dropFirst(), value)
            fields.append((first, .value(.document(inner.document))))
        }

        var document: Document {
            Document(
                fields.map { field -> (key: String, value: DocumentValue) in
                    if case .value(let v) = field.node { return (field.key, v) }
                    return (field.key, .null)
                })
        }
    }
}

/// Splits a byte stream into RFC 4180 records: fields separated by commas, records by CRLF or LF,
/// quoted fields with `""` for a quote (and any comma or line break inside). A UTF-8 byte order
/// mark at the start is skipped; blank lines are skipped.
final class CSVRecordReader {
    struct Cell {
        var text: String
        var quoted: Bool
    }

    private let input: ByteInput
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var count = 0
    private var position = 0
    private var line = 1
    private var started = false

    init(input: ByteInput) { self.input = input }

    private func byte() throws -> UInt8? {
        if position == count {
            count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            position = 0
            if count == 0 { return nil }
        }
        defer { position += 1 }
        return buffer[position]
    }

    private func peekByte() throws -> UInt8? {
        guard let b = try byte() else { return nil }
        position -= 1
        return b
    }

    /// The next record and the line it starts on, or nil at the end.
    func next() throws -> (line: Int, cells: [Cell])? {
        if !started {
            started = true
            if try input.peek(3) == [0xEF, 0xBB, 0xBF] { for _ in 0..<3 { _ = try byte() } }
        }
        while true {
            guard let first = try peekByte() else { return nil }
            // A blank line holds no record.
            if first == 0x0A { _ = try byte(); line += 1; continue }
            if first == 0x0D {
                _ = try byte()
                if try peekByte() == 0x0A { _ = try byte() }
                line += 1
                continue
            }
            break
        }
        let start = line
        var cells: [Cell] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        while true {
            guard let b = try byte() else {
                if inQuotes {
                    throw DocumentInputError(
                        label: String(start), message: "a quoted field is not closed before the end of the file",
                        recoverable: false)
                }
                cells.append(Cell(text: String(decoding: field, as: UTF8.self), quoted: quoted))
                return (start, cells)
            }
            if inQuotes {
                if b == 0x22 {
                    if try peekByte() == 0x22 { _ = try byte(); field.append(0x22) } else { inQuotes = false }
                } else {
                    if b == 0x0A { line += 1 }
                    field.append(b)
                }
                continue
            }
            switch b {
            case 0x22 where field.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            case 0x2C:
                cells.append(Cell(text: String(decoding: field, as: UTF8.self), quoted: quoted))
                field.removeAll(keepingCapacity: true)
                quoted = false
            case 0x0D where try peekByte() == 0x0A:
                continue
            case 0x0A:
                line += 1
                cells.append(Cell(text: String(decoding: field, as: UTF8.self), quoted: quoted))
                return (start, cells)
            default:
                if quoted {
                    throw DocumentInputError(
                        label: String(line),
                        message:
                            "text after the closing quote of a field (a quote inside a quoted field is written \"\")",
                        recoverable: false)
                }
                field.append(b)
            }
        }
    }
}

/// A cell's text cut to 60 characters for messages, control characters escaped (one line).
func csvAbbreviated(_ s: String) -> String {
    var out = ""
    for (count, scalar) in s.unicodeScalars.enumerated() {
        if count == 60 { return out + "…" }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
