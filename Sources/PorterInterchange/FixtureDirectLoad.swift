import Foundation
import PorterDocument
import PorterModel
import PorterStore

extension Database {
    /// Loads a plain JSON fixture held in memory straight from its bytes into the store, many
    /// rows per INSERT, when it keeps to what this path reads; returns false, with nothing
    /// written, for anything else, and the caller runs the general import (which then reports
    /// any problem with its location).
    ///
    /// The path reads fixture objects (`{"schemaVersion": n, "Class": [ … ], …}`) in insert
    /// mode whose documents give their primary key and hold scalars of any type that plain JSON
    /// strings, numbers and booleans can give (read by ``ScalarReader``, as the general import
    /// reads them), links by primary key and lists of those; escapes, embedded objects, mixed
    /// values, sets, maps, `_key` labels, unknown fields and every error go to the general
    /// import. Objects get the keys the general import would give them (in document order).
    package func loadFixtureDirectly(data: Data, name: String, options: ImportOptions) -> Bool {
        guard options.mode == .insert, !isReadOnly, !isInWriteTransaction, data.count <= FixtureDirectLoad.sizeLimit,
            name.hasSuffix(".json"), !name.hasSuffix(".metadata.json"),
            ExportFileNames.className(fromFileName: name).flatMap({ schema[$0] }) == nil
        else { return false }
        let read = data.withUnsafeBytes { raw in
            FixtureDirectLoad(schema: schema, options: options).read(raw.bindMemory(to: UInt8.self))
        }
        guard let load = read else { return false }
        return load.write(into: self)
    }
}

/// The documents of a fixture read for the direct load, by class.
final class FixtureDirectLoad {
    /// Larger fixtures stream through the general import (this path holds every value read).
    static let sizeLimit = 16 << 20

    /// The bytes of a regular `.json` file of at most ``sizeLimit`` bytes; nil for anything else
    /// (folders, other files, files that cannot be read: the general import reports those).
    static func smallFile(_ url: URL) -> Data? {
        guard url.isFileURL, url.pathExtension == "json",
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? NSNumber, size.intValue <= sizeLimit
        else { return nil }
        return try? Data(contentsOf: url)
    }
    let schema: Schema
    let options: ImportOptions
    let plans: [ClassReadPlan]
    let planIndex: [String: Int]
    /// The classes with documents, in the order the fixture names them first.
    // Unchecked exclusivity (here and in the types below): touched for every value, never reentrantly.
    @exclusivity(unchecked) var classes: [DirectClass] = []
    @exclusivity(unchecked) var classIndex: [String: Int] = [:]

    init(schema: Schema, options: ImportOptions) {
        self.schema = schema
        self.options = options
        (plans, planIndex) = ClassReadPlan.plans(for: schema)
    }

