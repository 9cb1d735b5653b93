import Foundation
import PorterModel

/// realm-core's size limits (`Table::max_string_size`, `max_binary_size`: one node holds a value);
/// it refuses longer values ("String too big", "Binary too big"), so the writer does too.
enum WriterLimits {
    static let maxString = 0xFFFFF8 - 8 - 1
    static let maxBinary = 0xFFFFF8 - 8

    /// realm-core's `Timestamp` invariant: |nanoseconds| < 1e9 with the sign of the seconds.
    static func validTimestamp(_ seconds: Int64, _ nanoseconds: Int32) -> Bool {
        abs(Int64(nanoseconds)) < 1_000_000_000 && !(seconds > 0 && nanoseconds < 0)
            && !(seconds < 0 && nanoseconds > 0)
    }

    static func check(_ value: RealmValue, location: WriterLocation) -> PorterError? {
        switch value {
        case .string(let s) where s.utf8.count > maxString:
            return PorterError(
                .constraintViolation, "a string of \(s.utf8.count) bytes is longer than Realm's limit of \(maxString)",
                location: location.text)
        case .binary(let d) where d.count > maxBinary:
            return PorterError(
                .constraintViolation, "data of \(d.count) bytes is longer than Realm's limit of \(maxBinary)",
                location: location.text)
        case .timestamp(let seconds, let nanoseconds) where !validTimestamp(seconds, nanoseconds):
            return PorterError(
                .invalidValue,
                "timestamp \(seconds) s \(nanoseconds) ns: nanoseconds must be within ±999999999 and carry the sign of the seconds",
                location: location.text)
        default:
            return nil
        }
    }
}

/// Where a value is, spelled out only for an error message.
struct WriterLocation {
    let className: String
    let sourceKey: Int64
    let property: String

    var text: String { "\(className)[\(sourceKey)].\(property)" }
}
