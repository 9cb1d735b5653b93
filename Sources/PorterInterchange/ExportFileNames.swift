import Foundation
import PorterDocument
import PorterModel

/// File names of class files: the class name, with every byte that could escape the output
/// folder, hide the file, or confuse a shell or another OS written as `%XX`.
///
/// ASCII letters, digits, `_` and `-` and non-ASCII characters stay as they are; everything else
/// (`/`, `.`, `%`, spaces, control characters, NUL, …) is percent-encoded, so a name can never be
/// `..`, contain a path separator, or start with a dot. The mapping is reversible: import reads
/// the class back from the file name.
package enum ExportFileNames {
    /// The schema file in an export folder.
    package static let schemaFile = "schema.json"

    /// `Person.bson`, `a%2Fb.json`, …
    package static func fileName(forClass className: String, extension ext: String) -> String {
        var out = ""
        for scalar in className.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D:
                out.unicodeScalars.append(scalar)
            case 0xA0...:
                out.unicodeScalars.append(scalar)
            default:
                for byte in String(scalar).utf8 { out += "%" + hexByte(byte).uppercased() }
            }
        }
        // `schema.json` is the schema; a class named `schema` must not overwrite it.
        if out == "schema" { out = "%73chema" }
        if out.isEmpty { out = "%" }
        return out + "." + ext
    }

    /// The class a file name stands for: the name without its extension, percent-decoded; nil when
    /// the encoding is malformed.
    package static func className(fromFileName fileName: String) -> String? {
        var base = Substring(fileName)
        if let dot = base.lastIndex(of: ".") { base = base[..<dot] }
        var bytes: [UInt8] = []
        var utf8 = Array(base.utf8)[...]
        while let c = utf8.first {
            utf8 = utf8.dropFirst()
            guard c == UInt8(ascii: "%") else { bytes.append(c); continue }
            guard utf8.count >= 2, let hi = hexNibbleValue(utf8[utf8.startIndex]),
                let lo = hexNibbleValue(utf8[utf8.startIndex + 1])
            else { return nil }
            bytes.append(hi << 4 | lo)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `directory/fileName`, checked to stay inside `directory`.
    /// - Throws: ``PorterError/Code/usage`` when the result would lie elsewhere.
    package static func path(in directory: String, fileName: String) throws -> String {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL
        let file = dir.appendingPathComponent(fileName).standardizedFileURL
        guard file.deletingLastPathComponent().path == dir.path, !fileName.contains("/") else {
            throw PorterError(.usage, "refusing to write '\(fileName)' outside the output folder", location: directory)
        }
        return file.path
    }
}