    /// Reads the whole fixture; nil when the general import must read it.
    func read(_ bytes: UnsafeBufferPointer<UInt8>) -> FixtureDirectLoad? {
        var scanner = FixtureScanner(bytes)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var sawVersion = false
        var documents = 0
        if scanner.take(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let rawKey = scanner.rawString(), let key = String(validating: rawKey, as: UTF8.self),
                scanner.take(UInt8(ascii: ":"))
            else { return nil }
            if key == "schemaVersion" {
                guard !sawVersion, case .int64(let version)? = scanner.scalar(), version >= 0,
                    UInt64(version) <= schema.version
                else { return nil }
                sawVersion = true
                continue
            }
            guard let planAt = planIndex[key], !plans[planAt].isEmbedded, scanner.take(UInt8(ascii: "[")) else {
                return nil
            }
            let cls = directClass(planAt)
            if !scanner.take(UInt8(ascii: "]")) {
                repeat {
                    guard readDocument(&scanner, cls) else { return nil }
                    documents += 1
                } while scanner.take(UInt8(ascii: ","))
                guard scanner.take(UInt8(ascii: "]")) else { return nil }
            }
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")), scanner.atEnd(), documents > 0 else { return nil }
        return self
    }

    private func directClass(_ planAt: Int) -> DirectClass {
        let name = plans[planAt].name
        if let index = classIndex[name] { return classes[index] }
        let cls = DirectClass(plans[planAt], plans: plans)
        classIndex[name] = classes.count
        classes.append(cls)
        return cls
    }

    /// Reads one document into `cls`; false when the general import must read the fixture.
    private func readDocument(_ scanner: inout FixtureScanner, _ cls: DirectClass) -> Bool {
        let plan = cls.plan
        let count = plan.properties.count
        guard let pkIndex = plan.primaryKeyIndex, scanner.take(UInt8(ascii: "{")) else { return false }
        let row = cls.count
        let base = cls.cells.count
        for _ in 0..<count { cls.cells.append(.null) }
        for index in 0..<count { cls.seen[index] = false }
        var expected = 0
        if !scanner.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = scanner.rawString(), scanner.take(UInt8(ascii: ":")),
                    let index = cls.index(of: key, expected: expected), !cls.seen[index]
                else { return false }
                cls.seen[index] = true
                expected = index + 1
                guard readProperty(&scanner, cls, index, row: row, cell: base + index) else { return false }
            } while scanner.take(UInt8(ascii: ","))
            guard scanner.take(UInt8(ascii: "}")) else { return false }
        }
        for index in 0..<count where !cls.seen[index] {
            let property = plan.properties[index]
            if property.isComputed { continue }
            // The general import makes up a missing primary key (a new ObjectId, the default).
            if index == pkIndex { return false }
            if property.isCollection {
                guard property.defaultValue == nil else { return false }
                continue
            }
            if !options.fillMissing && plan.requiredIndexes.contains(index) { return false }
            cls.cells[base + index] = Database.defaultValue(for: property)
        }
        let pk = cls.cells[base + pkIndex]
        guard FixtureDirectLoad.isKeyValue(pk), cls.addRow(row, key: pk) else { return false }
        cls.count += 1
        return true
    }

    /// Reads the value of property `index`; false when the general import must read it.
    private func readProperty(
        _ scanner: inout FixtureScanner, _ cls: DirectClass, _ index: Int, row: Int, cell: Int
    ) -> Bool {
        let field = cls.fields[index]
        guard field.readable else { return false }
        let target = field.target.map { plans[$0] }
        switch field.collection {
        case .none:
            guard let value = scanner.scalar() else { return false }
            if case .null = value { return field.isOptional }
            if let target {
                guard let key = FixtureDirectLoad.primaryKey(value, target) else { return false }
                cls.links.append(DirectLink(cell: cell, target: field.target ?? 0, key: key))
                return true
            }
            guard let read = try? ScalarReader.read(value, as: field.type) else { return false }
            cls.cells[cell] = read
            return true
        case .list:
            guard scanner.take(UInt8(ascii: "[")) else { return false }
            if scanner.take(UInt8(ascii: "]")) { return true }
            let list = cls.list(index)
            var position: Int64 = 0
            repeat {
                guard let value = scanner.scalar() else { return false }
                let element: Value
                if case .null = value {
                    guard field.isOptional, target == nil else { return false }
                    element = .null
                } else if let target {
                    guard let key = FixtureDirectLoad.primaryKey(value, target) else { return false }
                    element = key
                } else {
                    guard let read = try? ScalarReader.read(value, as: field.type) else { return false }
                    element = read
                }
                list.owners.append(row)
                list.positions.append(position)
                list.values.append(element)
                position += 1
            } while scanner.take(UInt8(ascii: ","))
            return scanner.take(UInt8(ascii: "]"))
        case .set, .map:
            return false
        }
    }

    /// The primary-key value a link names, read as the target's primary-key type.
    private static func primaryKey(_ value: DocumentValue, _ target: ClassReadPlan) -> Value? {
        guard let pk = target.primaryKey, pk.type != .mixed, let key = try? ScalarReader.read(value, as: pk.type),
            isKeyValue(key)
        else { return nil }
        return key
    }

    /// Whether a primary key compares in Swift as the database compares it: not null, and a
    /// string only when ASCII (Swift compares strings by canonical equivalence, SQLite by bytes).
    private static func isKeyValue(_ value: Value) -> Bool {
        switch value {
        case .null: return false
        case .string(let text): return text.utf8.allSatisfy { $0 < 0x80 }
        case .int, .objectId, .uuid: return true
        default: return false
        }
    }

    /// Writes every object in one transaction; false (rolled back, nothing written) on any problem.
    func write(into database: Database) -> Bool {
        do {
            try database.beginWrite()
        } catch {
            return false
        }
        do {
            // Another connection may have changed the schema the documents were read by.
            guard database.schema == schema else { throw DirectLoadDeclined() }
            // Link targets are plan indexes: hashing class names per link cost more than the rest.
            var classOfPlan = [Int?](repeating: nil, count: plans.count)
            for (index, cls) in classes.enumerated() { classOfPlan[planIndex[cls.plan.name] ?? 0] = index }
            var firstKeys: [Int64] = []
            var writers: [FixtureRowWriter] = []
            for cls in classes {
                let writer = try FixtureRowWriter(database: database, className: cls.plan.name)
                guard let first = try writer.firstKey() else { throw DirectLoadDeclined() }
                firstKeys.append(first)
                writers.append(writer)
            }
            var lookups: [Int: PrimaryKeyLookup] = [:]
            func key(_ target: Int, _ pk: Value) throws -> Int64 {
                if let index = classOfPlan[target], let row = classes[index].row(pk) {
                    return firstKeys[index] + Int64(row)
                }
                let lookup = try lookups[target] ?? PrimaryKeyLookup(database: database, className: plans[target].name)
                lookups[target] = lookup
                guard let found = try lookup.key(pk) else { throw DirectLoadDeclined() }
                return found.rawValue
            }
            for (index, cls) in classes.enumerated() {
                for link in cls.links { cls.cells[link.cell] = .int(try key(link.target, link.key)) }
                let first = firstKeys[index]
                try writers[index].insert(
                    cells: cls.cells, stride: cls.plan.properties.count, count: cls.count, firstKey: first)
                for list in cls.lists {
                    if let target = list.target {
                        for i in list.values.indices { list.values[i] = .int(try key(target, list.values[i])) }
                    }
                    try writers[index].insertListElements(
                        list.property, owners: list.owners.map { first + Int64($0) }, positions: list.positions,
                        values: list.values)
                }
            }
            try database.commitWrite()
            return true
        } catch {
            database.cancelWrite()
            return false
        }
    }
}

