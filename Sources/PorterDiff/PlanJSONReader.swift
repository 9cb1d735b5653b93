import PorterModel

/// Turns a parsed plan file into a ``MigrationPlan``, checking its shape: every problem names its
/// place (`operations[3].rule`) and says what was expected.
enum PlanJSONReader {
    static func plan(from json: JSONValue) throws -> MigrationPlan {
        let top = try members(
            of: json, at: "",
            allowed: [
                "format", "formatVersion", "fromVersion", "toVersion", "oldSchemaChecksum",
                "comment", "operations", "targetSchema",
            ])
        guard top["format"]?.stringValue == MigrationPlan.formatName else {
            throw failure(
                "not a Porter migration plan: \"format\" must be \"\(MigrationPlan.formatName)\"", at: "format")
        }
        let formatVersion = try number(top["formatVersion"], at: "formatVersion")
        guard formatVersion <= MigrationPlan.formatVersion else {
            throw failure(
                "plan format \(formatVersion) is newer than this Porter reads (\(MigrationPlan.formatVersion))",
                at: "formatVersion")
        }
        let from = try number(top["fromVersion"], at: "fromVersion")
        let to = try number(top["toVersion"], at: "toVersion")
        guard let checksum = top["oldSchemaChecksum"]?.stringValue, checksum.hasPrefix("sha256:") else {
            throw failure("\"oldSchemaChecksum\" must be a string \"sha256:<hex>\"", at: "oldSchemaChecksum")
        }
        var comment: [String] = []
        if let value = top["comment"] {
            if let text = value.stringValue {
                comment = [text]
            } else if let lines = value.arrayValue, lines.allSatisfy({ $0.stringValue != nil }) {
                comment = lines.compactMap(\.stringValue)
            } else {
                throw failure("\"comment\" must be a string or an array of strings", at: "comment")
            }
        }
        guard let schemaJSON = top["targetSchema"] else { throw failure("missing key \"targetSchema\"", at: "") }
        let target: Schema
        do {
            target = try Schema(json: schemaJSON)
        } catch let error as PorterError {
            throw PorterError(
                .invalidInput, error.message, location: error.location.map { "targetSchema.\($0)" } ?? "targetSchema")
        }
        let errors = target.validationErrors()
        if !errors.isEmpty {
            throw PorterError(.invalidInput, "the target schema is invalid", location: "targetSchema", details: errors)
        }
        guard target.version == to else {
            throw failure(
                "\"toVersion\" is \(to) but the target schema's version is \(target.version)", at: "toVersion")
        }
        // A plan may go downward (a down migration, `porter plan --reverse`): `migrate` applies it
        // only with --allow-downgrade.
        guard let items = top["operations"]?.arrayValue else {
            throw failure("\"operations\" must be an array", at: top["operations"] == nil ? "" : "operations")
        }
        var operations: [PlanOperation] = []
        for (index, item) in items.enumerated() {
            operations.append(try operation(from: item, at: "operations[\(index)]", target: target))
        }
        return MigrationPlan(
            fromVersion: from, toVersion: to, oldSchemaChecksum: checksum, targetSchema: target,
            operations: operations, comment: comment)
    }

