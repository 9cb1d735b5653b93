import Foundation
import PorterDocument

/// A sliding window over a byte stream: bytes from `start` to `end` are buffered; reading more
/// moves the unread bytes to the front first, so memory holds one document at a time.
final class JSONInputBuffer {
    let input: ByteInput
    let storage = ReadBuffer()
    private(set) var atEOF = false

    init(input: ByteInput) {
        self.input = input
    }

    /// The first byte still needed (everything before it may be discarded).
    var start: Int {
        get { storage.start }
        set { storage.start = newValue }
    }

    /// One past the last buffered byte.
    var end: Int { storage.end }

    /// Reads more input, keeping the bytes from `start`; returns how far buffer indexes moved
    /// down (subtract it from any index kept across the call), or nil at the end of the input.
    func refill() throws -> Int? {
        guard !atEOF else { return nil }
        let shift = storage.compact()
        if try storage.read(from: input) == 0 {
            atEOF = true
            return nil
        }
        return shift
    }

    /// The byte at `index`, reading more when needed; nil at the end of the input. `index` may
    /// move (by the shift of a refill), so callers pass it inout.
    @inline(__always)
    func byte(at index: inout Int) throws -> UInt8? {
        while index >= storage.end {
            guard let shift = try refill() else { return nil }
            index -= shift
        }
        return storage.base[index]
    }

    /// Bytes of the buffer, for messages and parsing.
    func slice(_ range: Range<Int>) -> [UInt8] { Array(storage.bytes(range)) }
}
