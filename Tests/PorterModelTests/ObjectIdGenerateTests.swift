import Foundation
import Testing

@testable import PorterModel

/// `ObjectId.generate(at:)` builds the two words directly: its bytes must stay the ObjectId
/// layout (timestamp, 5 process-random bytes, 3-byte counter, all big-endian).
@Suite("ObjectId generation")
struct ObjectIdGenerateTests {
    @Test("The first 4 bytes are the big-endian timestamp, truncated to whole seconds")
    func timestamp() {
        let id = ObjectId.generate(at: Date(timeIntervalSince1970: 0x5F1B_2C3D + 0.75))
        #expect(Array(id.bytes[0..<4]) == [0x5F, 0x1B, 0x2C, 0x3D])
        #expect(id.timestamp == Date(timeIntervalSince1970: 0x5F1B_2C3D))
    }

    @Test("Dates outside 32 bits keep their low 32 bits; NaN gets timestamp 0")
    func timestampEdges() {
        let late = ObjectId.generate(at: Date(timeIntervalSince1970: 0x1_0000_0002))
        #expect(Array(late.bytes[0..<4]) == [0, 0, 0, 2])
        let nan = ObjectId.generate(at: Date(timeIntervalSince1970: .nan))
        #expect(Array(nan.bytes[0..<4]) == [0, 0, 0, 0])
    }

    @Test("Bytes 4...8 are the process's random bytes; 9...11 a counter that goes up by one (modulo 2^24)")
    func randomAndCounter() throws {
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        let first = ObjectId.generate(at: date)
        let second = ObjectId.generate(at: date)
        #expect(Array(first.bytes[4..<9]) == ObjectIdGenerator.shared.processRandom)
        #expect(Array(second.bytes[4..<9]) == ObjectIdGenerator.shared.processRandom)
        func counter(_ id: ObjectId) -> UInt32 { id.bytes[9..<12].reduce(0) { $0 << 8 | UInt32($1) } }
        // Other tests running at the same time may take counter values in between.
        let step = (counter(second) &- counter(first)) & 0xFF_FFFF
        #expect(step >= 1 && step < 10_000)
        #expect(first != second)
        // The words and the bytes agree (hex, parse, bytes).
        #expect(ObjectId(bytes: second.bytes) == second)
        #expect(try ObjectId(string: second.stringValue) == second)
    }
}
