import Foundation
import PorterModel

/// How a `mixed` cell holds a nested list or dictionary (file format 2): one blob,
/// `tag` + `payload`, where the tag is ``StorageCodec/MixedTag/list`` or ``StorageCodec/MixedTag/map``.
///
/// - list payload: element count (4 bytes), then each element;
/// - map payload: entry count (4 bytes), then per entry the key's UTF-8 length (4 bytes), the key
///   and the element, keys in UTF-8 byte order (so equal dictionaries are equal blobs);
/// - element: its ``StorageCodec/MixedTag`` (int, string and null have tags of their own here),
///   its payload length (4 bytes) and its payload, the same bytes a `mixed` column stores after
///   the tag (an int is 8 bytes, a double always its 8-byte bit pattern).
///
/// Counts and lengths are big-endian. Why one blob: a nested value is read and written whole, as
/// Realm's `AnyRealmValue` is, and a link inside keeps one exact byte pattern
/// (``linkPattern(_:)``) that SQL's `instr` finds when its target is deleted or renamed.
package enum NestedMixedCodec {
    typealias Tag = StorageCodec.MixedTag

    /// How deep collections may nest inside one `mixed` value (the importers' document limit is
    /// 100 levels too); it bounds every recursion over stored bytes, however damaged.
    static let maxDepth = 100

    /// The blob for a `.list` or `.map` value.
    static func encode(_ value: Value) -> [UInt8] {
        var out: [UInt8] = []
        switch value {
        case .list(let items):
            out.append(Tag.list.rawValue)
            appendListPayload(items, to: &out)
        case .map(let entries):
            out.append(Tag.map.rawValue)
            appendMapPayload(entries, to: &out)
        default:
            break
        }
        return out
    }

    /// The bytes a link has inside a nested collection.
    static func linkPattern(_ link: ObjectLink) -> [UInt8] {
        var out: [UInt8] = []
        appendElement(.link(link), to: &out)
        return out
    }

    /// Decodes a blob ``encode(_:)`` wrote.
    /// - Throws: ``PorterError/Code/notADatabase`` for damaged bytes.
    static func decode(_ bytes: [UInt8]) throws -> Value {
        var reader = Reader(bytes: bytes[...])
        guard let first = reader.byte(), let tag = Tag(rawValue: first) else { throw corrupt() }
        let value = try reader.collection(tag, depth: 1)
        guard reader.bytes.isEmpty else { throw corrupt() }
        return value
    }

    /// `value` with every link replaced by what `transform` returns for it; nil removes the list
    /// element or dictionary entry. Returns nil when nothing changed.
    static func rewritingLinks(_ value: Value, _ transform: (ObjectLink) -> Value?) -> Value? {
        switch value {
        case .list(let items):
            var changed = false
            var out: [Value] = []
            for item in items {
                if case .link(let link) = item {
                    changed = true
                    if let replacement = transform(link) { out.append(replacement) }
                } else if let nested = rewritingLinks(item, transform) {
                    changed = true
                    out.append(nested)
                } else {
                    out.append(item)
                }
            }
            return changed ? .list(out) : nil
        case .map(let entries):
            var changed = false
            var out: [String: Value] = [:]
            for (key, item) in entries {
                if case .link(let link) = item {
                    changed = true
                    out[key] = transform(link)
                } else if let nested = rewritingLinks(item, transform) {
                    changed = true
                    out[key] = nested
                } else {
                    out[key] = item
                }
            }
            return changed ? .map(out) : nil
        default:
            return nil
        }
    }

    /// Every link inside a nested value, depth first.
    package static func links(in value: Value) -> [ObjectLink] {
        switch value {
        case .link(let link): return [link]
        case .list(let items): return items.flatMap(links(in:))
        case .map(let entries): return entries.keys.sorted().flatMap { links(in: entries[$0]!) }
        default: return []
        }
    }

    private static func appendListPayload(_ items: [Value], to out: inout [UInt8]) {
        out += bigEndianBytes(UInt64(items.count), count: 4)
        for item in items { appendElement(item, to: &out) }
    }

    private static func appendMapPayload(_ entries: [String: Value], to out: inout [UInt8]) {
        out += bigEndianBytes(UInt64(entries.count), count: 4)
        for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            out += bigEndianBytes(UInt64(key.utf8.count), count: 4)
            out += Array(key.utf8)
            appendElement(entries[key]!, to: &out)
        }
    }

    private static func appendElement(_ value: Value, to out: inout [UInt8]) {
        let tag: Tag
        var payload: [UInt8] = []
        switch value {
        case .null: tag = .null
        case .bool(let b): tag = .bool; payload = [b ? 1 : 0]
        case .int(let i): tag = .int; payload = bigEndianBytes(UInt64(bitPattern: i), count: 8)
        case .float(let f): tag = .float; payload = bigEndianBytes(UInt64(f.bitPattern), count: 4)
        case .double(let d): tag = .doubleBits; payload = bigEndianBytes(d.bitPattern, count: 8)
        case .string(let s): tag = .string; payload = Array(s.utf8)
        case .data(let d): tag = .data; payload = Array(d)
        case .date(let t): tag = .date; payload = StorageCodec.dateBytes(t)
        case .decimal128(let d): tag = .decimal128; payload = d.bsonBytes
        case .objectId(let o): tag = .objectId; payload = o.bytes
        case .uuid(let u): tag = .uuid; payload = uuidBytes(u)
        case .link(let link):
            tag = .link
            payload = bigEndianBytes(UInt64(bitPattern: link.key.rawValue), count: 8) + Array(link.className.utf8)
        case .list(let items): tag = .list; appendListPayload(items, to: &payload)
        case .map(let entries): tag = .map; appendMapPayload(entries, to: &payload)
        case .set, .object: tag = .null  // Never validated into a mixed value.
        }
        out.append(tag.rawValue)
        out += bigEndianBytes(UInt64(payload.count), count: 4)
        out += payload
    }

    private static func corrupt() -> PorterError {
        PorterError(.notADatabase, "corrupt nested mixed collection in database")
    }

    /// A cursor over an encoded collection.
    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() -> UInt8? { bytes.popFirst() }

        mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, bytes.count >= n else { throw corrupt() }
            let out = bytes.prefix(n)
            bytes = bytes.dropFirst(n)
            return out
        }

        mutating func count() throws -> Int { Int(readBigEndian(try take(4))) }

        /// A list or map payload after its tag.
        mutating func collection(_ tag: Tag, depth: Int) throws -> Value {
            guard depth <= maxDepth else { throw corrupt() }
            let n = try count()
            switch tag {
            case .list:
                var items: [Value] = []
                for _ in 0..<n { items.append(try element(depth: depth)) }
                return .list(items)
            case .map:
                var entries: [String: Value] = [:]
                for _ in 0..<n {
                    let key = String(decoding: try take(try count()), as: UTF8.self)
                    entries[key] = try element(depth: depth)
                }
                return .map(entries)
            default:
                throw corrupt()
            }
        }

        mutating func element(depth: Int) throws -> Value {
            guard let first = byte(), let tag = Tag(rawValue: first) else { throw corrupt() }
            let payload = try take(try count())
            switch tag {
            case .list, .map:
                var inner = Reader(bytes: payload)
                let value = try inner.collection(tag, depth: depth + 1)
                guard inner.bytes.isEmpty else { throw corrupt() }
                return value
            default:
                return try StorageCodec.decodeTagged(tag, payload)
            }
        }
    }
}
