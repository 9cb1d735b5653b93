import PorterCBSON
import Foundation
import PorterDocument
import PorterModel

/// Decodes one BSON document (already framed) into a ``Document`` with libbson's iterator.
///
/// libbson checks every element's bounds while iterating; this decoder adds what Porter needs:
/// UTF-8 validation of keys and strings, a nesting limit enforced without deep recursion into
/// C, and a field path in every error.
final class BSONValueDecoder {
    /// A decoding failure at a field path.
    struct Failure: Error {
        var path: String
        var message: String
    }

    /// One iterator buffer per nesting level, allocated on first use and reused.
    private var iterators: [UnsafeMutableRawPointer] = []
    private let maxDepth: Int

    init(maxDepth: Int = InterchangeLimits.maxNestingDepth) {
        self.maxDepth = maxDepth
    }

    deinit {
        for iterator in iterators { iterator.deallocate() }
    }

    private func iterator(_ depth: Int) -> UnsafeMutableRawPointer {
        while iterators.count <= depth {
            iterators.append(
                UnsafeMutableRawPointer.allocate(byteCount: max(MemoryLayout<bson_iter_t>.size, 128), alignment: 128))
        }
        return iterators[depth]
    }

    /// Decodes the document in `bytes` (its length prefix included).
    func decode(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Document {
        guard let base = bytes.baseAddress, bytes.count >= 5 else {
            throw Failure(path: "", message: "invalid BSON document: \(bytes.count) bytes cannot hold a document")
        }
        let it = iterator(0)
        guard bson_iter_init_from_data(OpaquePointer(it), base.assumingMemoryBound(to: UInt8.self), bytes.count) else {
            throw Failure(path: "", message: "invalid BSON document: its length prefix or terminator is wrong")
        }
        return try decodeFields(depth: 0, path: "")
    }

    /// Iterates the fields at `depth` (its iterator already initialized).
    private func decodeFields(depth: Int, path: String) throws(Failure) -> Document {
        var fields: [(key: String, value: DocumentValue)] = []
        try iterate(depth: depth, path: path, keys: true) { key, value in fields.append((key, value)) }
        return Document(fields)
    }

    /// The elements of an array at `depth` (its keys, `0`, `1`, …, are checked but not kept).
    private func decodeArray(depth: Int, path: String) throws(Failure) -> [DocumentValue] {
        var elements: [DocumentValue] = []
        try iterate(depth: depth, path: path, keys: false) { _, value in elements.append(value) }
        return elements
    }

    /// Calls `body` with each key (when `keys`, else "") and value at `depth`.
    @inline(__always)
    private func iterate(depth: Int, path: String, keys: Bool, _ body: (String, DocumentValue) -> Void) throws(Failure)
    {
        let raw = iterator(depth)
        let it = OpaquePointer(raw)
        while bson_iter_next(it) {
            let keyLength = Int(bson_iter_key_len(it))
            guard let keyPointer = bson_iter_key(it) else {
                throw Failure(path: path, message: "invalid BSON: unreadable field name")
            }
            guard isASCII(keyPointer, keyLength) || bson_utf8_validate(keyPointer, keyLength, false) else {
                throw Failure(path: path, message: "invalid BSON: a field name is not valid UTF-8")
            }
            let key =
                keys ? String(decoding: UnsafeRawBufferPointer(start: keyPointer, count: keyLength), as: UTF8.self) : ""
            body(
                key, try decodeValue(it, depth: depth, at: FieldPath(parent: path, key: keyPointer, length: keyLength)))
        }
        let offset = raw.assumingMemoryBound(to: bson_iter_t.self).pointee.err_off
        if offset != 0 {
            throw Failure(
                path: path,
                message:
                    "invalid BSON: corrupt element at byte offset \(offset) of the \(depth == 0 ? "document" : "nested document")"
            )
        }
    }

    /// A field's dotted path, joined only when a message or a nested level needs it (joining
    /// for every field would allocate for every array element).
    private struct FieldPath {
        let parent: String
        let key: UnsafePointer<CChar>
        let length: Int

        var text: String {
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: length), as: UTF8.self)
            return parent.isEmpty ? name : parent + "." + name
        }
    }

    /// The value the iterator is on.
    private func decodeValue(_ it: OpaquePointer, depth: Int, at field: FieldPath) throws(Failure) -> DocumentValue {
        var path: String { field.text }
        let type = bson_iter_type(it)
        switch type {
        case BSON_TYPE_DOUBLE: return .double(bson_iter_double(it))
        case BSON_TYPE_UTF8:
            var length: UInt32 = 0
            guard let pointer = bson_iter_utf8(it, &length) else {
                throw Failure(path: path, message: "invalid BSON string")
            }
            // Swift's validation is strict: libbson's accepts overlong NULs and surrogate halves.
            // ASCII (nearly every string) is valid either way and skips the validating decoder.
            let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(length))
            let string =
                isASCII(pointer, Int(length))
                ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
            guard let string else {
                throw Failure(path: path, message: "invalid BSON: string is not valid UTF-8")
            }
            return .string(string)
        case BSON_TYPE_DOCUMENT, BSON_TYPE_ARRAY:
            guard depth + 1 < maxDepth else {
                throw Failure(path: path, message: "documents and arrays are nested deeper than \(maxDepth) levels")
            }
            guard bson_iter_recurse(it, OpaquePointer(iterator(depth + 1))) else {
                throw Failure(
                    path: path,
                    message: "invalid BSON: corrupt nested \(type == BSON_TYPE_ARRAY ? "array" : "document")")
            }
            if type == BSON_TYPE_ARRAY { return .array(try decodeArray(depth: depth + 1, path: path)) }
            let doc = try decodeFields(depth: depth + 1, path: path)
            if let first = doc.fields.first, first.key == "$ref", doc.fields.count >= 2, doc.fields[1].key == "$id",
                case .string(let className) = first.value,
                doc.fields.count == 2 || (doc.fields.count == 3 && doc.fields[2].key == "$db")
            {
                return .dbRef(className: className, id: doc.fields[1].value)
            }
            return .document(doc)
        case BSON_TYPE_BINARY:
            var subtype = BSON_SUBTYPE_BINARY
            var length: UInt32 = 0
            var pointer: UnsafePointer<UInt8>?
            bson_iter_binary(it, &subtype, &length, &pointer)
            let data = pointer.map { Data(bytes: $0, count: Int(length)) } ?? Data()
            return .binary(data, subtype: UInt8(truncatingIfNeeded: subtype.rawValue))
        case BSON_TYPE_OID:
            guard let oid = bson_iter_oid(it) else { throw Failure(path: path, message: "invalid BSON ObjectId") }
            guard let value = withUnsafeBytes(of: oid.pointee.bytes, { ObjectId(rawBytes: $0) }) else {
                throw Failure(path: path, message: "invalid BSON ObjectId")
            }
            return .objectId(value)
        case BSON_TYPE_BOOL: return .bool(bson_iter_bool(it))
        case BSON_TYPE_DATE_TIME:
            return .dateTime(Timestamp(milliseconds: bson_iter_date_time(it)))
        case BSON_TYPE_NULL: return .null
        case BSON_TYPE_INT32: return .int32(bson_iter_int32(it))
        case BSON_TYPE_INT64: return .int64(bson_iter_int64(it))
        case BSON_TYPE_DECIMAL128:
            var dec = bson_decimal128_t()
            guard bson_iter_decimal128(it, &dec) else { throw Failure(path: path, message: "invalid BSON decimal128") }
            return .decimal128(Decimal128(high: dec.high, low: dec.low))
        case BSON_TYPE_UNDEFINED: return .unsupported("undefined")
        // Types Porter does not store are still checked, so corrupt input is reported as such.
        case BSON_TYPE_REGEX:
            var options: UnsafePointer<CChar>?
            let pattern = bson_iter_regex(it, &options)
            try requireUTF8(pattern, nil, path)
            try requireUTF8(options, nil, path)
            return .unsupported("regular expression")
        case BSON_TYPE_DBPOINTER:
            var length: UInt32 = 0
            var collection: UnsafePointer<CChar>?
            var oid: UnsafePointer<bson_oid_t>?
            bson_iter_dbpointer(it, &length, &collection, &oid)
            try requireUTF8(collection, Int(length), path)
            return .unsupported("DBPointer")
        case BSON_TYPE_CODE:
            var length: UInt32 = 0
            try requireUTF8(bson_iter_code(it, &length), Int(length), path)
            return .unsupported("JavaScript code")
        case BSON_TYPE_SYMBOL:
            var length: UInt32 = 0
            try requireUTF8(bson_iter_symbol(it, &length), Int(length), path)
            return .unsupported("symbol")
        case BSON_TYPE_CODEWSCOPE:
            var length: UInt32 = 0
            var scopeLength: UInt32 = 0
            var scope: UnsafePointer<UInt8>?
            try requireUTF8(bson_iter_codewscope(it, &length, &scopeLength, &scope), Int(length), path)
            guard depth + 1 < maxDepth, let scope,
                bson_iter_init_from_data(OpaquePointer(iterator(depth + 1)), scope, Int(scopeLength))
            else {
                throw Failure(path: path, message: "invalid BSON: corrupt scope of JavaScript code")
            }
            _ = try decodeFields(depth: depth + 1, path: path)
            return .unsupported("JavaScript code with scope")
        case BSON_TYPE_TIMESTAMP: return .unsupported("timestamp")
        case BSON_TYPE_MAXKEY: return .unsupported("MaxKey")
        case BSON_TYPE_MINKEY: return .unsupported("MinKey")
        default:
            throw Failure(
                path: path, message: "invalid BSON: unknown element type 0x\(String(type.rawValue, radix: 16))")
        }
    }

    /// Whether every byte is below 0x80: ASCII is valid UTF-8 for libbson and Swift alike, so
    /// libbson's byte-by-byte validator (most of the decoding time of short strings) is skipped.
    @inline(__always)
    private func isASCII(_ text: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let raw = UnsafeRawPointer(text)
        var i = 0
        var bits: UInt64 = 0
        while i + 8 <= length {
            bits |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < length {
            bits |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Throws unless `text` (`length` bytes, or NUL-terminated when nil) is valid UTF-8.
    private func requireUTF8(_ text: UnsafePointer<CChar>?, _ length: Int? = nil, _ path: String) throws(Failure) {
        guard let text else { throw Failure(path: path, message: "invalid BSON: unreadable string") }
        guard bson_utf8_validate(text, length ?? strlen(text), true) else {
            throw Failure(path: path, message: "invalid BSON: string is not valid UTF-8")
        }
    }
}
