import Foundation
import PorterModel

/// Strict checks of stored bytes that the readers decode leniently: every `mixed` blob (tag,
/// exact payload length, nested collections walked to the end), UTF-8 text and map keys.
/// Used by ``Database/checkConsistency()``; each returns what is wrong, or nil when sound.
enum StoredValueCheck {
    typealias Tag = StorageCodec.MixedTag

    /// What is wrong with the blob of a `mixed` column (its first byte is the tag), or nil.
    /// `legacyDates`: a file of format 1, whose dates are 8 bytes of microseconds.
    static func mixedBlobProblem(_ bytes: UnsafeRawBufferPointer, legacyDates: Bool = false) -> String? {
        guard let first = bytes.first else { return "an empty blob (no type tag)" }
        guard let tag = Tag(rawValue: first), first <= StorageCodec.lastColumnTag else {
            return "unknown type tag \(first)"
        }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[1...])
        if tag == .list || tag == .map {
            var reader = Reader(bytes: payload)
            if let problem = reader.collection(tag, depth: 1) { return problem }
            let left = payload.count - reader.offset
            return left == 0 ? nil : "\(left) bytes after the nested collection"
        }
        if legacyDates, tag == .date, payload.count == 8 { return nil }
        return payloadProblem(tag, payload)
    }

    /// What is wrong with the payload of a scalar or link of `tag`, or nil.
    static func payloadProblem(_ tag: Tag, _ payload: UnsafeRawBufferPointer) -> String? {
        func length(_ n: Int, _ what: String) -> String? {
            payload.count == n ? nil : "a truncated or overlong \(what): \(payload.count) bytes, expected \(n)"
        }
        switch tag {
        case .bool:
            if let problem = length(1, "bool") { return problem }
            return payload[0] <= 1 ? nil : "a bool of \(payload[0])"
        case .float: return length(4, "float")
        case .doubleBits, .int: return length(8, tag == .int ? "int" : "double")
        case .decimal128: return length(16, "decimal128")
        case .uuid: return length(16, "uuid")
        case .objectId: return length(12, "objectId")
        case .date:
            if let problem = length(12, "date") { return problem }
            return StorageCodec.timestamp(Array(payload)) == nil ? "a date with out-of-range nanoseconds" : nil
        case .data:
            return payload.count > Database.maxBinarySize ? "data of \(payload.count) bytes over the 16 MB limit" : nil
        case .string: return textProblem(payload)
        case .null: return payload.isEmpty ? nil : "a null with \(payload.count) bytes of payload"
        case .link:
            guard payload.count > 8 else { return "a truncated link: \(payload.count) bytes" }
            let name = UnsafeRawBufferPointer(rebasing: payload[8...])
            return isValidUTF8(name) ? nil : "a link whose class name is not UTF-8"
        case .list, .map: return "a collection tag where a scalar belongs"
        }
    }

    /// What is wrong with the bytes of a string value (invalid UTF-8, over 16 MB), or nil.
    static func textProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.count > Database.maxBinarySize { return "a string of \(bytes.count) bytes over the 16 MB limit" }
        return isValidUTF8(bytes) ? nil : "a string that is not valid UTF-8"
    }

    /// What is wrong with a dictionary key (as Realm refuses on insert), or nil.
    static func mapKeyProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard isValidUTF8(bytes) else { return "a key that is not valid UTF-8" }
        if bytes.first == UInt8(ascii: "$") { return "a key starting with '$'" }
        if bytes.contains(UInt8(ascii: ".")) { return "a key containing '.'" }
        if bytes.contains(0) { return "a key containing a NUL character" }
        return nil
    }

    /// Whether `bytes` is well-formed UTF-8 (ASCII fast path; no overlongs or surrogates).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let need: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard i + need < n else { return false }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k <= need {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += need + 1
        }
        return true
    }

    /// A strict walk over a nested collection payload (see ``NestedMixedCodec``).
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func take(_ n: Int) -> UnsafeRawBufferPointer? {
            guard n >= 0, bytes.count - offset >= n else { return nil }
            defer { offset += n }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
        }

        mutating func count() -> Int? {
            take(4).map { Int(readBigEndian($0)) }
        }

        /// nil when sound, else the problem.
        mutating func collection(_ tag: Tag, depth: Int) -> String? {
            guard depth <= NestedMixedCodec.maxDepth else {
                return "nested collections deeper than \(NestedMixedCodec.maxDepth)"
            }
            guard let n = count() else { return "a nested collection cut short (no element count)" }
            var previousKey: [UInt8]?
            for index in 0..<n {
                if tag == .map {
                    guard let length = count(), let key = take(length) else {
                        return "a nested dictionary cut short at entry \(index)"
                    }
                    if let problem = StoredValueCheck.mapKeyProblem(key) { return "nested dictionary: \(problem)" }
                    let keyBytes = Array(key)
                    if let previousKey, !previousKey.lexicographicallyPrecedes(keyBytes) {
                        let text = String(decoding: keyBytes, as: UTF8.self)
                        return "nested dictionary keys out of order or repeated ('\(text)')"
                    }
                    previousKey = keyBytes
                }
                if let problem = element(depth: depth) {
                    return "\(tag == .map ? "entry" : "element") \(index): \(problem)"
                }
            }
            return nil
        }

        mutating func element(depth: Int) -> String? {
            guard let tagBytes = take(1) else { return "cut short before its type tag" }
            guard let tag = Tag(rawValue: tagBytes[0]) else { return "unknown type tag \(tagBytes[0])" }
            guard let length = count(), let payload = take(length) else { return "cut short inside its value" }
            guard tag == .list || tag == .map else { return StoredValueCheck.payloadProblem(tag, payload) }
            var inner = Reader(bytes: payload)
            if let problem = inner.collection(tag, depth: depth + 1) { return problem }
            let left = payload.count - inner.offset
            return left == 0 ? nil : "\(left) bytes after a nested collection"
        }
    }
}
