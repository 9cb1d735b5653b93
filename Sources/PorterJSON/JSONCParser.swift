import PorterCJSONC
import Foundation
import PorterDocument
import PorterModel

/// Parses one JSON document with json-c's tokener (strict mode, UTF-8 validated, depth-limited)
/// and converts it to a ``Document``, reading Extended JSON wrappers on the way.
final class JSONCParser {
    /// A parse failure at a field path.
    struct Failure: Error {
        var path: String
        var message: String
    }

    private let tokener: UnsafeMutablePointer<json_tokener>
    private let maxDepth: Int
    /// Whether ``PlainJSONParser`` is tried first (tests turn it off to compare with json-c).
    let nativeFastPath: Bool
    private var sawDollarKey = false
    private var members = 0

    init(maxDepth: Int, nativeFastPath: Bool = true) throws {
        // json-c's default depth is 32; documents with embedded objects nest deeper, hostile
        // input much deeper: the scanner rejects it first, this is the second line of defence.
        guard let tokener = json_tokener_new_ex(Int32(maxDepth + 1)) else {
            throw PorterError(.io, "json-c could not allocate a tokener")
        }
        json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8))
        self.tokener = tokener
        self.maxDepth = maxDepth
        self.nativeFastPath = nativeFastPath
    }

    deinit { json_tokener_free(tokener) }

    /// Parses `bytes` (one complete JSON object) into a document; `expectedMembers` is the
    /// scanner's count of object members, so keys json-c merged (duplicates) are noticed.
    func parse(_ bytes: UnsafeRawBufferPointer, expectedMembers: Int) throws(Failure) -> Document {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw Failure(path: "", message: "empty document") }
        // Plain RFC 8259 text json-c reads the same way is parsed natively; json-c gets the rest.
        if nativeFastPath, let fast = PlainJSONParser.parse(bytes, maxDepth: maxDepth), fast.members == expectedMembers
        {
            return try finish(fast.value, sawDollarKey: fast.sawDollarKey)
        }
        json_tokener_reset(tokener)
        let parsed = json_tokener_parse_ex(tokener, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        guard let object = parsed else {
            let error = json_tokener_get_error(tokener)
            let reason =
                error == json_tokener_continue
                ? "unexpected end of document" : String(cString: json_tokener_error_desc(error))
            throw Failure(
                path: "",
                message:
                    "invalid JSON: \(reason) (at byte offset \(json_tokener_get_parse_end(tokener)) of the document)")
        }
        defer { json_object_put(object) }
        guard json_object_get_type(object) == json_type_object else {
            throw Failure(path: "", message: "expected a JSON object")
        }
        sawDollarKey = false
        members = 0
        let value = try convert(object, path: "")
        if members != expectedMembers {
            throw Failure(path: "", message: "duplicate field name\(duplicateDescription(bytes))")
        }
        return try finish(value, sawDollarKey: sawDollarKey)
    }

    /// Reads Extended JSON wrappers (when a key starts with `$`) and returns the document.
    func finish(_ parsed: DocumentValue, sawDollarKey: Bool) throws(Failure) -> Document {
        var value = parsed
        if sawDollarKey {
            do throws(ExtendedJSON.Failure) {
                value = try ExtendedJSON.decode(value)
            } catch {
                throw Failure(path: error.path.joined(separator: "."), message: error.message)
            }
        }
        guard case .document(let doc) = value else { throw Failure(path: "", message: "expected a JSON object") }
        return doc
    }

    /// json-c's tree as a raw ``DocumentValue`` (objects as documents, numbers as int64/double).
    private func convert(_ object: OpaquePointer?, path: String) throws(Failure) -> DocumentValue {
        guard let object else { return .null }
        switch json_object_get_type(object) {
        case json_type_null: return .null
        case json_type_boolean: return .bool(json_object_get_boolean(object) != 0)
        case json_type_int: return .int64(json_object_get_int64(object))
        case json_type_double: return .double(json_object_get_double(object))
        case json_type_string:
            let length = Int(json_object_get_string_len(object))
            guard let pointer = json_object_get_string(object) else { return .string("") }
            // Strict validation: json-c lets overlong NULs and surrogate halves through.
            guard let string = String(validating: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            else {
                throw Failure(path: path, message: "string is not valid UTF-8")
            }
            return .string(string)
        case json_type_array:
            let count = json_object_array_length(object)
            var elements: [DocumentValue] = []
            elements.reserveCapacity(count)
            for i in 0..<count {
                elements.append(
                    try convert(json_object_array_get_idx(object, i), path: path.isEmpty ? String(i) : "\(path).\(i)"))
            }
            return .array(elements)
        case json_type_object:
            var fields: [(key: String, value: DocumentValue)] = []
            fields.reserveCapacity(Int(json_object_object_length(object)))
            var iterator = json_object_iter_begin(object)
            var endIterator = json_object_iter_end(object)
            while json_object_iter_equal(&iterator, &endIterator) == 0 {
                guard let key = String(validatingCString: json_object_iter_peek_name(&iterator)) else {
                    throw Failure(path: path, message: "field name is not valid UTF-8")
                }
                if ExtendedJSON.mayBeWrapper(key) { sawDollarKey = true }
                members += 1
                let child = json_object_iter_peek_value(&iterator)
                fields.append((key, try convert(child, path: path.isEmpty ? key : "\(path).\(key)")))
                json_object_iter_next(&iterator)
            }
            return .document(Document(fields))
        default:
            throw Failure(path: path, message: "unsupported JSON value")
        }
    }

    /// Names the duplicated key (slow path, only after a mismatch): reparse keeping duplicates.
    private func duplicateDescription(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let tree = try? JSONValue.parse(Array(bytes), maxDepth: InterchangeLimits.maxNestingDepth + 1) else {
            return ""
        }
        func find(_ value: JSONValue, _ path: String) -> String? {
            switch value {
            case .object(let members):
                if let duplicate = value.duplicateKeys.first {
                    return path.isEmpty ? duplicate : path + "." + duplicate
                }
                for member in members {
                    if let found = find(member.value, path.isEmpty ? member.key : path + "." + member.key) {
                        return found
                    }
                }
            case .array(let elements):
                for (i, element) in elements.enumerated() {
                    if let found = find(element, path.isEmpty ? String(i) : path + "." + String(i)) { return found }
                }
            default: break
            }
            return nil
        }
        return find(tree, "").map { " '\($0)': a key may appear only once in an object" } ?? ""
    }
}
