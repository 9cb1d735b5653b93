import Foundation
import PorterModel

/// realm-core's size limits (`Table::max_string_size`, `max_binary_size`: one node holds a value);
/// it refuses longer values ("String too big", "Binary too big"), so the writer does too.
enum WriterLimits {
    static let maxString = 0xFFFFF8 - 8 - 1
    static let maxBinary = 0xFFFFF8 - 8

    static func check(_ value: RealmValue, location: WriterLocation) -> PorterError? {
        switch value {
        case .string(let s) where s.utf8.count > maxString:
            return PorterError(.constraintViolation, "a string of \(s.utf8.count) bytes is longer than Realm's limit of \(maxString)",
                               location: location.text)
        case .binary(let d) where d.count > maxBinary:
            return PorterError(.constraintViolation, "data of \(d.count) bytes is longer than Realm's limit of \(maxBinary)",
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
