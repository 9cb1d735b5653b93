/// CRC-64 with the ECMA-182 polynomial in Go's `hash/crc64` convention (reflected, all-ones
/// initial value and final XOR; "CRC-64/XZ"): what mongodump's archive multiplexer computes over
/// each collection's documents (mongo-tools `common/archive/multiplexer.go`,
/// `crc64.MakeTable(crc64.ECMA)`), and mongorestore's demultiplexer checks.
package struct CRC64: Sendable, Equatable {
    private static let table: [UInt64] = (0..<256).map { i -> UInt64 in
        var crc = UInt64(i)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xC96C_5795_D787_0F42 : crc >> 1 }
        return crc
    }

    private var state: UInt64 = ~0

    /// A fresh checksum (of no bytes: 0).
    package init() {}

    /// Adds bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8) }
        }
        state = crc
    }

    /// Adds bytes.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of every byte added.
    package var value: UInt64 { ~state }
}
