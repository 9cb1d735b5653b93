import Foundation
import Porter

/// Seeds from `../shared/bson-corpus/*.json` (skipped when the folder is absent).
enum BSONCorpusSeeds {
    static let folder = FuzzHarness.root.deletingLastPathComponent().appendingPathComponent("shared/bson-corpus")

    /// Each corpus file as parsed JSON, with its `test_key`.
    static func files() -> [(testKey: String, json: JSONValue)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.sorted().filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? FuzzFiles.read(folder.appendingPathComponent(name).path),
                let json = try? JSONValue.parse(data)
            else { return nil }
            return (json["test_key"]?.stringValue ?? "", json)
        }
    }

    /// Valid canonical BSON and decode-error BSON, each as is and with the test field renamed.
    static func bson() -> [Data] {
        var seeds: [Data] = []
        for (key, json) in files() {
            for group in ["valid", "decodeErrors"] {
                for entry in json[group]?.arrayValue ?? [] {
                    guard let hex = entry["canonical_bson"]?.stringValue ?? entry["bson"]?.stringValue,
                        let bytes = decodeHex(hex)
                    else { continue }
                    seeds.append(Data(bytes))
                    if let renamed = renameFirstField(bytes, from: key) { seeds.append(Data(renamed)) }
                }
            }
        }
        return seeds
    }

    /// Valid Extended JSON (canonical, relaxed, degenerate) with the test field renamed to `mixed`.
    static func extendedJSON() -> [Data] {
        var seeds: [Data] = []
        for (key, json) in files() {
            for entry in json["valid"]?.arrayValue ?? [] {
                for form in ["canonical_extjson", "relaxed_extjson", "degenerate_extjson"] {
                    guard let text = entry[form]?.stringValue else { continue }
                    seeds.append(Data(text.utf8))
                    if case .object(var members)? = try? JSONValue.parse(text), let first = members.first,
                        first.key == key
                    {
                        members[0] = JSONMember("mixed", first.value)
                        seeds.append(Data(JSONValue.object(members).serialized(pretty: false).utf8))
                    }
                }
            }
            for entry in json["parseErrors"]?.arrayValue ?? [] {
                if let text = entry["string"]?.stringValue { seeds.append(Data(text.utf8)) }
            }
        }
        return seeds
    }

    /// The document with its first field's name `from` replaced by `mixed` (length fixed up).
    static func renameFirstField(_ bytes: [UInt8], from key: String) -> [UInt8]? {
        let keyBytes = Array(key.utf8)
        guard bytes.count > 6 + keyBytes.count, Array(bytes[5..<5 + keyBytes.count]) == keyBytes,
            bytes[5 + keyBytes.count] == 0
        else { return nil }
        let renamed = Array(bytes[0..<5]) + Array("mixed".utf8) + Array(bytes[(5 + keyBytes.count)...])
        let length = UInt32(renamed.count)
        return withUnsafeBytes(of: length.littleEndian) { Array($0) } + renamed[4...]
    }

    static func decodeHex(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let hi = nibble(digits[i]), let lo = nibble(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
