import Foundation
@testable import PorterModel
import PorterTestSupport

/// Builds random schemas for round-trip tests: every property type, optionality and collection
/// kind, odd names (empty, unicode, type-like, with quotes or control characters), link targets
/// that may not exist, primary keys that may be wrong, and defaults that fit their property.
///
/// Valid and invalid schemas alike must survive write → read; only states a file cannot express
/// are left out (a link without a target, `objectType` on a primitive).
struct RandomSchemaGenerator {
    /// SplitMix64 (PorterTestSupport): small, seedable, and the same on every platform.
    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1) }

    private mutating func next() -> UInt64 { random.next() }

    private mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    private mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }

    static let classNames = ["Dog", "Person", "A", "B", "Émile", "x y", "a?b", "Dog[]", "int", "list", "_", "😀", ""]
    static let propertyNames = ["_id", "name", "age", "a.b", "with \"quote\"", "tab\there", "", "ünï", "list", "x"]

    mutating func schema() -> Schema {
        var names = Set<String>()
        for _ in 0..<int(1..<6) { names.insert(pick(Self.classNames)) }
        let classNames = names.sorted()
        var classes = classNames.map { objectSchema(named: $0, among: classNames) }
        if chance(10), let first = classes.first { classes.append(first) }  // a duplicate class
        return Schema(version: chance(50) ? UInt64(int(0..<10)) : next(), classes: classes)
    }

    private mutating func objectSchema(named name: String, among classNames: [String]) -> ObjectSchema {
        let properties = (0..<int(0..<12)).map { _ in property(among: classNames) }
        var primaryKey: String?
        if chance(50) {
            primaryKey = properties.isEmpty || chance(20) ? pick(Self.propertyNames) : pick(properties).name
        }
        return ObjectSchema(name: name, properties: properties, primaryKey: primaryKey, embedded: chance(30))
    }

    private mutating func property(among classNames: [String]) -> Property {
        let name = pick(Self.propertyNames)
        let type = pick(PropertyType.allCases)
        let collection = chance(50) ? CollectionKind.none : pick(CollectionKind.allCases)
        let optional = chance(50)
        let indexed = chance(20)
        switch type {
        case .object:
            let target = chance(90) ? pick(classNames) : "Missing"
            return Property(
                name: name, type: .object, objectType: target, optional: optional, collection: collection,
                indexed: indexed)
        case .linkingObjects:
            var property = Property.linkingObjects(
                name, originClass: pick(classNames + ["Missing"]), originProperty: pick(Self.propertyNames))
            property.isOptional = chance(10)
            property.isIndexed = chance(10)
            property.collection = chance(10) ? .list : .none
            return property
        default:
            var property = Property(
                name: name, type: type, optional: optional, collection: collection, indexed: indexed)
            if chance(40) { property.defaultValue = defaultValue(for: property) }
            return property
        }
    }

    private mutating func defaultValue(for property: Property) -> Value {
        switch property.collection {
        case .none: return element(property)
        case .list: return .list((0..<int(0..<4)).map { _ in element(property) })
        case .set: return .set((0..<int(0..<4)).map { _ in element(property) })
        case .map:
            var map: [String: Value] = [:]
            for _ in 0..<int(0..<4) { map[pick(["k", "", "é", "a.b", "z"])] = element(property) }
            return .map(map)
        }
    }

    private mutating func element(_ property: Property) -> Value {
        if property.isOptional && chance(15) { return .null }
        let type =
            property.type == .mixed
            ? pick([PropertyType.bool, .int, .float, .double, .string, .data, .date, .decimal128, .objectId, .uuid])
            : property.type
        switch type {
        case .bool: return .bool(chance(50))
        case .int: return .int(Int64(bitPattern: next()) >> int(0..<64))
        case .float:
            return .float(
                pick([
                    Float(0), 1.5, -0.1, .infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                    Float(bitPattern: UInt32(truncatingIfNeeded: next()) & 0x7F7F_FFFF),
                ]))
        case .double:
            return .double(
                pick([
                    0, 1, -2.5, 1e300, -.infinity, .leastNonzeroMagnitude,
                    Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF),
                ]))
        case .string: return .string(pick(["", "active", "é\"\\\n\u{0}", "$oid", "2020-01-01"]))
        case .data: return .data(Data((0..<int(0..<8)).map { _ in UInt8(truncatingIfNeeded: next()) }))
        case .date: return .date(Timestamp(microseconds: Int64(int(-62_135_596_800_000_000..<253_402_300_799_999_999))))
        case .decimal128:
            return .decimal128(
                (try? Decimal128(string: pick(["0", "1.50", "-123456789012345678901234567890", "1E+10", "0.000001"])))
                    ?? Decimal128(0))
        case .objectId:
            return .objectId(
                ObjectId(bytes: (0..<12).map { _ in UInt8(truncatingIfNeeded: next()) }) ?? ObjectId.generate())
        case .uuid: return .uuid(UUID())
        default: return .null
        }
    }
}
