import PorterModel

/// The human-readable form of a diff (`porter diff --format text`).
extension DiffReport {
    /// The report as text: a summary line, one line per change (severity, code, Realm's message)
    /// with its data diagnostics indented below, applied renames, and likely renames with hints.
    /// `oldName`/`newName` label the two sides (file paths).
    public func text(oldName: String = "old", newName: String = "new") -> String {
        var lines = [
            "Schema diff: \(oldName) (version \(oldSchema.version)) -> \(newName) (version \(newSchema.version))"
        ]
        if entries.isEmpty {
            lines.append(
                oldSchema.version == newSchema.version ? "No changes." : "No schema changes; only the version differs.")
        } else {
            lines.append(
                "\(entries.count) change\(entries.count == 1 ? "" : "s"): \(count(.automatic)) automatic, \(count(.migration)) need a migration, \(count(.converted)) converted (no data lost), \(count(.destructive)) destructive"
            )
        }
        for rename in renames.classes {
            lines.append("  rename       rename-class          Class '\(rename.from)' is renamed to '\(rename.to)'.")
        }
        for rename in renames.properties {
            lines.append(
                "  rename       rename-property       Property '\(rename.className).\(rename.from)' is renamed to '\(rename.to)'."
            )
        }
        let codeWidth = 22
        for entry in entries {
            let severity = entry.severity.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
            let code = entry.change.code.padding(toLength: codeWidth, withPad: " ", startingAt: 0)
            lines.append("  \(severity) \(code)\(entry.change.message)" + Self.conversionNote(entry))
            if let d = entry.diagnostics {
                for line in DiffReport.describe(d, entry.change) {
                    lines.append(String(repeating: " ", count: 15 + codeWidth) + line)
                }
            }
        }
        if !likelyRenames.isEmpty {
            lines.append("Likely renames (not applied):")
            for rename in likelyRenames { lines.append("  \(rename.message)") }
        }
        if needsMigration && oldSchema.version >= newSchema.version {
            lines.append(
                "Note: these changes need a higher schema version (the new schema has \(newSchema.version), the old \(oldSchema.version))."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// What `porter migrate` does with a converted type change.
    static func conversionNote(_ entry: DiffEntry) -> String {
        guard entry.severity == .converted, case .changePropertyType(_, let old, let new) = entry.change else {
            return ""
        }
        if ValueConversion.isTotal(old.type, new.type) { return " porter migrate converts it: no data lost." }
        return " porter migrate converts it exactly: no data lost; a value that does not convert stops the migration."
    }

    /// Diagnostic lines for one change, e.g. `12 objects; 12 non-null values would be lost`.
    public static func describe(_ d: ChangeDiagnostics, _ change: SchemaChange) -> [String] {
        var parts: [String] = []
        if let n = d.objectCount { parts.append("\(n) object\(n == 1 ? "" : "s")") }
        if let conversion = d.conversion { parts.append("converts \(conversion)") }
        if let lost = d.valuesLost, lost > 0 {
            if case .removeClass = change {
                parts.append("all \(lost) would be deleted")
            } else {
                parts.append("\(lost) non-null value\(lost == 1 ? "" : "s") would be lost")
            }
        } else if d.valuesLost == 0, change.isDestructive, d.conversion == nil {
            parts.append("no data would be lost")
        }
        if let nulls = d.nullsBlockingRequired, nulls > 0 {
            parts.append("\(nulls) null\(nulls == 1 ? " needs" : "s need") a fill value (--fill)")
        }
        if let o = d.orphans, o > 0 {
            parts.append("\(o) object\(o == 1 ? " has" : "s have") no parent and would be deleted")
        }
        if let m = d.multiplyLinked, m > 0 {
            parts.append("\(m) object\(m == 1 ? " has" : "s have") several parents and would be copied")
        }
        var lines = parts.isEmpty ? [] : [parts.joined(separator: "; ")]
        if let u = d.unconvertible, u.count > 0 {
            lines.append(
                "\(u.count) value\(u.count == 1 ? "" : "s") cannot be converted: \(u.sample.joined(separator: ", "))")
        }
        if let dup = d.duplicates, dup.count > 0 {
            lines.append(
                "\(dup.count) duplicate value\(dup.count == 1 ? "" : "s") block the primary key: \(dup.sample.joined(separator: ", "))"
            )
        }
        if let mixed = d.mixedLinks, mixed.count > 0 {
            lines.append(
                "\(mixed.count) link\(mixed.count == 1 ? "" : "s") from mixed properties block embedding: \(mixed.sample.joined(separator: ", "))"
            )
        }
        return lines
    }
}
