import CBSON
import Foundation
import PorterInterchange

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
            iterators.append(UnsafeMutableRawPointer.allocate(byteCount: max(MemoryLayout<bson_iter_t>.size, 128), alignment: 128))
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
        let raw = iterator(depth)
        let it = OpaquePointer(raw)
        var fields: [(key: String, value: DocumentValue)] = []
        while bson_iter_next(it) {
            let keyLength = Int(bson_iter_key_len(it))
            guard let keyPointer = bson_iter_key(it) else {
                throw Failure(path: path, message: "invalid BSON: unreadable field name")
            }
            guard bson_utf8_validate(keyPointer, keyLength, false) else {
                throw Failure(path: path, message: "invalid BSON: a field name is not valid UTF-8")
            }
            let key = String(decoding: UnsafeRawBufferPointer(start: keyPointer, count: keyLength), as: UTF8.self)
            let fieldPath = path.isEmpty ? key : path + "." + key
            fields.append((key, try decodeValue(it, depth: depth, path: fieldPath)))
        }
        let offset = raw.assumingMemoryBound(to: bson_iter_t.self).pointee.err_off
        if offset != 0 {
            throw Failure(path: path, message: "invalid BSON: corrupt element at byte offset \(offset) of the \(depth == 0 ? "document" : "nested document")")
        }
        return Document(fields)
    }

    /// The value the iterator is on.
    private func decodeValue(_ it: OpaquePointer, depth: Int, path: String) throws(Failure) -> DocumentValue {
        let type = bson_iter_type(it)
        switch type {
        case BSON_TYPE_DOUBLE: return .double(bson_iter_double(it))
        case BSON_TYPE_UTF8:
            var length: UInt32 = 0
            guard let pointer = bson_iter_utf8(it, &length) else { throw Failure(path: path, message: "invalid BSON string") }
            // Swift's validation is strict: libbson's accepts overlong NULs and surrogate halves.
            guard let string = String(validating: UnsafeRawBufferPointer(start: pointer, count: Int(length)), as: UTF8.self) else {
                throw Failure(path: path, message: "invalid BSON: string is not valid UTF-8")
            }
            return .string(string)
        case BSON_TYPE_DOCUMENT, BSON_TYPE_ARRAY:
            guard depth + 1 < maxDepth else {
                throw Failure(path: path, message: "documents and arrays are nested deeper than \(maxDepth) levels")
            }
            guard bson_iter_recurse(it, OpaquePointer(iterator(depth + 1))) else {
                throw Failure(path: path, message: "invalid BSON: corrupt nested \(type == BSON_TYPE_ARRAY ? "array" : "document")")
            }
            let doc = try decodeFields(depth: depth + 1, path: path)
            if type == BSON_TYPE_ARRAY { return .array(doc.fields.map(\.value)) }
            if let first = doc.fields.first, first.key == "$ref", doc.fields.count >= 2, doc.fields[1].key == "$id",
               case .string(let className) = first.value,
               doc.fields.count == 2 || (doc.fields.count == 3 && doc.fields[2].key == "$db") {
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
            let ms = bson_iter_date_time(it)
            do { return .dateTime(try Timestamp(milliseconds: ms)) } catch {
                throw Failure(path: path, message: "date \(ms) ms since 1970 is outside the range Porter stores (about ±292,000 years)")
            }
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
                  bson_iter_init_from_data(OpaquePointer(iterator(depth + 1)), scope, Int(scopeLength)) else {
                throw Failure(path: path, message: "invalid BSON: corrupt scope of JavaScript code")
            }
            _ = try decodeFields(depth: depth + 1, path: path)
            return .unsupported("JavaScript code with scope")
        case BSON_TYPE_TIMESTAMP: return .unsupported("timestamp")
        case BSON_TYPE_MAXKEY: return .unsupported("MaxKey")
        case BSON_TYPE_MINKEY: return .unsupported("MinKey")
        default:
            throw Failure(path: path, message: "invalid BSON: unknown element type 0x\(String(type.rawValue, radix: 16))")
        }
    }

    /// Throws unless `text` (`length` bytes, or NUL-terminated when nil) is valid UTF-8.
    private func requireUTF8(_ text: UnsafePointer<CChar>?, _ length: Int? = nil, _ path: String) throws(Failure) {
        guard let text else { throw Failure(path: path, message: "invalid BSON: unreadable string") }
        guard bson_utf8_validate(text, length ?? strlen(text), true) else {
            throw Failure(path: path, message: "invalid BSON: string is not valid UTF-8")
        }
    }
}
