import ArgumentParser
import Foundation
import Porter

/// `--encryption-key HEX` or `--encryption-key-file F`: the 64-byte key of an encrypted Realm file,
/// as the Realm SDKs take it (128 hex digits in text form).
public struct EncryptionOptions: ParsableArguments {
    /// The key as 128 hex digits.
    @Option(
        name: .long,
        help: ArgumentHelp("The 64-byte key of an encrypted Realm file, as 128 hex digits.", valueName: "hex"))
    public var encryptionKey: String?
    /// A file holding the key: 64 raw bytes, or 128 hex digits.
    @Option(
        name: .long, help: ArgumentHelp("A file holding the key: 64 raw bytes or 128 hex digits.", valueName: "file"))
    public var encryptionKeyFile: String?

    /// ArgumentParser requirement.
    public init() {}

    /// Argument errors (both options, a key that is not 128 hex digits): exit code 64.
    public func validate() throws {
        if encryptionKey != nil && encryptionKeyFile != nil {
            throw ValidationError("pass --encryption-key or --encryption-key-file, not both")
        }
        if let hex = encryptionKey {
            do { _ = try Self.parseHex(hex, source: "--encryption-key") } catch let error as PorterError {
                throw ValidationError(error.headline)
            }
        }
    }

    /// The key, or nil when none was given.
    /// - Throws: ``PorterError/Code/usage`` for a malformed key or both options at once.
    public func key() throws -> [UInt8]? {
        switch (encryptionKey, encryptionKeyFile) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw PorterError(.usage, "pass --encryption-key or --encryption-key-file, not both")
        case (let hex?, nil):
            return try Self.parseHex(hex, source: "--encryption-key")
        case (nil, let path?):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PorterError(.io, "cannot read the key file", location: path)
            }
            if data.count == 64 { return [UInt8](data) }
            guard let text = String(data: data, encoding: .utf8) else {
                throw PorterError(
                    .usage, "the key file holds \(data.count) bytes: expected 64 raw bytes or 128 hex digits",
                    location: path)
            }
            return try Self.parseHex(text.trimmingCharacters(in: .whitespacesAndNewlines), source: path)
        }
    }

    /// 128 hex digits as 64 bytes.
    static func parseHex(_ text: String, source: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count == 128 else {
            throw PorterError(
                .usage, "\(source): expected 128 hex digits (a 64-byte key), got \(digits.count) characters")
        }
        var key: [UInt8] = []
        key.reserveCapacity(64)
        for i in stride(from: 0, to: 128, by: 2) {
            guard let high = hexDigit(digits[i]), let low = hexDigit(digits[i + 1]) else {
                throw PorterError(
                    .usage,
                    "\(source): '\(String(decoding: digits[i...i + 1], as: UTF8.self))' at position \(i + 1) is not hex"
                )
            }
            key.append(high << 4 | low)
        }
        return key
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
