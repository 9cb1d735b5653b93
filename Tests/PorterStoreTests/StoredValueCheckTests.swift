import PorterModel
import Foundation
import Testing
@testable import PorterStore

/// The strict checks of stored bytes behind `porter check`: UTF-8, map keys, `mixed` blobs.
@Suite struct StoredValueCheckTests {
    private func utf8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { StoredValueCheck.isValidUTF8($0) } }
    private func mixed(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { StoredValueCheck.mixedBlobProblem($0) } }
    private func key(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { StoredValueCheck.mapKeyProblem($0) } }

    @Test func utf8AcceptsWellFormedText() {
        for text in ["", "plain", "é", "€uro", "𝄞 clef", "ʄ", "\u{FFFD}", "\u{10FFFF}"] {
            #expect(utf8(Array(text.utf8)), "\(text)")
        }
    }

    @Test func utf8RefusesMalformedBytes() {
        let bad: [[UInt8]] = [
            [0x80], [0xC3], [0xC3, 0x28], [0xC0, 0x80], [0xC1, 0xBF],  // stray, cut, bad continuation, overlong
            [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // overlong, surrogates
            // Overlong, beyond U+10FFFF, never a lead byte.
            [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
            [0xE2, 0x82], [0xF0, 0x9D, 0x84], [0x61, 0xE2, 0x28, 0xA1],  // cut short, bad third byte
        ]
        for bytes in bad { #expect(!utf8(bytes), "\(bytes)") }
    }

    @Test func mapKeys() {
        #expect(key(Array("name".utf8)) == nil)
        #expect(key(Array("a.b".utf8)) == "a key containing '.'")
        #expect(key(Array("$x".utf8)) == "a key starting with '$'")
        #expect(key([0x61, 0x00]) == "a key containing a NUL character")
        #expect(key([0xFF]) == "a key that is not valid UTF-8")
    }

    @Test func mixedBlobsOfEveryTag() {
        let link: [UInt8] = [9, 0, 0, 0, 0, 0, 0, 0, 1] + Array("Dog".utf8)
        let sound: [[UInt8]] = [
            [1, 0], [1, 1], [2, 0, 0, 0, 0], [3], [3, 1, 2],
            [4] + StorageCodec.dateBytes(Timestamp(seconds: 5, nanoseconds: 6)),
            [5] + [UInt8](repeating: 0, count: 16), [6] + [UInt8](repeating: 1, count: 12),
            [7] + [UInt8](repeating: 2, count: 16), [8] + [UInt8](repeating: 0, count: 8), link,
            NestedMixedCodec.encode(.list([.int(1), .string("a"), .null])),
            NestedMixedCodec.encode(
                .map([
                    "a": .list([.bool(true)]),
                    "b": .objectId(ObjectId(bytes: [UInt8](repeating: 3, count: 12))!),
                ])),
        ]
        for bytes in sound { #expect(mixed(bytes) == nil, "\(bytes)") }
        #expect(mixed([]) == "an empty blob (no type tag)")
        #expect(mixed([0xFF]) == "unknown type tag 255")
        #expect(mixed([12, 0, 0, 0, 0, 0, 0, 0, 1]) == "unknown type tag 12")
        #expect(mixed([1, 7]) == "a bool of 7")
        #expect(mixed([6, 1, 2, 3]) == "a truncated or overlong objectId: 3 bytes, expected 12")
        #expect(mixed([2, 0, 0, 0]) == "a truncated or overlong float: 3 bytes, expected 4")
        #expect(
            mixed([5] + [UInt8](repeating: 0, count: 15))
                == "a truncated or overlong decimal128: 15 bytes, expected 16")
        #expect(mixed([9, 0, 0]) == "a truncated link: 2 bytes")
        // Seconds 0, nanoseconds 2,000,000,000 (sign bit flipped, big-endian).
        #expect(
            mixed([4, 0x80, 0, 0, 0, 0, 0, 0, 0, 0xF7, 0x35, 0x94, 0x00]) == "a date with out-of-range nanoseconds")
    }

    @Test func nestedCollectionsAreWalkedToTheEnd() {
        let list = NestedMixedCodec.encode(.list([.int(1), .int(2)]))
        #expect(mixed(Array(list.dropLast())) != nil)
        #expect(mixed(list + [0]) == "1 bytes after the nested collection")
        // A list claiming two elements holding one.
        #expect(
            mixed([10, 0, 0, 0, 2, 12, 0, 0, 0, 8] + [UInt8](repeating: 0, count: 8))
                == "element 1: cut short before its type tag")
        // An ObjectId of 3 bytes inside.
        #expect(
            mixed([10, 0, 0, 0, 1, 6, 0, 0, 0, 3, 1, 2, 3])
                == "element 0: a truncated or overlong objectId: 3 bytes, expected 12")
        // A dictionary key with '.', and keys out of order.
        #expect(
            mixed([11, 0, 0, 0, 1, 0, 0, 0, 3] + Array("a.b".utf8) + [14, 0, 0, 0, 0])
                == "nested dictionary: a key containing '.'")
        let unordered: [UInt8] = [11, 0, 0, 0, 2, 0, 0, 0, 1, 0x62, 14, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 14, 0, 0, 0, 0]
        #expect(mixed(unordered) == "nested dictionary keys out of order or repeated ('a')")
        // A scalar tag where a collection belongs is refused by the payload check.
        #expect(mixed([10, 0, 0, 0, 1, 13, 0, 0, 0, 1, 0xFF]) == "element 0: a string that is not valid UTF-8")
    }
}
