import Foundation
import PorterModel

/// Swift source for an app's model layer, generated from a schema (`porter codegen`): GRDB
/// records for the tables of `porter export --format sqlite`, or RealmSwift classes.
package enum Codegen {
    /// The languages `porter codegen --lang` prints.
    package enum Language: String, CaseIterable, Sendable {
        /// GRDB records and a `DatabaseMigrator` creating the relational export's tables.
        case grdb
        /// RealmSwift `Object` / `EmbeddedObject` classes with `@Persisted` properties.
        case realmswift
    }

    /// The source for `schema` in `language`.
    /// - Throws: ``PorterError`` (`usage`) for a schema the relational layout cannot hold (GRDB).
    package static func generate(_ schema: Schema, language: Language) throws -> String {
        switch language {
        case .grdb: return try grdb(schema)
        case .realmswift: return realmSwift(schema)
        }
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false", "is",
        "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Type", "await", "async",
    ]

    /// `name` as a Swift identifier: invalid characters become `_`, a leading digit gets `_`.
    static func identifier(_ name: String) -> String {
        var out = ""
        for (i, scalar) in name.unicodeScalars.enumerated() {
            let ok =
                scalar == "_" || (scalar.properties.isAlphabetic && scalar.isASCII)
                || (i > 0 && ("0"..."9").contains(Character(scalar)))
            out.unicodeScalars.append(ok ? scalar : "_")
        }
        if out.isEmpty || out.first!.isNumber { out = "_" + out }
        return out
    }

    /// `identifier(name)`, in backticks when it is a keyword.
    static func member(_ name: String) -> String {
        let id = identifier(name)
        return keywords.contains(id) ? "`\(id)`" : id
    }

    /// A type name: the identifier with its first letter capitalised.
    static func typeName(_ name: String) -> String {
        var id = identifier(name)
        if let first = id.first, first.isLowercase { id = first.uppercased() + id.dropFirst() }
        return keywords.contains(id) ? id + "_" : id
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
