import Foundation

extension ObjectId {
    /// An ObjectId from 12 raw bytes, for hot loops in other modules.
    ///
    /// `ObjectId.init?(bytes:)` is generic and not inlinable, so a call from another module runs
    /// unspecialized (about 1.5 µs each, most of an export's time on ObjectId keys). Going through
    /// the hex initializer keeps the work inside PorterModel, where it is specialized.
    /// TODO: drop this once `init?(bytes:)` is `@inlinable` or has a non-generic overload.
    public static func decoding(rawBytes bytes: UnsafeRawBufferPointer) -> ObjectId? {
        guard bytes.count == 12 else { return nil }
        let digits: StaticString = "0123456789abcdef"
        let hex = String(unsafeUninitializedCapacity: 24) { buffer in
            digits.withUTF8Buffer { table in
                for (i, byte) in bytes.enumerated() {
                    buffer[2 * i] = table[Int(byte >> 4)]
                    buffer[2 * i + 1] = table[Int(byte & 0xF)]
                }
            }
            return 24
        }
        return try? ObjectId(hex: hex)
    }
}

extension Decimal128 {
    /// A decimal from its 16 BSON bytes (little-endian, low half first); see
    /// ``ObjectId/decoding(rawBytes:)`` for why this is not `init?(bsonBytes:)`.
    public static func decoding(rawBytes bytes: UnsafeRawBufferPointer) -> Decimal128? {
        guard bytes.count == 16 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for i in 0..<8 {
            low |= UInt64(bytes[i]) << (8 * UInt64(i))
            high |= UInt64(bytes[8 + i]) << (8 * UInt64(i))
        }
        return Decimal128(high: high, low: low)
    }
}
