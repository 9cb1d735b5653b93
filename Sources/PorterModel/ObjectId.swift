import Foundation
import Synchronization

/// A 12-byte MongoDB/Realm ObjectId: a 4-byte big-endian timestamp, 5 process-random bytes and a
/// 3-byte counter. Ordered by its bytes, like the server orders them.
public struct ObjectId: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Two fields so the type stays a trivial value; `head` holds bytes 0...7 big-endian.
    private var head: UInt64
    private var tail: UInt32

    /// Creates an ObjectId from exactly 12 raw bytes; `nil` for any other count.
    ///
    /// Non-generic on purpose: hot loops in other modules (export, storage decoding) call it, and
    /// a generic initializer would run unspecialized across the module boundary.
    public init?(rawBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 12 else { return nil }
        var h: UInt64 = 0
        var t: UInt32 = 0
        for i in 0..<8 { h = h << 8 | UInt64(bytes[i]) }
        for i in 8..<12 { t = t << 8 | UInt32(bytes[i]) }
        head = h
        tail = t
    }

    /// Creates an ObjectId from exactly 12 bytes; `nil` for any other count.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 12 else { return nil }
        var h: UInt64 = 0
        var t: UInt32 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { h = h << 8 | UInt64(b) } else { t = t << 8 | UInt32(b) }
        }
        head = h
        tail = t
    }

    /// Parses 24 hexadecimal digits (either case).
    /// - Throws: ``PorterError/Code/parseError`` quoting the input when it is not 24 hex digits.
    public init(string hex: String) throws {
        let utf8 = hex.utf8
        guard utf8.count == 24 else {
            throw PorterError(
                .parseError, "invalid ObjectId '\(hex)': expected 24 hexadecimal digits, got \(utf8.count) characters")
        }
        // Straight into the two words (imports parse one ObjectId per document and link),
        // through the string's contiguous bytes where it has them.
        func parse(_ digits: some Sequence<UInt8>) -> (UInt64, UInt32)? {
            var h: UInt64 = 0
            var t: UInt32 = 0
            var position = 0
            for c in digits {
                guard let nibble = hexNibble(c) else { return nil }
                if position < 16 { h = h << 4 | UInt64(nibble) } else { t = t << 4 | UInt32(nibble) }
                position += 1
            }
            return (h, t)
        }
        guard let parsed = utf8.withContiguousStorageIfAvailable({ parse($0) }) ?? parse(utf8) else {
            throw PorterError(.parseError, "invalid ObjectId '\(hex)': not a hexadecimal string")
        }
        (head, tail) = parsed
    }

    /// Generates a new ObjectId from the current time, this process's random bytes and a counter.
    public static func generate() -> ObjectId { generate(at: Date()) }

    /// Generates a new ObjectId whose timestamp is `date` (seconds, truncated).
    public static func generate(at date: Date) -> ObjectId {
        // `Int64(_:)` traps on NaN, infinities and |x| ≥ 2^63; such dates get timestamp 0 instead.
        let seconds = UInt32(truncatingIfNeeded: Int64(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0)
        let generator = ObjectIdGenerator.shared
        let count = generator.next()
        // Straight into the two words (a byte array made and parsed per ObjectId cost about 800
        // instructions of every object added with a generated primary key): the timestamp, then
        // the 5 random bytes, then the 3-byte counter, all big-endian.
        var object = ObjectId(head: 0, tail: 0)
        object.head = UInt64(seconds) << 32 | generator.randomHigh
        object.tail = generator.randomLow << 24 | count & 0xFF_FFFF
        return object
    }

    /// An ObjectId of the two words (bytes 0...7 and 8...11, big-endian).
    private init(head: UInt64, tail: UInt32) {
        self.head = head
        self.tail = tail
    }

    /// The 12 bytes, most significant first.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(12)
        withUnsafeBytes(of: head.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: tail.bigEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Writes the 12 bytes, most significant first, to `destination` (which must hold 12).
    ///
    /// Non-generic and allocation-free, unlike ``bytes``: encoders call it for every ObjectId.
    public func copyBytes(to destination: UnsafeMutableRawPointer) {
        destination.storeBytes(of: head.bigEndian, toByteOffset: 0, as: UInt64.self)
        destination.storeBytes(of: tail.bigEndian, toByteOffset: 8, as: UInt32.self)
    }

    /// The creation time stored in the first four bytes.
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(UInt32(truncatingIfNeeded: head >> 32))) }

    /// 24 lowercase hexadecimal digits (Realm's name).
    public var stringValue: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(24)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Same as ``stringValue``.
    public var description: String { stringValue }

    /// Orders by bytes (timestamp first).
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        (lhs.head, lhs.tail) < (rhs.head, rhs.tail)
    }
}

/// Value of one ASCII hex digit, or nil.
@inline(__always)
package func hexNibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// Per-process state for ObjectId generation: random bytes fixed at start, and a counter that
/// starts at a random value, as the ObjectId spec requires.
final class ObjectIdGenerator: Sendable {
    static let shared = ObjectIdGenerator()
    let processRandom: [UInt8]
    /// The first 4 random bytes as the low half of an ObjectId's first word.
    let randomHigh: UInt64
    /// The fifth random byte.
    let randomLow: UInt32
    private let counter: Mutex<UInt32>

    private init() {
        var rng = SystemRandomNumberGenerator()
        processRandom = (0..<5).map { _ in UInt8.random(in: 0...255, using: &rng) }
        randomHigh = processRandom[0..<4].reduce(0) { $0 << 8 | UInt64($1) }
        randomLow = UInt32(processRandom[4])
        counter = Mutex(UInt32.random(in: 0..<0x100_0000, using: &rng))
    }

    func next() -> UInt32 {
        counter.withLock { value in
            value = (value &+ 1) & 0xFF_FFFF
            return value
        }
    }
}
