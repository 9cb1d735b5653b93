import Foundation

/// A growable byte window for stream readers: bytes `start..<end` are unread. Backed by one
/// malloc'd block (grown with realloc), so per-byte access is a plain pointer read.
package final class ReadBuffer {
    /// The bytes.
    package private(set) var base: UnsafeMutablePointer<UInt8>
    /// Allocated size.
    package private(set) var capacity: Int
    /// First unread byte.
    package var start = 0
    /// One past the last buffered byte.
    package var end = 0

    /// Creates a buffer of `capacity` bytes.
    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Moves the unread bytes to the front; returns how far indexes moved down.
    @discardableResult
    package func compact() -> Int {
        let shift = start
        guard shift > 0 else { return 0 }
        if end > start { (base).update(from: base + start, count: end - start) }
        end -= shift
        start = 0
        return shift
    }

    /// Grows the allocation to hold at least `count` bytes from index 0.
    package func reserve(_ count: Int) {
        guard count > capacity else { return }
        var newCapacity = capacity
        while newCapacity < count { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: end)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Reads from `input` into the free space (growing it first when full); returns the count
    /// read, 0 at the end of the input.
    package func read(from input: ByteInput) throws -> Int {
        if end == capacity { reserve(capacity * 2) }
        let n = try input.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: capacity - end))
        end += n
        return n
    }

    /// The bytes `range` as a raw buffer (valid until the buffer changes).
    package func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}
