/// Naming rules for classes and properties, and how names are shown in messages.
enum SchemaNames {
    /// realm-core's limit: a class becomes the table `class_<name>`, and table names stop at 63 bytes.
    static let maxClassNameBytes = 57
    /// realm-core's limit for column names.
    static let maxPropertyNameBytes = 63

    /// Names a class cannot take because a type string would read them as a type, not a link.
    static let reservedClassNames: Set<String> = Set(PropertyType.primitiveNames.keys).union(TypeShorthand.keywords)

    /// What is wrong with a class name, without the `Class: ` prefix.
    static func problems(className name: String) -> [String] {
        var problems = common(name, kind: "class", maxBytes: maxClassNameBytes)
        // Porter names per-property storage `Class.property`, and `/` separates paths in tools.
        if name.contains(".") || name.contains("/") { problems.append("class name must not contain '.' or '/'") }
        if reservedClassNames.contains(name) { problems.append("class name must not be a type name") }
        return problems
    }

    /// What is wrong with a property name, without the `Class.property: ` prefix.
    static func problems(propertyName name: String) -> [String] {
        common(name, kind: "property", maxBytes: maxPropertyNameBytes)
    }

    private static func common(_ name: String, kind: String, maxBytes: Int) -> [String] {
        if name.isEmpty { return ["\(kind) name must not be empty"] }
        var problems: [String] = []
        let bytes = name.utf8.count
        if bytes > maxBytes { problems.append("\(kind) name must be at most \(maxBytes) UTF-8 bytes, not \(bytes)") }
        if name.unicodeScalars.contains(where: isControl) {
            problems.append("\(kind) name must not contain control characters")
        }
        return problems
    }

    /// C0 controls (NUL included), DEL and C1 controls: Unicode's general category Cc.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A name as shown in messages: `""` when empty, control characters as `\u{1}`, so a message
    /// always stays on one line and shows what is there.
    static func display(_ name: String) -> String {
        if name.isEmpty { return "\"\"" }
        guard name.unicodeScalars.contains(where: isControl) else { return name }
        return name.unicodeScalars.map {
            isControl($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0)
        }.joined()
    }
}
