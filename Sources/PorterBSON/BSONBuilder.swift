import PorterCBSON
import Foundation
import PorterModel

/// Builds one BSON document at a time with libbson's append API.
///
/// libbson's `bson_t` is over-aligned and imports into Swift as an opaque pointer: the top-level
/// document comes from `bson_new()`, and nested documents use 128-byte buffers (the size libbson
/// asserts for `bson_t`) allocated once per nesting level and reused for every document.
final class BSONBuilder {
    /// How dates outside 1970–9999 are written (relaxed Extended JSON needs a workaround, see below).
    enum DateStyle {
        case native
        /// libbson 1.x writes years after 9999 as ISO strings in relaxed mode, which the
        /// Extended JSON spec forbids; such dates are built as `{"$date": {"$numberLong": …}}`
        /// documents, which libbson renders with exactly the text the spec requires.
        case relaxedExtendedJSON
    }

    /// One open document or array: its `bson_t`, and for arrays the next index.
    private struct Level {
        var document: OpaquePointer
        var isArray: Bool
        var next: UInt32
    }

    private let top: OpaquePointer
    // The innermost level lives in stored properties (read for every value written); the
    // levels around it wait in `parents`. Unchecked: never accessed reentrantly.
    @exclusivity(unchecked) private var innermost: Level
    @exclusivity(unchecked) private var parents: [Level] = []
    private var buffers: [UnsafeMutableRawPointer] = []
    /// Room for an array index key (`bson_uint32_to_string` needs 16 bytes).
    private let indexKey = UnsafeMutablePointer<CChar>.allocate(capacity: 16)
    let dateStyle: DateStyle
    /// Dates whose digits below the millisecond were floored away.
    @exclusivity(unchecked) var flooredDates = 0

    init(dateStyle: DateStyle = .native) throws {
        guard let top = bson_new() else { throw PorterError(.io, "libbson could not allocate a document") }
        self.top = top
        self.dateStyle = dateStyle
        innermost = Level(document: top, isArray: false, next: 0)
    }

    deinit {
        bson_destroy(top)
        for buffer in buffers { buffer.deallocate() }
        indexKey.deallocate()
    }

    /// The document being built (the innermost open level).
    var current: OpaquePointer { innermost.document }

    /// Clears the top-level document for the next one (keeps its buffer).
    func reset() {
        bson_reinit(top)
        parents.removeAll(keepingCapacity: true)
        innermost = Level(document: top, isArray: false, next: 0)
    }

    /// The finished top-level document's bytes, valid until the next change.
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard let data = bson_get_data(top) else { throw PorterError(.io, "libbson returned no document data") }
        let length = Int(UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24)
        return try body(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The top-level document as libbson's `bson_t`, for the Extended JSON conversion.
    var document: OpaquePointer { top }

    /// Calls `body` with the C key: the field name, or the next index inside an array.
    @inline(__always)
    func withKey<T>(_ key: String?, _ body: (UnsafePointer<CChar>, Int32) throws -> T) throws -> T {
        guard let key, !innermost.isArray else {
            let index = innermost.next
            innermost.next += 1
            var keyPointer: UnsafePointer<CChar>?
            // Returns a pointer into libbson's table of small indexes, or into `indexKey`.
            let length = bson_uint32_to_string(index, &keyPointer, indexKey, 16)
            return try body(keyPointer ?? UnsafePointer(indexKey), Int32(length))
        }
        let length = key.utf8.count
        // `withCString` hands out a native string's own NUL-terminated storage without copying.
        return try key.withCString { pointer in
            if strlen(pointer) != length {
                throw PorterError(
                    .invalidValue,
                    "field name '\(key.replacingOccurrences(of: "\0", with: "\\0"))' contains NUL, which BSON cannot hold"
                )
            }
            return try body(pointer, Int32(length))
        }
    }

    private func check(_ ok: Bool, _ key: String?) throws {
        guard ok else {
            throw PorterError(.invalidValue, "the document is too large for BSON (at field '\(key ?? "?")')")
        }
    }

    /// Starts a nested document or array.
    func open(_ key: String?, array: Bool) throws {
        let depth = parents.count + 1
        if buffers.count < depth {
            buffers.append(UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128))
        }
        let child = OpaquePointer(buffers[depth - 1])
        let parent = current
        let ok = try withKey(key) { k, n in
            array ? bson_append_array_begin(parent, k, n, child) : bson_append_document_begin(parent, k, n, child)
        }
        try check(ok, key)
        parents.append(innermost)
        innermost = Level(document: child, isArray: array, next: 0)
    }

    /// Ends the innermost nested document or array.
    func close() throws {
        guard let parent = parents.popLast() else { return }
        let child = innermost
        innermost = parent
        let ok =
            child.isArray
            ? bson_append_array_end(current, child.document) : bson_append_document_end(current, child.document)
        try check(ok, nil)
    }
}
