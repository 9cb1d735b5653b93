import PorterModel

/// The machine-readable form of a diff (`porter diff --format json`).
extension DiffReport {
    /// The report as JSON: both sides, a summary, the changes (code, severity, class, property,
    /// message, diagnostics), applied renames and likely renames with their hint.
    public func jsonValue(oldName: String = "old", newName: String = "new") -> JSONValue {
        func side(_ name: String, _ schema: Schema) -> JSONValue {
            .object([
                "source": .string(name), "version": .number(schema.version), "checksum": .string(schema.sha256Checksum),
            ])
        }
        let summary = JSONValue.object([
            "changes": .number(entries.count), "automatic": .number(count(.automatic)),
            "migration": .number(count(.migration)), "converted": .number(count(.converted)),
            "destructive": .number(count(.destructive)),
            "needsMigration": .bool(needsMigration),
        ])
        let changes = entries.map { entry -> JSONValue in
            var members = [
                JSONMember("code", .string(entry.change.code)),
                JSONMember("severity", .string(entry.severity.rawValue)),
                JSONMember("class", .string(entry.change.className)),
            ]
            if let p = entry.change.propertyName { members.append(JSONMember("property", .string(p))) }
            members.append(JSONMember("message", .string(entry.change.message)))
            if let d = entry.diagnostics { members.append(JSONMember("diagnostics", DiffReport.json(d))) }
            return .object(members)
        }
        let applied =
            renames.classes.map {
                JSONValue.object(["kind": .string("class"), "from": .string($0.from), "to": .string($0.to)])
            }
            + renames.properties.map {
                JSONValue.object([
                    "kind": .string("property"), "class": .string($0.className), "from": .string($0.from),
                    "to": .string($0.to),
                ])
            }
        let likely = likelyRenames.map { r in
            JSONValue.object([
                "kind": .string(r.kind.rawValue), "class": .string(r.className), "from": .string(r.from),
                "to": .string(r.to),
                "ambiguous": .bool(r.isAmbiguous), "hint": .string(r.option),
            ])
        }
        return .object([
            "old": side(oldName, oldSchema), "new": side(newName, newSchema), "summary": summary,
            "changes": .array(changes), "renames": .array(applied), "likelyRenames": .array(likely),
        ])
    }

    static func json(_ d: ChangeDiagnostics) -> JSONValue {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: Int?) { if let value { members.append(JSONMember(key, .number(value))) } }
        func add(_ key: String, _ value: SampledCount?) {
            if let value {
                members.append(
                    JSONMember(
                        key,
                        .object(["count": .number(value.count), "sample": .array(value.sample.map(JSONValue.string))])))
            }
        }
        add("objects", d.objectCount)
        if let c = d.conversion { members.append(JSONMember("conversion", .string(c))) }
        add("valuesLost", d.valuesLost)
        add("nullsBlockingRequired", d.nullsBlockingRequired)
        add("unconvertible", d.unconvertible)
        add("duplicates", d.duplicates)
        add("orphans", d.orphans)
        add("multiplyLinked", d.multiplyLinked)
        add("mixedLinks", d.mixedLinks)
        members.append(JSONMember("losesData", .bool(d.losesData)))
        members.append(JSONMember("blocked", .bool(d.isBlocked)))
        return .object(members)
    }
}
