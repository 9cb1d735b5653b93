import Foundation

/// Realm's remaining `ObjectId` spellings, and Porter's earlier names as deprecated aliases.
extension ObjectId {
    /// An ObjectId made of its three parts, as Realm's `ObjectId(timestamp:machineId:processId:)`:
    /// the time in seconds (truncated), the low 24 bits of `machineId` and the 16 bits of
    /// `processId` (the five "random" bytes), and a counter in the last three bytes.
    public init(timestamp: Date, machineId: Int, processId: Int32) {
        let seconds = UInt32(truncatingIfNeeded: Int64(exactly: timestamp.timeIntervalSince1970.rounded(.down)) ?? 0)
        let count = ObjectIdGenerator.shared.next()
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        withUnsafeBytes(of: seconds.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: machineId).bigEndian) {
            bytes.append(contentsOf: $0.dropFirst())
        }
        withUnsafeBytes(of: UInt16(truncatingIfNeeded: processId).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(truncatingIfNeeded: count >> 16))
        bytes.append(UInt8(truncatingIfNeeded: count >> 8))
        bytes.append(UInt8(truncatingIfNeeded: count))
        self.init(bytes: bytes)!
    }

    /// Porter's earlier name for ``init(string:)``.
    @available(*, deprecated, renamed: "init(string:)")
    public init(hex: String) throws { try self.init(string: hex) }

    /// Porter's earlier name for ``stringValue``.
    @available(*, deprecated, renamed: "stringValue")
    public var hexString: String { stringValue }
}

extension ObjectId: Codable {
    /// An ObjectId from its 24-digit hexadecimal string, as Realm decodes one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(string: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ObjectId (24 hexadecimal digits)")
        }
    }

    /// The 24-digit hexadecimal string, as Realm encodes an ObjectId.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