/// Thrown inside the direct load's transaction to roll it back and leave the fixture to the
/// general import.
private struct DirectLoadDeclined: Error {}

/// A link column waiting for its target's key.
struct DirectLink {
    var cell: Int
    /// The plan index of the target class.
    var target: Int
    var key: Value
}

/// The elements of one list property of a class's documents.
final class DirectList {
    let property: String
    /// The plan index of the target class of a list of links (whose values are primary keys until written).
    let target: Int?
    @exclusivity(unchecked) var owners: [Int] = []
    @exclusivity(unchecked) var positions: [Int64] = []
    @exclusivity(unchecked) var values: [Value] = []

    init(property: String, target: Int?) {
        self.property = property
        self.target = target
    }
}

/// What reading one property needs, computed once per class (a `Property` copy costs its strings).
struct DirectField {
    var type: PropertyType
    var collection: CollectionKind
    var isOptional: Bool
    /// Whether the direct load reads this property at all (not computed, mixed, embedded, or a
    /// link to a class without a primary key).
    var readable: Bool
    /// The plan index of a link's target.
    var target: Int?
}

/// One class's documents: their values by declared property position, row by row.
final class DirectClass {
    let plan: ClassReadPlan
    /// The property names' bytes, to match keys without making strings.
    let names: [[UInt8]]
    let fields: [DirectField]
    @exclusivity(unchecked) var cells: [Value] = []
    @exclusivity(unchecked) var count = 0
    /// The row of each primary key: integer keys apart, as hashing an Int64 costs less than a `Value`.
    @exclusivity(unchecked) private var rowsByInt: [Int64: Int] = [:]
    @exclusivity(unchecked) private var rowsByKey: [Value: Int] = [:]
    @exclusivity(unchecked) var links: [DirectLink] = []
    @exclusivity(unchecked) var lists: [DirectList] = []
    /// For each list property, its index in `lists` once it has elements.
    @exclusivity(unchecked) private var listSlots: [Int?]
    /// Which properties the current document gave.
    @exclusivity(unchecked) var seen: [Bool]

    init(_ plan: ClassReadPlan, plans: [ClassReadPlan]) {
        self.plan = plan
        names = plan.properties.map { Array($0.name.utf8) }
        fields = plan.properties.indices.map { i in
            let property = plan.properties[i]
            let target = plan.targets[i].map { plans[$0] }
            var readable = !property.isComputed && property.type != .mixed
            if let target, target.isEmbedded || target.primaryKey == nil { readable = false }
            if property.type == .object && target == nil { readable = false }
            return DirectField(
                type: property.type, collection: property.collection, isOptional: property.isOptional,
                readable: readable, target: plan.targets[i])
        }
        seen = Array(repeating: false, count: plan.properties.count)
        listSlots = Array(repeating: nil, count: plan.properties.count)
    }

    /// The position of the property a key names; documents mostly list fields in schema order.
    func index(of key: UnsafeBufferPointer<UInt8>, expected: Int) -> Int? {
        if expected < names.count, DirectClass.same(names[expected], key) { return expected }
        return names.firstIndex { DirectClass.same($0, key) }
    }

    private static func same(_ name: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == key.count else { return false }
        guard let keyBase = key.baseAddress else { return true }
        return name.withUnsafeBufferPointer { $0.baseAddress.map { memcmp($0, keyBase, key.count) == 0 } ?? false }
    }

    /// The elements of list property `index`.
    func list(_ index: Int) -> DirectList {
        if let slot = listSlots[index] { return lists[slot] }
        let property = plan.properties[index]
        let list = DirectList(property: property.name, target: fields[index].target)
        listSlots[index] = lists.count
        lists.append(list)
        return list
    }

    /// Records the row of a primary key; false when another document of the fixture has it.
    func addRow(_ row: Int, key: Value) -> Bool {
        if case .int(let i) = key { return rowsByInt.updateValue(row, forKey: i) == nil }
        return rowsByKey.updateValue(row, forKey: key) == nil
    }

    /// The row of the document with primary key `key`, if the fixture has one.
    func row(_ key: Value) -> Int? {
        if case .int(let i) = key { return rowsByInt[i] }
        return rowsByKey[key]
    }
}
