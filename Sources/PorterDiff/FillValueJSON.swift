import PorterModel

/// Fill values in plan files are written the way schema files write defaults (ISO 8601 dates,
/// hex ObjectIds, decimal strings, …), typed by the property they fill. Reading and writing go
/// through the schema-file default-value codec, so both file kinds always agree.
enum FillValueJSON {
    /// The value `json` stands for as a single value of `property`'s base type.
    /// - Throws: ``PorterError/Code/invalidInput`` when it does not fit that type.
    static func value(from json: JSONValue, for property: Property) throws -> Value {
        let slot = scalarSlot(of: property)
        let document = JSONValue.object([
            "classes": .array([
                .object([
                    "name": .string("Fill"),
                    "properties": .object([
                        JSONMember("value", .object(["type": .string(slot.typeShorthand), "default": json]))
                    ]),
                ])
            ])
        ])
        let parsed = try? Schema(json: document)
        guard let value = parsed?["Fill"]?.property(named: "value")?.defaultValue, fits(value, slot) else {
            throw PorterError(.invalidInput, "value \(json) does not fit type '\(slot.typeShorthand)'")
        }
        return value
    }

    /// The JSON of a single value of `property`'s base type.
    static func json(for value: Value, of property: Property) -> JSONValue {
        var slot = scalarSlot(of: property)
        slot.defaultValue = value
        return slot.jsonValue["default"] ?? .null
    }

    /// Whether `value` is a non-null value of the slot's type (`mixed` takes any scalar).
    static func fits(_ value: Value, _ slot: Property) -> Bool {
        if value.isNull { return false }
        return slot.type == .mixed ? value.scalarType != nil : value.scalarType == slot.type
    }

    /// A required single-value property of the same base type, the shape a fill has.
    private static func scalarSlot(of property: Property) -> Property {
        Property(name: "value", type: property.type, optional: property.type == .mixed)
    }
}
