import Foundation
import PorterModel

/// Plan files: JSON read with the same care as schema files (unknown keys, missing fields and bad
/// types are errors naming `operations[3]` and the field), written in a stable order.
extension MigrationPlan {
    /// Reads a plan from its JSON bytes.
    /// - Throws: ``PorterError/Code/invalidInput`` with the location of the problem
    ///   (`operations[2].rule`, `targetSchema.classes[0]`, …).
    public init(jsonBytes: some Collection<UInt8>) throws {
        let json: JSONValue
        do {
            json = try JSONValue.parse(jsonBytes)
        } catch let error as PorterError {
            throw PorterError(.invalidInput, "invalid JSON: \(error.message)", location: error.location)
        }
        self = try PlanJSONReader.plan(from: json)
    }

    /// Reads a plan file; errors carry the path in front of the location (`plan.json:operations[2]`).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PorterError(.io, "cannot read plan file: \(error.localizedDescription)", location: path)
        }
        do {
            try self.init(jsonBytes: data)
        } catch let error as PorterError {
            throw error.located(in: path)
        }
    }

    /// The plan as a JSON document: format, versions, checksum, comment, operations, target schema.
    public var jsonValue: JSONValue {
        var members: [JSONMember] = [
            JSONMember("format", .string(MigrationPlan.formatName)),
            JSONMember("formatVersion", .number(MigrationPlan.formatVersion)),
            JSONMember("fromVersion", .number(fromVersion)),
            JSONMember("toVersion", .number(toVersion)),
            JSONMember("oldSchemaChecksum", .string(oldSchemaChecksum)),
        ]
        if !comment.isEmpty { members.append(JSONMember("comment", .array(comment.map(JSONValue.string)))) }
        members.append(JSONMember("operations", .array(operations.map { $0.jsonValue(target: targetSchema) })))
        members.append(JSONMember("targetSchema", targetSchema.jsonValue))
        return .object(members)
    }

    /// The plan file text; pretty output ends with a newline.
    public func jsonString(pretty: Bool = true) -> String {
        jsonValue.serialized(pretty: pretty) + (pretty ? "\n" : "")
    }
}

extension PlanOperation {
    /// The operation as it appears in a plan's `operations` array. Fill values are written in the
    /// typed form of the property they fill in `target`.
    public func jsonValue(target: Schema) -> JSONValue {
        var members = [JSONMember("op", .string(name))]
        func add(_ key: String, _ value: String?) { if let value { members.append(JSONMember(key, .string(value))) } }
        switch self {
        case .renameClass(let from, let to):
            add("from", from); add("to", to)
        case .renameProperty(let c, let from, let to):
            add("class", c); add("from", from); add("to", to)
        case .convert(let conversion):
            add("class", conversion.className); add("property", conversion.property)
            add("from", conversion.from); add("to", conversion.to); add("rule", conversion.rule?.rawValue)
        case .fill(let c, let p, let value):
            add("class", c); add("property", p)
            let property = target[c]?.property(named: p) ?? Property(name: p, type: value.scalarType ?? .mixed)
            members.append(JSONMember("value", FillValueJSON.json(for: value, of: property)))
        case .deleteData(let c, let p):
            add("class", c); add("property", p)
        case .deleteOrphans(let c):
            add("class", c)
        case .change(let change):
            add("class", change.className); add("property", change.propertyName)
            members += change.attributes
        }
        return .object(members)
    }
}
