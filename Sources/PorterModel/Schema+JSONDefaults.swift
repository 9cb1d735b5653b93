import Foundation

/// Converts default values between schema-file JSON and ``Value``.
///
/// Two encodings are used. The *typed* one reads JSON the way the property's type asks (a date
/// from an ISO 8601 string, data from base64, …) and is what people write. The *natural* one needs
/// no type: plain JSON scalars, arrays and objects, plus single-key tags in the style of MongoDB
/// Extended JSON (`{"$oid": …}`, `{"$date": …}`) for values JSON has no literal for. A default the
/// typed reading rejects is kept in its natural reading, so validation can report the mismatch
/// together with every other schema error, and so writing then reading any schema gives it back.
enum DefaultValueJSON {
    /// The value `json` stands for as a default of `property`: typed if it fits, else natural.
    static func value(from json: JSONValue, for property: Property) -> Value {
        typedValue(json, for: property) ?? naturalValue(json)
    }

    /// The JSON for a default of `property`: typed if the value fits the property, else natural.
    static func json(for value: Value, of property: Property) -> JSONValue {
        property.accepts(defaultValue: value) ? typedJSON(value, of: property) : naturalJSON(value)
    }

    // MARK: Typed

    static func typedValue(_ json: JSONValue, for property: Property) -> Value? {
        guard property.type != .object, property.type != .linkingObjects else { return nil }
        switch property.collection {
        case .none:
            return element(json, property.type, optional: property.isOptional)
        case .list, .set:
            guard let items = json.arrayValue else { return nil }
            var values: [Value] = []
            for item in items {
                guard let value = element(item, property.type, optional: property.isOptional) else { return nil }
                values.append(value)
            }
            return property.collection == .list ? .list(values) : .set(values)
        case .map:
            guard let members = json.objectMembers else { return nil }
            var values: [String: Value] = [:]
            for member in members {
                guard let value = element(member.value, property.type, optional: property.isOptional) else {
                    return nil
                }
                values[member.key] = value
            }
            return .map(values)
        }
    }

    private static func element(_ json: JSONValue, _ type: PropertyType, optional: Bool) -> Value? {
        if json.isNull { return optional ? .null : nil }
        switch type {
        case .bool: return json.boolValue.map(Value.bool)
        case .int: return json.int64Value.map(Value.int)
        case .float:
            let number = json.numberText.flatMap { Float($0) } ?? json.stringValue.flatMap(nonFinite).map { Float($0) }
            return number.flatMap { $0.isFinite || json.stringValue != nil ? Value.float($0) : nil }
        case .double:
            let number = json.numberText.flatMap { Double($0) } ?? json.stringValue.flatMap(nonFinite)
            return number.flatMap { $0.isFinite || json.stringValue != nil ? Value.double($0) : nil }
        case .string: return json.stringValue.map(Value.string)
        case .data: return json.stringValue.flatMap { Data(base64Encoded: $0) }.map(Value.data)
        case .date: return json.stringValue.flatMap { try? Timestamp(iso8601: $0) }.map(Value.date)
        case .decimal128:
            return (json.stringValue ?? json.numberText).flatMap { try? Decimal128(string: $0) }.map(Value.decimal128)
        case .objectId: return json.stringValue.flatMap { try? ObjectId(string: $0) }.map(Value.objectId)
        case .uuid: return json.stringValue.flatMap { UUID(uuidString: $0) }.map(Value.uuid)
        case .mixed: return naturalValue(json)
        case .object, .linkingObjects: return nil
        }
    }

    /// The typed JSON of a value that fits `property`: collections become arrays and objects, and
    /// their elements (or the single value) are written as the base type reads them back.
    private static func typedJSON(_ value: Value, of property: Property) -> JSONValue {
        let mixed = property.type == .mixed
        func element(_ v: Value) -> JSONValue { mixed ? naturalJSON(v) : typedScalarJSON(v) }
        switch value {
        case .list(let items), .set(let items):
            return JSONValue.array(items.map { element($0) })
        case .map(let entries):
            let members = entries.sorted { $0.key < $1.key }.map { JSONMember($0.key, element($0.value)) }
            return JSONValue.object(members)
        default:
            return element(value)
        }
    }

    private static func typedScalarJSON(_ value: Value) -> JSONValue {
        switch value {
        case .float(let f): return f.isFinite ? .number(f) : .string(nonFiniteText(Double(f)))
        case .double(let d): return d.isFinite ? .number(d) : .string(nonFiniteText(d))
        case .data(let d): return .string(d.base64EncodedString())
        case .date(let t): return .string(t.iso8601)
        case .decimal128(let d): return .string(d.description)
        case .objectId(let o): return .string(o.stringValue)
        case .uuid(let u): return .string(u.uuidString.lowercased())
        default: return naturalJSON(value)
        }
    }

