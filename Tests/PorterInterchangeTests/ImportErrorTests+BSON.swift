import Foundation
import PorterBSON
import PorterInterchange
import PorterJSON
import Testing
import PorterDocument

extension ImportErrorTests {
    static let good = BSONBytes.document { d in
        d.string("_id", "a"); d.int64("age", 1)
    }

    /// A document nested `depth` levels deep under field `x`.
    static func nested(_ depth: Int) -> [UInt8] {
        var inner = BSONBytes.document { _ in }
        for _ in 0..<depth { inner = wrap(inner) }
        return BSONBytes.document { d in
            d.string("_id", "deep"); d.int64("age", 1); d.rawDocument("x", inner)
        }
    }

    private static func wrap(_ doc: [UInt8]) -> [UInt8] {
        BSONBytes.document { d in d.rawDocument("a", doc) }
    }

    static var bsonCases: [RejectedInput] {
        var overLong = good
        overLong[overLong.count - 1] = 0x01
        var badUTF8 = BSONBytes.document { d in
            d.string("_id", "ab"); d.int64("age", 1)
        }
        badUTF8[badUTF8.firstIndex(of: UInt8(ascii: "b"))!] = 0xFF
        var corrupt = BSONBytes.document { d in
            d.string("_id", "abc"); d.int64("age", 1)
        }
        corrupt[11] = 0x7F  // the string's length prefix now points far past the document
        return [
            RejectedInput(
                name: "input.bson", bytes: Array(good.prefix(10)),
                "input.bson:1: truncated BSON document: its length prefix says 29 bytes but only 10 remain"),
            RejectedInput(
                name: "input.bson", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x00],
                "input.bson:1: BSON document length prefix says 4294967295 bytes, over the 64 MB limit: the file is corrupt or not BSON"
            ),
            RejectedInput(
                name: "input.bson", bytes: [0x04, 0x00, 0x00, 0x00, 0x00],
                "input.bson:1: invalid BSON document length 4 (a document takes at least 5 bytes)"),
            RejectedInput(
                name: "input.bson", bytes: overLong,
                "input.bson:1: invalid BSON document: it does not end with a 0x00 byte (over-long or corrupt)"),
            RejectedInput(
                name: "input.bson", bytes: good + [0x01, 0x02],
                "input.bson:2: truncated BSON: 2 bytes after the last document cannot hold a document length"),
            RejectedInput(
                name: "input.bson", bytes: badUTF8, "input.bson:1:_id: invalid BSON: string is not valid UTF-8"),
            RejectedInput(
                name: "input.bson", bytes: corrupt,
                "input.bson:1: invalid BSON: corrupt element at byte offset 9 of the document"),
            RejectedInput(
                name: "input.bson",
                bytes: BSONBytes.document { d in
                    d.string("_id", "a"); d.int64("age", 1); d.int64("age", 2)
                },
                "input.bson:1:age: duplicate field 'age'"),
            RejectedInput(
                name: "input.bson",
                bytes: BSONBytes.document { d in
                    d.string("_id", "a"); d.string("age", "1")
                },
                "input.bson:1:age: expected an integer but got a string '1'"),
            RejectedInput(
                name: "input.bson", bytes: nested(150),
                "input.bson:1:x" + String(repeating: ".a", count: 99)
                    + ": documents and arrays are nested deeper than 100 levels"),
            RejectedInput(
                name: "input.bson",
                bytes: good
                    + BSONBytes.document { d in
                        d.string("_id", "b"); d.int64("age", 1); d.document("x") { $0.int64("$y", 1) }
                    } + good,
                "input.bson:2:x.$y: invalid map key '$y': keys must not start with '$'",
                "input.bson:3:_id: duplicate primary key value 'a': an object with it already exists"),
        ]
    }

    @Test(arguments: bsonCases)
    func rejectedBSONWithExactLineAndNothingWritten(_ input: RejectedInput) throws {
        try rejectedWithExactLineAndNothingWritten(input)
    }

    @Test func lengthPrefixClaimingGigabytesOnAPipeDoesNotAllocateIt() throws {
        // No size is known for a pipe: the reader must grow only as bytes arrive.
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        writer.write(Data([0x00, 0x00, 0x00, 0x7F, 0x02]) + Data(repeating: 0x41, count: 1000))
        try writer.close()
        let input = ByteInput(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "pipe")
        let decoder = BSONDocumentDecoder(input: input)
        #expect(throws: DocumentInputError.self) { _ = try decoder.next() }
    }
}

extension BSONBytes {
    /// Appends an already encoded document.
    mutating func rawDocument(_ key: String, _ bytes: [UInt8]) { appendElement(0x03, key, bytes) }
}
