/// A growable byte buffer for building text, one document at a time.
///
/// Appending to a Swift array checks uniqueness and capacity on every byte; the Extended JSON
/// writer appends a few hundred bytes per document, so it reserves once per value and then
/// writes through a plain pointer.
final class TextBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes written so far.
    var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, valid until the next append.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Appends one byte (room must have been reserved).
    @inline(__always)
    func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends one byte, reserving room first.
    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends raw bytes.
    @inline(__always)
    func append(_ pointer: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        if length <= 16 {
            // Keys and short values: a loop beats a call to memcpy.
            for i in 0..<length { base[count + i] = pointer[i] }
        } else {
            (base + count).update(from: pointer, count: length)
        }
        count += length
    }

    /// Appends the bytes of an ASCII literal.
    @inline(__always)
    func append(_ literal: StaticString) {
        append(literal.utf8Start, literal.utf8CodeUnitCount)
    }
}
