import Foundation
import PorterModel
import Testing
@testable import PorterRealmFile

/// Leaf encodings no SDK-made fixture holds, built node by node.
@Suite("Leaf encodings built by hand")
struct LeafTests {
    @Test func enumOptimisedStrings() throws {
        // An enum string column: the leaf holds indexes into the sorted keys leaf (Spec slot 4).
        let b = NodeBuilder()
        // Short strings, width 8: bytes, zero padding, last byte = 7 - length.
        func slot(_ s: String) -> [UInt8] {
            let u = Array(s.utf8); return u + Array(repeating: 0, count: 7 - u.count) + [UInt8(7 - u.count)]
        }
        let keys = b.node(
            slot("apple") + slot("pear") + Array(repeating: 0, count: 7) + [8], count: 3, widthIndex: 4, widthType: 1)
        let indexes = b.node([0x12, 0x01], count: 3, widthIndex: 3, widthType: 0)  // 4-bit values 2, 1, 1
        try b.withMem { mem in
            let leaf = try Leaf(
                mem, node: try mem.node(indexes),
                spec: ValueSpec(type: ColumnInfo.Kind.string, nullable: true, target: nil, enumKeysRef: keys),
                collectionRefs: false)
            #expect(try (0..<leaf.count).map { try leaf.scalar($0, mem) } == [.null, .string("pear"), .string("pear")])
            #expect(throws: RealmFault.self) { try leaf.scalar(3, mem) }
        }
    }

    @Test func nullSentinelsAndBitWidths() throws {
        let b = NodeBuilder()
        let ints = b.ints([-7, 5, -7, .max])  // element 0 is the null sentinel
        let bools = b.node([0b1100_0100], count: 4, widthIndex: 2, widthType: 0)  // 2-bit: 0, 1, 0, 3
        try b.withMem { mem in
            let i = try Leaf(
                mem, node: try mem.node(ints), spec: ValueSpec(type: ColumnInfo.Kind.int, nullable: true, target: nil),
                collectionRefs: false)
            #expect(try (0..<i.count).map { try i.scalar($0, mem) } == [.int(5), .null, .int(.max)])
            let l = try Leaf(
                mem, node: try mem.node(bools),
                spec: ValueSpec(type: ColumnInfo.Kind.bool, nullable: true, target: nil), collectionRefs: false)
            #expect(
                try (0..<l.count).map { try l.scalar($0, mem) } == [.bool(false), .bool(true), .bool(false), .null])
        }
    }

    @Test func zeroWidthDecimals() throws {
        let b = NodeBuilder()
        let nulls = b.node([], count: 2, widthIndex: 0, widthType: 1)
        let zeros = b.node([], count: 2, widthIndex: 0, widthType: 1, context: true)
        try b.withMem { mem in
            let spec = ValueSpec(type: ColumnInfo.Kind.decimal, nullable: true, target: nil)
            let n = try Leaf(mem, node: try mem.node(nulls), spec: spec, collectionRefs: false)
            let z = try Leaf(mem, node: try mem.node(zeros), spec: spec, collectionRefs: false)
            #expect(try n.scalar(1, mem) == .null)
            #expect(try z.scalar(1, mem) == .decimal128(try Decimal128(string: "0")))
        }
    }

    @Test func decimalWidening() throws {
        // BID32 1.5 = coefficient 15, exponent -1; BID64 -1234567890.123456; large-coefficient forms.
        #expect(Decimal128.widening(bid32: UInt32(101 - 1) << 23 | 15) == (try Decimal128(string: "1.5")))
        #expect(
            Decimal128.widening(bid64: 1 << 63 | UInt64(398 - 6) << 53 | 1_234_567_890_123_456)
                == (try Decimal128(string: "-1234567890.123456")))
        #expect(
            Decimal128.widening(bid32: 0b11 << 29 | UInt32(101) << 21 | 0x0F_4240 & 0x1F_FFFF)
                == (try Decimal128(string: "9388608")))  // 0x800000 + 1,000,000
        #expect(Decimal128.widening(bid64: 0x7800_0000_0000_0000).description == "Infinity")
        #expect(Decimal128.widening(bid32: 0xF800_0000).description == "-Infinity")
        #expect(Decimal128.widening(bid32: 0x7C00_0000).description == "NaN")
    }

    @Test("A whole column stored at once holds what value-by-value reads convert to; a row past the leaf is an error")
    func columnsStoredAtOnce() throws {
        let b = NodeBuilder()
        let ints = b.ints([-7, 5, -7, .max])  // nullable: element 0 is the null sentinel
        let plainInts = b.ints([3, -1, 0])
        let bools = b.node([0b1100_0100], count: 4, widthIndex: 2, widthType: 0)
        let strings = b.shortStrings(["a", nil, "pear", ""])
        let decimals = b.node([], count: 2, widthIndex: 0, widthType: 1)
        try b.withMem { mem in
            func leaf(_ ref: Int64, _ kind: Int, nullable: Bool = true) throws -> Leaf {
                try Leaf(
                    mem, node: try mem.node(ref), spec: ValueSpec(type: kind, nullable: nullable, target: nil),
                    collectionRefs: false)
            }
            let leaves = [
                try leaf(ints, ColumnInfo.Kind.int), try leaf(plainInts, ColumnInfo.Kind.int, nullable: false),
                try leaf(bools, ColumnInfo.Kind.bool), try leaf(strings, ColumnInfo.Kind.string),
            ]
            for l in leaves {
                // Every other row, into every other slot after the first: the rest stay `.null`.
                let rows = stride(from: 0, to: l.count, by: 2).map { (row: $0, key: Int64($0)) }
                var out = [Value](repeating: .null, count: rows.count * 2 + 1)
                let stored = try out.withUnsafeMutableBufferPointer {
                    try l.storeScalars(rows, mem, into: $0, start: 1, stride: 2)
                }
                #expect(stored)
                let expected = try rows.map { RealmValues.scalarValue(try l.scalar($0.row, mem)) }
                #expect(stride(from: 1, to: out.count, by: 2).map { out[$0] } == expected, "\(l)")
                #expect(stride(from: 0, to: out.count, by: 2).allSatisfy { out[$0] == .null })
                #expect(throws: RealmFault.self) {
                    _ = try out.withUnsafeMutableBufferPointer {
                        try l.storeScalars(
                            [(row: 0, key: 0), (row: l.count, key: 9)], mem, into: $0, start: 0, stride: 1)
                    }
                }
            }
            // Decimals are read value by value.
            var out: [Value] = [.null, .null]
            let stored = try out.withUnsafeMutableBufferPointer {
                try leaf(decimals, ColumnInfo.Kind.decimal).storeScalars(
                    [(row: 0, key: 0)], mem, into: $0, start: 0, stride: 1)
            }
            #expect(!stored)
        }
    }
}
