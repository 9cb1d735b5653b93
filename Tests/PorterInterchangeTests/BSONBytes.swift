import Foundation

/// An independent, hand-written BSON encoder for expected bytes in tests: each element is
/// spelled out (type byte, key, payload) so the tests do not trust the code under test.
struct BSONBytes {
    private var body: [UInt8] = []

    static func document(_ build: (inout BSONBytes) -> Void) -> [UInt8] {
        var doc = BSONBytes()
        build(&doc)
        return doc.finish()
    }

    func finish() -> [UInt8] {
        let length = UInt32(body.count + 5)
        return le(length) + body + [0]
    }

    mutating func appendElement(_ type: UInt8, _ key: String, _ payload: [UInt8]) { element(type, key, payload) }

    private mutating func element(_ type: UInt8, _ key: String, _ payload: [UInt8]) {
        body.append(type)
        body.append(contentsOf: Array(key.utf8) + [0])
        body.append(contentsOf: payload)
    }

    mutating func double(_ key: String, _ value: Double) { element(0x01, key, le(value.bitPattern)) }
    mutating func string(_ key: String, _ value: String) {
        let bytes = Array(value.utf8)
        element(0x02, key, le(UInt32(bytes.count + 1)) + bytes + [0])
    }
    mutating func document(_ key: String, _ build: (inout BSONBytes) -> Void) {
        element(0x03, key, BSONBytes.document(build))
    }
    mutating func array(_ key: String, _ build: (inout BSONBytes) -> Void) {
        element(0x04, key, BSONBytes.document(build))
    }
    mutating func binary(_ key: String, _ subtype: UInt8, _ bytes: [UInt8]) {
        element(0x05, key, le(UInt32(bytes.count)) + [subtype] + bytes)
    }
    mutating func objectId(_ key: String, _ bytes: [UInt8]) { element(0x07, key, bytes) }
    mutating func bool(_ key: String, _ value: Bool) { element(0x08, key, [value ? 1 : 0]) }
    mutating func dateTime(_ key: String, _ ms: Int64) { element(0x09, key, le(UInt64(bitPattern: ms))) }
    mutating func null(_ key: String) { element(0x0A, key, []) }
    mutating func int64(_ key: String, _ value: Int64) { element(0x12, key, le(UInt64(bitPattern: value))) }
    mutating func decimal128(_ key: String, low: UInt64, high: UInt64) { element(0x13, key, le(low) + le(high)) }
}

private func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
private func le(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
