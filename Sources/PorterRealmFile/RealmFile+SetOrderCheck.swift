import PorterModel

/// realm-core finds set elements by binary search, so a set must hold its elements in realm-core's
/// order, each once (``WriterSetOrder``): a set out of order or holding an element twice reads
/// fine but `contains` and `remove` miss elements in the app. `porter check` reports both.
extension RealmFile {
    /// What is wrong with the order of a set of property `property`, or nil. Files before format
    /// 24 used other string and mixed orders (realm-core re-sorts their sets when it upgrades
    /// them), so only format 24 is held to it.
    func setOrderProblem(_ items: [RealmValue], property: Property) -> String? {
        guard layoutFormat >= 24, items.count > 1 else { return nil }
        let type = WriterColumnType(property.type)
        let expected = WriterSetOrder.sortedUnique(
            items, decimalColumn: type == .decimal,
            nanLast: type == .float || type == .double)
        let duplicates = items.count - expected.count
        if duplicates > 0 {
            return "the set holds an element more than once (\(duplicates) duplicate\(duplicates == 1 ? "" : "s"))"
        }
        for (i, (found, wanted)) in zip(items, expected).enumerated() where !Self.sameElement(found, wanted) {
            return "set element \(i) is out of realm-core's set order (realm-core's lookups would miss elements)"
        }
        return nil
    }

    /// The same element: equal by the set comparison and, for floating point, the same NaN-ness.
    private static func sameElement(_ a: RealmValue, _ b: RealmValue) -> Bool {
        WriterSetOrder.isNaN(a) == WriterSetOrder.isNaN(b) && WriterSetOrder.compare(a, b) == 0
            && a.kindName == b.kindName
    }
}

private extension RealmValue {
    /// The case, for telling an int 1 from a double 1.0 in a mixed set.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .decimal128: return "decimal128"
        case .string: return "string"
        case .binary: return "binary"
        case .timestamp: return "timestamp"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .link: return "link"
        default: return "other"
        }
    }
}
