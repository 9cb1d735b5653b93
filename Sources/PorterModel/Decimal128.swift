/// An IEEE 754-2008 128-bit decimal floating-point value in the binary integer decimal (BID)
/// encoding, exactly as BSON stores it. Text conversion lives in `Decimal128+String.swift`.
///
/// Equality and hashing compare the encoding (so `1.0` and `1.00` differ, as in BSON).
public struct Decimal128: Sendable, Hashable {
    /// The low 64 bits of the encoding.
    public var low: UInt64
    /// The high 64 bits of the encoding (sign, combination field, exponent, top of the coefficient).
    public var high: UInt64

    /// Wraps the two halves of a BID encoding.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Reads 16 raw bytes in BSON order (little-endian, low half first); `nil` for any other
    /// count. Non-generic so callers in other modules get specialized code.
    public init?(rawBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var lo: UInt64 = 0
        var hi: UInt64 = 0
        for i in 0..<8 {
            lo |= UInt64(bytes[i]) << (8 * UInt64(i))
            hi |= UInt64(bytes[8 + i]) << (8 * UInt64(i))
        }
        low = lo
        high = hi
    }

    /// Reads 16 bytes in BSON order (little-endian, low half first); `nil` for any other count.
    public init?<Bytes: Collection>(bsonBytes bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        var lo: UInt64 = 0
        var hi: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { lo |= UInt64(b) << (8 * UInt64(i)) } else { hi |= UInt64(b) << (8 * UInt64(i - 8)) }
        }
        low = lo
        high = hi
    }

    /// The 16 bytes in BSON order (little-endian, low half first).
    public var bsonBytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(16)
        withUnsafeBytes(of: low.littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: high.littleEndian) { out.append(contentsOf: $0) }
        return out
    }
}
