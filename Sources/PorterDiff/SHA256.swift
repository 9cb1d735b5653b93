import PorterModel

/// SHA-256 fingerprints (`sha256:<hex>`) of plans and schemas, over PorterModel's one SHA-2
/// (``SHA2State``), so they need no package dependency.
///
/// Used only for fingerprints, never for security decisions.
package enum SHA256 {
    /// The 32-byte digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] { SHA2State.sha256(bytes) }

    /// The digest as 64 lowercase hex digits.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        return String(digest(bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// The digest of a string's UTF-8 bytes as hex.
    package static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

}

extension Schema {
    /// `sha256:<hex>` of the normalized compact schema JSON (version included): the fingerprint a
    /// plan records for the schema it was made from. Class order and JSON formatting never matter.
    public var sha256Checksum: String { "sha256:" + SHA256.hex(jsonString(pretty: false)) }
}