    // MARK: Natural

    /// The value of any JSON without a type: integers that fit are `int`, other numbers `double`,
    /// arrays lists, objects maps, and the single-key tags their tagged value.
    static func naturalValue(_ json: JSONValue) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text):
            if !text.contains(where: { ".eE".contains($0) }), let i = Int64(text) { return .int(i) }
            return .double(Double(text) ?? .nan)
        case .string(let s): return .string(s)
        case .array(let items): return .list(items.map(naturalValue))
        case .object(let members):
            if members.count == 1, let tagged = taggedValue(members[0]) { return tagged }
            var map: [String: Value] = [:]
            for member in members where map[member.key] == nil { map[member.key] = naturalValue(member.value) }
            return .map(map)
        }
    }

    private static func taggedValue(_ member: JSONMember) -> Value? {
        let text = member.value.stringValue
        switch member.key {
        case "$numberFloat": return text.flatMap { nonFinite($0).map { Float($0) } ?? Float($0) }.map(Value.float)
        case "$numberDouble": return text.flatMap { nonFinite($0) ?? Double($0) }.map(Value.double)
        case "$numberDecimal": return text.flatMap { try? Decimal128(string: $0) }.map(Value.decimal128)
        case "$oid": return text.flatMap { try? ObjectId(string: $0) }.map(Value.objectId)
        case "$date": return text.flatMap { try? Timestamp(iso8601: $0) }.map(Value.date)
        case "$uuid": return text.flatMap { UUID(uuidString: $0) }.map(Value.uuid)
        case "$binary": return text.flatMap { Data(base64Encoded: $0) }.map(Value.data)
        case "$set": return member.value.arrayValue.map { .set($0.map(naturalValue)) }
        case "$object":
            guard case .map(let fields) = naturalValue(member.value), member.value.objectMembers != nil else {
                return nil
            }
            return .object(fields)
        case "$link":
            guard let className = member.value["class"]?.stringValue, let key = member.value["key"]?.int64Value else {
                return nil
            }
            return .link(ObjectLink(className, ObjectKey(key)))
        default: return nil
        }
    }

    /// The natural JSON of any value; ``naturalValue(_:)`` reads it back as the same value.
    static func naturalJSON(_ value: Value) -> JSONValue {
        func tag(_ key: String, _ value: JSONValue) -> JSONValue { .object([JSONMember(key, value)]) }
        func sortedMembers(_ entries: [String: Value]) -> [JSONMember] {
            entries.sorted { $0.key < $1.key }.map { JSONMember($0.key, naturalJSON($0.value)) }
        }
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(i)
        case .float(let f): return tag("$numberFloat", .string(f.isFinite ? f.description : nonFiniteText(Double(f))))
        case .double(let d): return d.isFinite ? .number(d) : tag("$numberDouble", .string(nonFiniteText(d)))
        case .string(let s): return .string(s)
        case .data(let d): return tag("$binary", .string(d.base64EncodedString()))
        case .date(let t): return tag("$date", .string(t.iso8601))
        case .decimal128(let d): return tag("$numberDecimal", .string(d.description))
        case .objectId(let o): return tag("$oid", .string(o.stringValue))
        case .uuid(let u): return tag("$uuid", .string(u.uuidString.lowercased()))
        case .link(let l):
            return tag("$link", .object(["class": .string(l.className), "key": .number(l.key.rawValue)]))
        case .list(let items): return .array(items.map(naturalJSON))
        case .set(let items): return tag("$set", .array(items.map(naturalJSON)))
        case .map(let entries): return .object(sortedMembers(entries))
        case .object(let fields): return tag("$object", .object(sortedMembers(fields)))
        }
    }

    /// `NaN`, `Infinity` and `-Infinity`, the spellings JavaScript and Extended JSON use.
    private static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return nil
        }
    }

    private static func nonFiniteText(_ d: Double) -> String { d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity") }
}

extension Property {
    /// Whether `value` fits this property as a default: the right collection shape, each element of
    /// the base type (`mixed` takes null or any primitive), null only where optional. Links and
    /// `linkingObjects` take no default at all.
    func accepts(defaultValue value: Value) -> Bool {
        guard type != .object, type != .linkingObjects else { return false }
        func fits(_ element: Value) -> Bool {
            if element.isNull { return isOptional }
            return type == .mixed ? element.scalarType != nil : element.scalarType == type
        }
        switch (collection, value) {
        case (.none, _): return fits(value)
        case (.list, .list(let items)), (.set, .set(let items)): return items.allSatisfy(fits)
        case (.map, .map(let entries)): return entries.values.allSatisfy(fits)
        default: return false
        }
    }
}