    private static func operation(from json: JSONValue, at location: String, target: Schema) throws -> PlanOperation {
        guard let op = json["op"]?.stringValue else {
            throw failure("missing \"op\" (one of \(PlanOperation.names.joined(separator: ", ")))", at: location)
        }
        guard PlanOperation.names.contains(op) else {
            throw failure(
                "unknown op \"\(op)\" (expected one of \(PlanOperation.names.joined(separator: ", ")))",
                at: location + ".op")
        }
        let here = "\(location) (\(op))"
        switch op {
        case "renameClass":
            let f = try members(of: json, at: here, allowed: ["op", "from", "to", "message"])
            return .renameClass(from: try string(f, "from", at: here), to: try string(f, "to", at: here))
        case "renameProperty":
            let f = try members(of: json, at: here, allowed: ["op", "class", "from", "to", "message"])
            return .renameProperty(
                className: try string(f, "class", at: here), from: try string(f, "from", at: here),
                to: try string(f, "to", at: here))
        case "convert":
            let f = try members(
                of: json, at: here, allowed: ["op", "class", "property", "from", "to", "rule", "message"])
            var conversion = PlanConversion(
                className: try string(f, "class", at: here), property: try string(f, "property", at: here),
                to: try string(f, "to", at: here))
            if f["from"] != nil { conversion.from = try string(f, "from", at: here) }
            if f["rule"] != nil {
                let text = try string(f, "rule", at: here)
                guard let parsed = ConversionRule(rawValue: text) else {
                    throw failure(
                        "unknown rule \"\(text)\" (expected \(ConversionRule.allCases.map(\.rawValue).joined(separator: ", ")))",
                        at: here + ".rule")
                }
                conversion.rule = parsed
            }
            return .convert(conversion)
        case "fill":
            let f = try members(of: json, at: here, allowed: ["op", "class", "property", "value", "message"])
            let className = try string(f, "class", at: here), name = try string(f, "property", at: here)
            guard let valueJSON = f["value"] else { throw failure("missing key \"value\"", at: here) }
            guard let property = target[className]?.property(named: name), !property.isComputed else {
                throw failure("property '\(className).\(name)' is not in the target schema", at: here)
            }
            do {
                let value = try FillValueJSON.value(from: valueJSON, for: property)
                // The 16 MB limit of every stored value (a plan is edited by hand).
                _ = try FillArgument.checkedSize(value, "\(className).\(name)")
                return .fill(className: className, property: name, value: value)
            } catch let error as PorterError {
                throw failure(error.message, at: here + ".value")
            }
        case "deleteData":
            let f = try members(of: json, at: here, allowed: ["op", "class", "property", "message"])
            return .deleteData(
                className: try string(f, "class", at: here),
                property: f["property"] == nil ? nil : try string(f, "property", at: here))
        case "deleteOrphans":
            let f = try members(of: json, at: here, allowed: ["op", "class", "message"])
            return .deleteOrphans(className: try string(f, "class", at: here))
        default:
            return .change(try change(op, from: json, at: here))
        }
    }

    private static func change(_ op: String, from json: JSONValue, at location: String) throws -> PlanChange {
        let propertyLevel = !["addClass", "removeClass", "changeClassType", "changePrimaryKey"].contains(op)
        var allowed = ["op", "class", "message"]
        if propertyLevel { allowed.append("property") }
        switch op {
        case "addProperty", "removeProperty": allowed.append("type")
        case "changePropertyType", "changePrimaryKey": allowed += ["from", "to"]
        case "changeClassType": allowed.append("embedded")
        default: break
        }
        let f = try members(of: json, at: location, allowed: allowed)
        let className = try string(f, "class", at: location)
        let property = propertyLevel ? try string(f, "property", at: location) : nil
        if op == "changeClassType", f["embedded"]?.boolValue == nil {
            throw failure("\"embedded\" must be true or false", at: location)
        }
        let attributes = (json.objectMembers ?? []).filter { !["op", "class", "property"].contains($0.key) }
        return PlanChange(operation: op, className: className, propertyName: property, attributes: attributes)
    }

    // MARK: Shape helpers

    private static func members(of json: JSONValue, at location: String, allowed: [String]) throws -> [String:
        JSONValue]
    {
        guard let members = json.objectMembers else {
            throw failure("expected an object, got \(json.kindName)", at: location)
        }
        if let duplicate = json.duplicateKeys.first { throw failure("duplicate key \"\(duplicate)\"", at: location) }
        var table: [String: JSONValue] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                throw failure(
                    "unknown key \"\(member.key)\" (expected \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")))",
                    at: location)
            }
            table[member.key] = member.value
        }
        return table
    }

    private static func string(_ fields: [String: JSONValue], _ key: String, at location: String) throws -> String {
        guard let value = fields[key] else { throw failure("missing key \"\(key)\"", at: location) }
        guard let text = value.stringValue, !text.isEmpty else {
            throw failure("\"\(key)\" must be a non-empty string, got \(value.kindName)", at: location)
        }
        return text
    }

    private static func number(_ json: JSONValue?, at location: String) throws -> UInt64 {
        guard let json else { throw failure("missing key \"\(location)\"", at: "") }
        guard let value = json.uint64Value else {
            throw failure("must be a non-negative integer, got \(json)", at: location)
        }
        return value
    }

    private static func failure(_ message: String, at location: String) -> PorterError {
        PorterError(.invalidInput, message, location: location.isEmpty ? nil : location)
    }
}
